// A test oracle: reads a rendered prompt back into the view it was rendered from, so the prompt
// tests can check that the text carries every field of the view. It was the local server's reader
// before the server became a game-agnostic double (the engine no longer parses prompts).
/**
 * Reads a rendered Stag Hunt prompt back into the view the mock players'
 * rules need, from the text alone: the inverse of the Stag Hunt templates
 * (`prompts/staghunt/`). Confidences come back with the prompt's three decimals.
 *
 * @module
 */
import type { StagHuntAction } from "../../../../../engine/games/staghunt/payoffs.ts";
import type {
  PublicRound,
  RejustifyView,
  StagHuntView,
} from "../../../../../engine/games/staghunt/views.ts";

/** Which Stag Hunt call a prompt is, or `null` for a prompt of another game. */
export type StagHuntCall = { role: "player"; call: "stag_hunt_turn" | "rejustify" };

/**
 * Recognises a Stag Hunt prompt.
 *
 * @example
 * ```ts
 * import { stagHuntCall } from "./staghunt_reader.ts";
 * if (stagHuntCall("You are p01, one of 3 players in a repeated Stag Hunt game.", '{"action": "Stag" | "Hare"')?.call !== "stag_hunt_turn") throw new Error();
 * ```
 */
export function stagHuntCall(system: string, user: string): StagHuntCall | null {
  if (!/players in a repeated Stag Hunt game/.test(system)) return null;
  if (user.includes("[YOUR REPORT]")) return { role: "player", call: "rejustify" };
  return { role: "player", call: "stag_hunt_turn" };
}

/**
 * Reads a player's view from its prompt (a re-justification prompt also
 * yields the report to justify).
 *
 * @example
 * ```ts
 * import { readStagHuntView } from "./staghunt_reader.ts";
 * const v = readStagHuntView(
 *   "You are p02, one of 2 players in a repeated Stag Hunt game.\n  a fixed order (p01, p02); each\n- Coordination succeeds in a round when at least M = 2 of the 2 public reports are Stag.\n  Stag when coordination succeeds: 4\n  Hare when coordination succeeds: 2\n  Stag when coordination fails: 0\n  Hare when coordination fails: 2",
 *   'Game Master: round 1 begins.\n- p01 (speaker 1): Hare, confidence 1. "Safe."\nRound 1: you are speaker 2 of 2.');
 * if (v.you !== "p02" || v.transcript[0].reports[0].action !== "Hare" || v.payoffs.RS !== 4) throw new Error();
 * ```
 */
export function readStagHuntView(system: string, user: string): RejustifyView {
  const num = (text: string, re: RegExp) => Number(text.match(re)?.[1] ?? 0);
  const transcript: PublicRound[] = [];
  for (const line of user.split("\n")) {
    const start = line.match(/^Game Master: round (\d+) begins\.$/);
    if (start) {
      transcript.push({ round: Number(start[1]), reports: [], outcome: null });
      continue;
    }
    const report = line.match(
      /^- (\S+) \(speaker (\d+)\): (Stag|Hare), confidence ([\d.]+)\. (".*")$/,
    );
    if (report && transcript.length) {
      transcript.at(-1)!.reports.push({
        agent: report[1],
        position: Number(report[2]),
        action: report[3] as StagHuntAction,
        confidence: Number(report[4]),
        justification: JSON.parse(report[5]),
      });
      continue;
    }
  }
  const round = num(user, /Round (\d+): you are speaker/);
  const M = num(system, /at least M = (\d+)/);
  // The prompt prints no outcomes (Section 4.2): a finished round's is read
  // off its public reports, as the view computes it (Stag count, M met).
  for (const r of transcript) {
    if (r.round >= round) continue;
    const stag = r.reports.filter((x) => x.action === "Stag").length;
    r.outcome = { stag, success: stag >= M };
  }
  const view: StagHuntView = {
    you: system.match(/You are (\S+), one of/)?.[1] ?? "unknown",
    position: num(user, /you are speaker (\d+) of/),
    round,
    N: num(system, /one of (\d+) players/),
    M,
    payoffs: {
      RS: num(system, /Stag when coordination succeeds: (-?[\d.]+)/),
      HS: num(system, /Hare when coordination succeeds: (-?[\d.]+)/),
      RF: num(system, /Stag when coordination fails: (-?[\d.]+)/),
      HF: num(system, /Hare when coordination fails: (-?[\d.]+)/),
    },
    order: (system.replace(/\n {2}/g, " ").match(/a fixed order \(([^)]*)\)/)?.[1] ?? "").split(
      ", ",
    ),
    transcript,
  };
  const justify = user.match(/Your report this round is (Stag|Hare) with confidence ([\d.]+)\./);
  return {
    ...view,
    justify: justify
      ? { action: justify[1] as StagHuntAction, confidence: Number(justify[2]) }
      : { action: "Hare", confidence: 0 },
  };
}

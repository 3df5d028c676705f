/**
 * The Stag Hunt's prompt blocks (corrupted-communication paper, Section 4.2).
 * The system prompt gives the agent's name, N, M and the full payoff matrix,
 * and nothing private about the others; the user prompt is the accumulating
 * public transcript: each round's start announcement by the Game Master and
 * the structured reports of everyone who has spoken (action, confidence,
 * one-sentence justification), as Section 4.2 lists them. No outcome line:
 * a finished round's outcome is what its public reports say, which the
 * transcript shows whole.
 *
 * Choices where the paper is open (its Appendix B prompt is not in our copy):
 * the wording below; the number of rounds is not stated (the view does not
 * carry it); confidences are printed with up to three decimals; and the
 * re-justification call asks the agent to justify the action its report now
 * shows without saying that it was changed (corrupted agents are
 * indistinguishable from honest ones, Section 4.3).
 *
 * @module
 */
import type { PublicRound, StagHuntView } from "../views.ts";

/** A confidence with up to three decimals ("0.8", "0.667", "1"). */
function conf(c: number): string {
  return String(Math.round(c * 1000) / 1000);
}

/**
 * The system prompt: role, game rules and payoff matrix.
 *
 * @example
 * ```ts
 * import { system } from "./blocks.ts";
 * const s = system({ you: "p02", N: 5, M: 3, order: ["p01", "p02", "p03", "p04", "p05"],
 *   payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 } } as never);
 * if (!s.includes("at least M = 3 of the 5 public reports are Stag")) throw new Error(s);
 * ```
 */
export function system(v: StagHuntView): string {
  const p = v.payoffs;
  return `[ROLE]
You are ${v.you}, one of ${v.N} players in a repeated Stag Hunt game.

[GAME]
- Every round each player chooses Stag or Hare. Players speak one at a time in
  a fixed order (${v.order.join(", ")}); each report is shown to everyone
  before the next player speaks.
- Coordination succeeds in a round when at least M = ${v.M} of the ${v.N} public reports are Stag.
- Your payoff each round:
  Stag when coordination succeeds: ${p.RS}
  Hare when coordination succeeds: ${p.HS}
  Stag when coordination fails: ${p.RF}
  Hare when coordination fails: ${p.HF}
- Round outcomes and payoffs are decided by the public reports.
- You see the full public transcript of all rounds so far and nothing else.`;
}

function roundLines(r: PublicRound): string[] {
  const lines = [`Game Master: round ${r.round} begins.`];
  for (const x of r.reports) {
    lines.push(
      `- ${x.agent} (speaker ${x.position}): ${x.action}, confidence ${conf(x.confidence)}. ` +
        JSON.stringify(x.justification),
    );
  }
  return lines;
}

/**
 * The [PUBLIC TRANSCRIPT] block.
 *
 * @example
 * ```ts
 * import { transcript } from "./blocks.ts";
 * const t = transcript({ N: 2, transcript: [{ round: 1, outcome: null, reports: [
 *   { agent: "p01", position: 1, action: "Stag", confidence: 0.8, justification: "Let us hunt." }] }] } as never);
 * if (!t.includes('- p01 (speaker 1): Stag, confidence 0.8. "Let us hunt."')) throw new Error(t);
 * ```
 */
export function transcript(v: StagHuntView): string {
  return ["[PUBLIC TRANSCRIPT]", ...v.transcript.flatMap(roundLines)].join("\n");
}

/**
 * Where the player speaks this round: `Round r: you are speaker k of N.`
 *
 * @example
 * ```ts
 * import { speakerLine } from "./blocks.ts";
 * if (speakerLine({ round: 2, position: 1, N: 5 }) !== "Round 2: you are speaker 1 of 5.") throw new Error();
 * ```
 */
export function speakerLine(v: Pick<StagHuntView, "round" | "position" | "N">): string {
  return `Round ${v.round}: you are speaker ${v.position} of ${v.N}.`;
}

/**
 * The corruption mechanism (Section 4.3 and the b3 ablation): which players
 * are corrupted, and what a corrupted player's public action is.
 *
 * - The F corrupted players are drawn uniformly at random (a seeded
 *   Fisher-Yates shuffle of the speaking order, first F taken) from the core
 *   stream (episode seed, round 0, `"engine"`, `"corrupted"`), and stay fixed
 *   across rounds.
 * - `base`: the public action is the inversion of the original.
 * - `b3`: the public action is Stag or Hare with probability 1/2 each,
 *   independent of the original, from the stream (seed, round, agent,
 *   `"b3_public_action"`); Stag iff the draw is below 1/2.
 * - `communication_only`: the public action is the inversion of the original
 *   (and re-justified), as in `base`, but the action executed (scored) is the
 *   original: only the communication is corrupted.
 * - In `base` and `b3` the executed action is the public one
 *   ({@linkcode executedAction}).
 *
 * @module
 */
import { openStream, shuffled, type Stream } from "../../core/rng.ts";
import type { CorruptionMode } from "./params.ts";
import type { StagHuntAction } from "./payoffs.ts";
import { playerIds } from "./players.ts";

/** Stream purpose of the corrupted-player draw. */
export const CORRUPTED_PURPOSE = "corrupted";

/** Stream purpose of the b3 public-action draw. */
export const B3_PURPOSE = "b3_public_action";

/**
 * Draws F of the players uniformly at random; the result is in speaking order.
 *
 * @example
 * ```ts
 * import { openStream } from "../../core/rng.ts";
 * import { drawCorrupted } from "./corruption.ts";
 * const s = openStream({ seed: 1, round: 0, agent: "engine", purpose: "corrupted" });
 * if (drawCorrupted(s, ["p01", "p02", "p03"], 2).length !== 2) throw new Error();
 * ```
 * @throws {RangeError} When F is not an integer in 0..players.
 */
export function drawCorrupted(stream: Stream, players: readonly string[], F: number): string[] {
  if (!Number.isInteger(F) || F < 0 || F > players.length) {
    throw new RangeError(`F must be an integer in 0..${players.length}, got ${F}`);
  }
  const chosen = new Set(shuffled(stream, players).slice(0, F));
  return players.filter((p) => chosen.has(p));
}

/**
 * The corrupted players of an episode, computed from its seed exactly as the
 * environment does at set-up (so a runner can assign models before playing).
 *
 * @example
 * ```ts
 * import { corruptedPlayers } from "./corruption.ts";
 * const a = corruptedPlayers({ N: 5, F: 2 }, 7);
 * if (a.length !== 2 || a.join() !== corruptedPlayers({ N: 5, F: 2 }, 7).join()) throw new Error();
 * ```
 */
export function corruptedPlayers(params: { N: number; F: number }, seed: number): string[] {
  const stream = openStream({ seed, round: 0, agent: "engine", purpose: CORRUPTED_PURPOSE });
  return drawCorrupted(stream, playerIds(params.N), params.F);
}

/**
 * The other action (the base mode's deterministic inversion).
 *
 * @example
 * ```ts
 * import { invertAction } from "./corruption.ts";
 * if (invertAction("Stag") !== "Hare" || invertAction("Hare") !== "Stag") throw new Error();
 * ```
 */
export function invertAction(action: StagHuntAction): StagHuntAction {
  return action === "Stag" ? "Hare" : "Stag";
}

/**
 * A corrupted player's public action under a corruption mode. `b3` takes one
 * draw from the given stream; `base` takes none.
 *
 * @example
 * ```ts
 * import { openStream } from "../../core/rng.ts";
 * import { corruptedAction } from "./corruption.ts";
 * const s = () => openStream({ seed: 1, round: 1, agent: "p01", purpose: "b3_public_action" });
 * if (corruptedAction("base", "Stag", s) !== "Hare") throw new Error();
 * const b3 = corruptedAction("b3", "Stag", s);
 * if (b3 !== corruptedAction("b3", "Hare", s)) throw new Error("b3 ignores the original");
 * ```
 */
export function corruptedAction(
  mode: CorruptionMode,
  original: StagHuntAction,
  stream: () => Stream,
): StagHuntAction {
  if (mode === "base" || mode === "communication_only") return invertAction(original);
  return stream().uniform() < 0.5 ? "Stag" : "Hare";
}

/**
 * The action a turn executes (what is scored) under a corruption mode: the
 * public one, but the original one under `communication_only`.
 *
 * @example
 * ```ts
 * import { executedAction } from "./corruption.ts";
 * const t = { originalAction: "Stag", publicAction: "Hare" } as const;
 * if (executedAction("base", t) !== "Hare") throw new Error();
 * if (executedAction("communication_only", t) !== "Stag") throw new Error();
 * ```
 */
export function executedAction(
  mode: CorruptionMode,
  turn: { originalAction: StagHuntAction; publicAction: StagHuntAction },
): StagHuntAction {
  return mode === "communication_only" ? turn.originalAction : turn.publicAction;
}

/**
 * Whether a settled round succeeded on the executed actions: its public
 * success, but its pre-flip success under `communication_only` (whose
 * executed actions are the original ones).
 *
 * @example
 * ```ts
 * import { executedSuccess } from "./corruption.ts";
 * const o = { publicSuccess: false, preflipSuccess: true };
 * if (executedSuccess("base", o) || !executedSuccess("communication_only", o)) throw new Error();
 * ```
 */
export function executedSuccess(
  mode: CorruptionMode,
  outcome: { publicSuccess: boolean; preflipSuccess: boolean },
): boolean {
  return mode === "communication_only" ? outcome.preflipSuccess : outcome.publicSuccess;
}

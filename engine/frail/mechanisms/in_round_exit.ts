/**
 * An exit completed within one round by repeated confirmation (the backer
 * coalition's rule of Appendix G.3): a member's exit request in a round's
 * mechanism phase is followed by {@linkcode EXIT_CONFIRMATIONS} confirmation
 * hands in the same round; the exit is confirmed only when every hand
 * confirms, and a single refusal (or a missing answer) cancels it. The caller
 * decides what a confirmed exit means (for the backer coalition: the member
 * stays locked for the rest of the round, leaves at its end and never rejoins).
 *
 * @module
 */

/**
 * Confirmation hands an exit needs within its round.
 *
 * @example
 * ```ts
 * import { EXIT_CONFIRMATIONS } from "./in_round_exit.ts";
 * if (EXIT_CONFIRMATIONS !== 3) throw new Error();
 * ```
 */
export const EXIT_CONFIRMATIONS = 3;

/** One exit being confirmed. */
export interface InRoundExit {
  /** The member leaving. */
  member: string;
  /** Round of the request (the exit lives only in this round). */
  round: number;
  /** Hands confirmed so far (0 to {@linkcode EXIT_CONFIRMATIONS}). */
  confirmations: number;
  /** `pending` while hands remain, then `confirmed` or `cancelled`. */
  status: "pending" | "confirmed" | "cancelled";
}

/**
 * Opens an exit for a member; refuses a second request in the same round.
 *
 * @example
 * ```ts
 * import { type InRoundExit, openExit } from "./in_round_exit.ts";
 * const exits: InRoundExit[] = [];
 * if (openExit(exits, { member: "a", round: 2 }) !== undefined || exits.length !== 1) throw new Error();
 * if (openExit(exits, { member: "a", round: 2 }) === undefined) throw new Error("double request");
 * ```
 */
export function openExit(
  exits: InRoundExit[],
  request: { member: string; round: number },
): string | undefined {
  if (exits.some((e) => e.member === request.member && e.round === request.round)) {
    return `${request.member} already requested an exit this round`;
  }
  exits.push({ member: request.member, round: request.round, confirmations: 0, status: "pending" });
  return undefined;
}

/**
 * Members whose exit awaits its next confirmation hand in `round`.
 *
 * @example
 * ```ts
 * import { awaitingConfirmation } from "./in_round_exit.ts";
 * const exits = [{ member: "a", round: 2, confirmations: 1, status: "pending" as const }];
 * if (awaitingConfirmation(exits, 2)[0] !== "a" || awaitingConfirmation(exits, 3).length) throw new Error();
 * ```
 */
export function awaitingConfirmation(exits: readonly InRoundExit[], round: number): string[] {
  return exits.filter((e) => e.round === round && e.status === "pending").map((e) => e.member);
}

/**
 * Records one confirmation hand: a `true` advances the exit (confirming it at
 * the last hand), anything else cancels it. Returns the exit's new status.
 *
 * @example
 * ```ts
 * import { confirmExit, type InRoundExit, openExit } from "./in_round_exit.ts";
 * const exits: InRoundExit[] = [];
 * openExit(exits, { member: "a", round: 1 });
 * confirmExit(exits, { member: "a", round: 1, confirm: true });
 * confirmExit(exits, { member: "a", round: 1, confirm: true });
 * if (confirmExit(exits, { member: "a", round: 1, confirm: true }) !== "confirmed") throw new Error();
 * ```
 * @throws {RangeError} When the member has no pending exit in that round.
 */
export function confirmExit(
  exits: InRoundExit[],
  hand: { member: string; round: number; confirm: boolean },
): "pending" | "confirmed" | "cancelled" {
  const e = exits.find((x) =>
    x.member === hand.member && x.round === hand.round && x.status === "pending"
  );
  if (!e) throw new RangeError(`No pending exit for "${hand.member}" in round ${hand.round}`);
  if (hand.confirm !== true) {
    e.status = "cancelled";
    return e.status;
  }
  e.confirmations += 1;
  if (e.confirmations >= EXIT_CONFIRMATIONS) e.status = "confirmed";
  return e.status;
}

/**
 * Members whose exit was confirmed in `round`.
 *
 * @example
 * ```ts
 * import { confirmedExits } from "./in_round_exit.ts";
 * const exits = [{ member: "a", round: 2, confirmations: 3, status: "confirmed" as const }];
 * if (confirmedExits(exits, 2)[0] !== "a") throw new Error();
 * ```
 */
export function confirmedExits(exits: readonly InRoundExit[], round: number): string[] {
  return exits.filter((e) => e.round === round && e.status === "confirmed").map((e) => e.member);
}

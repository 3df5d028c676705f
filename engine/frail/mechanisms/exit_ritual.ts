/**
 * The bank-run coalition's exit ritual: an exit request in round t opens a
 * ritual of three waves over rounds t+1, t+2 and t+3, during which other
 * members may put themselves on the exit list; at the end of the third wave
 * (end of round t+3) every listed member's exit is confirmed, and they may
 * withdraw from round t+4. Listed members stay locked until confirmation.
 *
 * @module
 */

/** A ritual in progress. */
export interface ExitRitual {
  /** Round of the request that opened it. */
  opened: number;
  /** Waves completed (0 in the request round, 3 when confirmed). */
  wave: number;
  /** Members on the exit list, in order of request. */
  list: string[];
}

/**
 * Waves in a ritual.
 *
 * @example
 * ```ts
 * import { EXIT_WAVES } from "./exit_ritual.ts";
 * if (EXIT_WAVES !== 3) throw new Error();
 * ```
 */
export const EXIT_WAVES = 3;

/**
 * Puts a member on the exit list, opening a ritual when none is running.
 *
 * @example
 * ```ts
 * import { requestExit } from "./exit_ritual.ts";
 * const r = requestExit(null, "a", 2);
 * if (r.opened !== 2 || r.wave !== 0 || r.list[0] !== "a") throw new Error();
 * ```
 */
export function requestExit(ritual: ExitRitual | null, member: string, round: number): ExitRitual {
  if (!ritual) return { opened: round, wave: 0, list: [member] };
  if (!ritual.list.includes(member)) ritual.list.push(member);
  return ritual;
}

/**
 * Advances the ritual by one wave at the end of a round after the opening
 * round. Returns the members to confirm when the third wave ends.
 *
 * @example
 * ```ts
 * import { advanceRitual, requestExit } from "./exit_ritual.ts";
 * const r = requestExit(null, "a", 1);
 * advanceRitual(r, 1); advanceRitual(r, 2); advanceRitual(r, 3);
 * if (advanceRitual(r, 4)[0] !== "a") throw new Error("confirmed at the end of round 4");
 * ```
 */
export function advanceRitual(ritual: ExitRitual, round: number): string[] {
  if (round <= ritual.opened) return [];
  ritual.wave = Math.min(EXIT_WAVES, round - ritual.opened);
  return ritual.wave === EXIT_WAVES ? [...ritual.list] : [];
}

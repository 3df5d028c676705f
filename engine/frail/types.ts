/**
 * Ids shared by the FRAIL environments.
 *
 * @module
 */

/** Environment ids. */
export type EnvId = "bank_run" | "debt_rollover" | "crowdfunding";

/** Mechanism ids: M0 none, M1 paid commitments, M2 centralized agreements, M3 coalitions. */
export type MechanismId = "M0" | "M1" | "M2" | "M3";

/**
 * All mechanism ids.
 *
 * @example
 * ```ts
 * import { MECHANISMS } from "./types.ts";
 * if (MECHANISMS.join() !== "M0,M1,M2,M3") throw new Error();
 * ```
 */
export const MECHANISMS: readonly MechanismId[] = ["M0", "M1", "M2", "M3"];

/** A certified message delivered by the engine. */
export interface Message {
  /** Who sent it (`"bank"`, `"coalition"`, ...). */
  from: string;
  /** What it certifies, e.g. `"aggregate_committed"`. */
  kind: string;
  /** The certified content. */
  content: Record<string, unknown>;
}

/**
 * Checks a mechanism id.
 *
 * @example
 * ```ts
 * import { assertMechanism } from "./types.ts";
 * assertMechanism("M2");
 * ```
 * @throws {RangeError} For an unknown id, listing the allowed ones.
 */
export function assertMechanism(id: string): asserts id is MechanismId {
  if (!(MECHANISMS as readonly string[]).includes(id)) {
    throw new RangeError(
      `Unknown mechanism "${id}": expected one of ${MECHANISMS.map((m) => `"${m}"`).join(", ")}`,
    );
  }
}

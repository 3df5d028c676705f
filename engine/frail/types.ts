/**
 * Ids shared by the FRAIL environments, and how participant ids are formed.
 *
 * @module
 */

/**
 * FRAIL environment ids. The registry (`registry.ts`, above the games) checks
 * at compile time that its descriptors carry exactly these ids; the games
 * import the type from here, below them.
 */
export type EnvId = "bank_run" | "debt_rollover" | "crowdfunding";

/**
 * The FRAIL mechanisms (§3.2), in the paper's order, with the names its
 * tables use. This is the one list of mechanism ids: configs, grid specs,
 * labels and analysis read it.
 *
 * @example
 * ```ts
 * import { MECHANISM_INFO } from "./types.ts";
 * if (MECHANISM_INFO[2].label !== "M2: agreement") throw new Error();
 * ```
 */
export const MECHANISM_INFO = [
  { id: "M0", label: "M0: baseline", description: "no interaction mechanism" },
  { id: "M1", label: "M1: compensated", description: "paid commitments" },
  { id: "M2", label: "M2: agreement", description: "centralized agreements" },
  { id: "M3", label: "M3: coalition", description: "participant-led coalitions" },
] as const;

/** Mechanism ids: M0 none, M1 paid commitments, M2 centralized agreements, M3 coalitions. */
export type MechanismId = typeof MECHANISM_INFO[number]["id"];

/** What every FRAIL participant's view opens with: its role, its id and the episode's mechanism. */
export interface ParticipantViewHead<R extends string> {
  /** The role, the same for every view of its type (e.g. always `"depositor"`). */
  role: R;
  /** The participant's id. */
  id: string;
  /** The episode's mechanism. */
  mechanism: MechanismId;
}

/**
 * All mechanism ids, in the paper's order.
 *
 * @example
 * ```ts
 * import { MECHANISMS } from "./types.ts";
 * if (MECHANISMS.join() !== "M0,M1,M2,M3") throw new Error();
 * ```
 */
export const MECHANISMS: readonly [MechanismId, ...MechanismId[]] = MECHANISM_INFO.map((m) =>
  m.id
) as [MechanismId, ...MechanismId[]];

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

/**
 * Participant ids `<prefix>_01` ... `<prefix>_<n>`, zero-padded to at least two digits.
 *
 * @example
 * ```ts
 * import { participantIds } from "./types.ts";
 * if (participantIds("dep", 15)[14] !== "dep_15" || participantIds("crd", 120)[0] !== "crd_001") throw new Error();
 * ```
 */
export function participantIds(prefix: string, n: number): string[] {
  // Every episode of an environment asks for the same ids: the last list is kept.
  if (prefix !== lastPrefix || n !== lastIds.length) {
    const width = Math.max(2, String(n).length);
    lastIds = Array.from(
      { length: n },
      (_, i) => `${prefix}_${String(i + 1).padStart(width, "0")}`,
    );
    lastPrefix = prefix;
  }
  return lastIds.slice();
}

let lastPrefix: string | undefined;
let lastIds: string[] = [];

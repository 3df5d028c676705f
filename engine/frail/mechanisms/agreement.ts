/**
 * M2, centralized agreement: the central player solicits commitments without
 * payment; a solicited participant signs or declines; a signer is bound at
 * once and may declare a unilateral exit, which takes effect the round after
 * the declaration (the commitment still binds in the declaration round).
 *
 * @module
 */

/** One signer of the agreement. */
export interface Signer {
  /** Participant id. */
  id: string;
  /** Round signed. */
  since: number;
  /** Round an exit was declared, or `null`. */
  exitDeclared: number | null;
}

/** M2 state. */
export interface AgreementState {
  /** Participants solicited this round. */
  solicited: string[];
  /** Current signers (including those whose exit takes effect next round). */
  signers: Signer[];
  /** Whether the central player disclosed the certified aggregate to non-signers this round. */
  discloseToNonSigners: boolean;
}

/**
 * Signs for a solicited participant. Returns a reason when refused.
 *
 * @example
 * ```ts
 * import { sign } from "./agreement.ts";
 * const st = { solicited: ["a"], signers: [], discloseToNonSigners: false };
 * if (sign(st, "a", 1) !== undefined || st.signers.length !== 1) throw new Error();
 * ```
 */
export function sign(state: AgreementState, agent: string, round: number): string | undefined {
  if (!state.solicited.includes(agent)) return `${agent} was not solicited this round`;
  if (isSigner(state, agent)) return `${agent} has already signed`;
  state.signers.push({ id: agent, since: round, exitDeclared: null });
  return undefined;
}

/**
 * Declares a signer's exit in `round`; the commitment ends at the start of the next round.
 *
 * @example
 * ```ts
 * import { declareExit, isCommitted } from "./agreement.ts";
 * const st = { solicited: [], signers: [{ id: "a", since: 1, exitDeclared: null }], discloseToNonSigners: false };
 * declareExit(st, "a", 2);
 * if (!isCommitted(st, "a")) throw new Error("still bound in the declaration round");
 * ```
 */
export function declareExit(
  state: AgreementState,
  agent: string,
  round: number,
): string | undefined {
  const s = signerOf(state, agent);
  if (!s) return `${agent} has not signed`;
  if (s.exitDeclared !== null) return `${agent} has already declared an exit`;
  s.exitDeclared = round;
  return undefined;
}

/**
 * Removes the signers whose exit was declared before `round`; returns their ids.
 *
 * @example
 * ```ts
 * import { applyExits } from "./agreement.ts";
 * const st = { solicited: [], signers: [{ id: "a", since: 1, exitDeclared: 2 }], discloseToNonSigners: false };
 * if (applyExits(st, 2).length !== 0 || applyExits(st, 3)[0] !== "a") throw new Error();
 * ```
 */
export function applyExits(state: AgreementState, round: number): string[] {
  const leaving = state.signers.filter((s) => s.exitDeclared !== null && s.exitDeclared < round);
  state.signers = state.signers.filter((s) => !leaving.includes(s));
  return leaving.map((s) => s.id);
}

/**
 * Opens a round of the agreement: last round's solicitation closes, the
 * disclosure to non-signers lapses, and the exits declared before `round`
 * take effect (`applyExits`); returns the ids that left. What both the round
 * loop (`beginRound`) and the bank run's batched path do at a round's start.
 *
 * @example
 * ```ts
 * import { openAgreementRound } from "./agreement.ts";
 * const st = { solicited: ["b"], signers: [{ id: "a", since: 1, exitDeclared: 2 }], discloseToNonSigners: true };
 * const left = openAgreementRound(st, 3);
 * if (left[0] !== "a" || st.solicited.length !== 0 || st.discloseToNonSigners) throw new Error();
 * ```
 */
export function openAgreementRound(state: AgreementState, round: number): string[] {
  state.solicited = [];
  state.discloseToNonSigners = false;
  return applyExits(state, round);
}

/**
 * Whether a participant has signed (and its exit has not yet taken effect).
 *
 * @example
 * ```ts
 * import { isSigner } from "./agreement.ts";
 * if (isSigner({ solicited: [], signers: [], discloseToNonSigners: false }, "a")) throw new Error();
 * ```
 */
export function isSigner(state: AgreementState, agent: string): boolean {
  return signerOf(state, agent) !== undefined;
}

/**
 * The first signer entry of a participant, or `undefined`: what
 * `signers.find` gives, as a plain loop (it runs for every participant in
 * every lock check, and a callback per entry cost several times more).
 *
 * @example
 * ```ts
 * import { signerOf } from "./agreement.ts";
 * const st = { solicited: [], signers: [{ id: "a", since: 1, exitDeclared: 2 }], discloseToNonSigners: false };
 * if (signerOf(st, "a")?.exitDeclared !== 2 || signerOf(st, "b") !== undefined) throw new Error();
 * ```
 */
export function signerOf(state: AgreementState, agent: string): Signer | undefined {
  const signers = state.signers;
  for (let i = 0; i < signers.length; i++) if (signers[i].id === agent) return signers[i];
  return undefined;
}

/**
 * Whether a participant is bound by the agreement (same as {@linkcode isSigner}).
 *
 * @example
 * ```ts
 * import { isCommitted } from "./agreement.ts";
 * if (isCommitted({ solicited: [], signers: [], discloseToNonSigners: false }, "a")) throw new Error();
 * ```
 */
export const isCommitted: (state: AgreementState, agent: string) => boolean = isSigner;

/**
 * Canonical JSON of the mechanism profile's parts (`m1`, `m2`, and the
 * coalition's members), written field by field with the pieces of
 * `../../core/state_json.ts` for a game's own state writer: in an M1 or M2
 * episode the offers and signers are written at every checkpoint, and grow
 * with the rounds. (The inbox of certified messages is left to the generic
 * writer: its time is in the messages' contents, and a writer of the
 * messages alone measured no faster.) Each piece writes exactly what `canonicalJson` writes, or
 * throws `NOT_THIS_SHAPE` (the state writer then gives `undefined`).
 *
 * @module
 */
import { any, bool, fields, list, num, str } from "../../core/state_json.ts";

/**
 * The M1 profile (`null`, or the offers and to whom their terms are disclosed).
 *
 * @example
 * ```ts
 * import { paidOffersJson } from "./profile_json.ts";
 * import { canonicalJson } from "../../core/canonical_json.ts";
 * const m1 = { offers: [{ id: "m1_t1_a", target: "a", amount: 0.5, lockUntil: 3, round: 1, status: "accepted" }],
 *   discloseTermsTo: "none" };
 * if (paidOffersJson(m1) !== canonicalJson(m1) || paidOffersJson(null) !== "null") throw new Error();
 * ```
 * @throws {Error} `NOT_THIS_SHAPE` for a value of another shape.
 */
export function paidOffersJson(x: unknown): string {
  if (x === null) return "null";
  const m = fields(x, 2);
  return `{"discloseTermsTo":${any(m.discloseTermsTo)},"offers":${list(m.offers, offer)}}`;
}

function offer(x: unknown): string {
  const o = fields(x, 6);
  return `{"amount":${num(o.amount)},"id":${str(o.id)},"lockUntil":${num(o.lockUntil)},` +
    `"round":${num(o.round)},"status":${str(o.status)},"target":${str(o.target)}}`;
}

/**
 * The M2 profile (`null`, or the agreement: who was solicited, the signers).
 *
 * @example
 * ```ts
 * import { agreementJson } from "./profile_json.ts";
 * import { canonicalJson } from "../../core/canonical_json.ts";
 * const m2 = { solicited: ["a", "b"], signers: [{ id: "a", since: 1, exitDeclared: null }],
 *   discloseToNonSigners: true };
 * if (agreementJson(m2) !== canonicalJson(m2) || agreementJson(null) !== "null") throw new Error();
 * ```
 * @throws {Error} `NOT_THIS_SHAPE` for a value of another shape.
 */
export function agreementJson(x: unknown): string {
  if (x === null) return "null";
  const m = fields(x, 3);
  return `{"discloseToNonSigners":${bool(m.discloseToNonSigners)},` +
    `"signers":${list(m.signers, signer)},"solicited":${list(m.solicited, str)}}`;
}

function signer(x: unknown): string {
  const s = fields(x, 3);
  return `{"exitDeclared":${s.exitDeclared === null ? "null" : num(s.exitDeclared)},` +
    `"id":${str(s.id)},"since":${num(s.since)}}`;
}

/**
 * A coalition's members (M3).
 *
 * @example
 * ```ts
 * import { membersJson } from "./profile_json.ts";
 * if (membersJson([{ id: "a", since: 1, amount: 1 }]) !== '[{"amount":1,"id":"a","since":1}]') throw new Error();
 * ```
 * @throws {Error} `NOT_THIS_SHAPE` for a value of another shape.
 */
export function membersJson(x: unknown): string {
  return list(x, member);
}

function member(x: unknown): string {
  const m = fields(x, 3);
  return `{"amount":${num(m.amount)},"id":${str(m.id)},"since":${num(m.since)}}`;
}

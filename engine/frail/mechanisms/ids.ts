/**
 * How mechanism ids are written. Agents answer offers, agreements and votes
 * by id, so an id is part of what a prompt shows. Where agents are told the
 * round (debt rollover, crowdfunding; Appendix F), ids carry it as the paper's
 * logs do (`m1_t1_crd_01`, `m2_t3`, `v3_crd_02`). Bank-run agents are told
 * neither the round number nor the horizon, so their ids carry no round and
 * no counter that could stand in for one (`m1_dep_01`, `m2_agreement`,
 * `v_dep_02`); they stay unambiguous because a participant has at most one
 * pending offer, the agreement is one, and one vote is open at a time.
 *
 * @module
 */

/** `"round"`: ids name the round; `"plain"`: ids carry no round (bank run). */
export type IdStyle = "round" | "plain";

/**
 * The id of an M1 offer to `target` made in `round`.
 *
 * @example
 * ```ts
 * import { offerId } from "./ids.ts";
 * if (offerId("round", { round: 3, target: "crd_01" }) !== "m1_t3_crd_01") throw new Error();
 * if (offerId("plain", { round: 3, target: "dep_01" }) !== "m1_dep_01") throw new Error();
 * ```
 */
export function offerId(style: IdStyle, offer: { round: number; target: string }): string {
  return style === "round" ? `m1_t${offer.round}_${offer.target}` : `m1_${offer.target}`;
}

/**
 * The id of the M2 agreement solicited in `round`.
 *
 * @example
 * ```ts
 * import { solicitationId } from "./ids.ts";
 * if (solicitationId("round", 4) !== "m2_t4" || solicitationId("plain", 4) !== "m2_agreement") throw new Error();
 * ```
 */
export function solicitationId(style: IdStyle, round: number): string {
  return style === "round" ? `m2_t${round}` : "m2_agreement";
}

/**
 * The id of an M3 announcement vote proposed by `proposer` in `round`.
 *
 * @example
 * ```ts
 * import { voteId } from "./ids.ts";
 * if (voteId("round", { round: 2, proposer: "crd_03" }) !== "v2_crd_03") throw new Error();
 * if (voteId("plain", { round: 2, proposer: "dep_03" }) !== "v_dep_03") throw new Error();
 * ```
 */
export function voteId(style: IdStyle, vote: { round: number; proposer: string }): string {
  return style === "round" ? `v${vote.round}_${vote.proposer}` : `v_${vote.proposer}`;
}

/**
 * The debt-rollover state's canonical JSON, written field by field (see
 * `../../core/state_json.ts`): the balance sheet, the creditors and their
 * histories, the running totals, the last settlement, the disclosed snapshot,
 * a failure, the parameters and the mechanism profile (M1 offers, M2
 * signers, M3 members) are written directly; the inbox, pending reports and
 * the coalition's votes and exit ritual (small, or empty or `null` in most
 * rounds) by the generic writer. A state of another shape gives `undefined`,
 * and the checkpoint then uses the generic writer.
 *
 * @module
 */
import { any, bool, fields, list, num, shapedJson, str } from "../../core/state_json.ts";
import { agreementJson, membersJson, paidOffersJson } from "../../frail/mechanisms/profile_json.ts";
import type { DebtRolloverState } from "./state.ts";

/**
 * `canonicalJson(state)`, or `undefined` for a state of an unexpected shape.
 *
 * @example
 * ```ts
 * import { debtRolloverStateJson } from "./state_json.ts";
 * import { initialDebtRolloverState } from "./state.ts";
 * import { parseDebtRolloverParams } from "./params.ts";
 * import { canonicalJson } from "../../core/canonical_json.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M1");
 * if (debtRolloverStateJson(s) !== canonicalJson(s)) throw new Error();
 * if (debtRolloverStateJson({ ...s, extra: 1 } as never) !== undefined) throw new Error();
 * ```
 */
export function debtRolloverStateJson(state: DebtRolloverState): string | undefined {
  return shapedJson(state, write);
}

function write(state: DebtRolloverState): string {
  const s = fields(state, 17);
  return `{"cash":${num(s.cash)},"creditors":${list(s.creditors, creditor)},` +
    `"cumulativeRedeemed":${num(s.cumulativeRedeemed)},"disclosed":${disclosed(s.disclosed)},` +
    `"done":${bool(s.done)},"failure":${failure(s.failure)},"inbox":${any(s.inbox)},` +
    `"last":${activity(s.last)},"m1":${paidOffersJson(s.m1)},"m2":${agreementJson(s.m2)},"m3":${
      coalition(s.m3)
    },` +
    `"mechanism":${str(s.mechanism)},"params":${params(s.params)},"pending":${any(s.pending)},` +
    `"round":${num(s.round)},"totals":${totals(s.totals)},"tranches":${list(s.tranches, tranche)}}`;
}

function coalition(x: unknown): string {
  if (x === null) return "null";
  const c = fields(x, 4);
  return `{"exited":${list(c.exited, str)},"members":${membersJson(c.members)},` +
    `"ritual":${any(c.ritual)},"votes":${any(c.votes)}}`;
}

function creditor(x: unknown): string {
  const c = fields(x, 7);
  return `{"claim":${num(c.claim)},"history":${list(c.history, decision)},"id":${str(c.id)},` +
    `"outstanding":${bool(c.outstanding)},"redeemed":${num(c.redeemed)},"redeemedRound":${
      c.redeemedRound === null ? "null" : num(c.redeemedRound)
    },"wave":${num(c.wave)}}`;
}

function decision(x: unknown): string {
  const h = fields(x, 4);
  return `{"outcome":${str(h.outcome)},"realized":${bool(h.realized)},` +
    `"reported":${num(h.reported)},"round":${num(h.round)}}`;
}

function tranche(x: unknown): string {
  const t = fields(x, 2);
  return `{"face":${num(t.face)},"round":${num(t.round)}}`;
}

function activity(x: unknown): string {
  const a = fields(x, 7);
  return `{"deferred":${num(a.deferred)},"due":${num(a.due)},"faceSold":${num(a.faceSold)},` +
    `"paid":${num(a.paid)},"redeemed":${num(a.redeemed)},"rolled":${num(a.rolled)},` +
    `"suspended":${num(a.suspended)}}`;
}

function disclosed(x: unknown): string {
  const d = fields(x, 5);
  return `{"assets":${list(d.assets, tranche)},"cash":${num(d.cash)},` +
    `"claimsOutstanding":${num(d.claimsOutstanding)},"last":${activity(d.last)},` +
    `"outstandingPremiums":${num(d.outstandingPremiums)}}`;
}

function failure(x: unknown): string {
  if (x === null) return "null";
  const f = fields(x, 2);
  return `{"kind":${str(f.kind)},"round":${num(f.round)}}`;
}

function totals(x: unknown): string {
  const t = fields(x, 5);
  return `{"faceSold":${num(t.faceSold)},"interest":${num(t.interest)},` +
    `"matured":${num(t.matured)},"redemptionsPaid":${num(t.redemptionsPaid)},` +
    `"saleProceeds":${num(t.saleProceeds)}}`;
}

function params(x: unknown): string {
  const p = fields(x, 10);
  return `{"assets":${list(p.assets, tranche)},"capacity":${num(p.capacity)},` +
    `"cashRate":${num(p.cashRate)},"claimRate":${num(p.claimRate)},` +
    `"creditors":${num(p.creditors)},"earlySalePrice":${num(p.earlySalePrice)},` +
    `"faceValue":${num(p.faceValue)},"horizon":${num(p.horizon)},` +
    `"initialCash":${num(p.initialCash)},"maturityWaves":${list(p.maturityWaves, num)}}`;
}

/**
 * The crowdfunding state's canonical JSON, written field by field (see
 * `../../core/state_json.ts`): the backers and their histories, the founder,
 * the disclosed snapshot, the ledger, the launch, a failure, this round's
 * pledges, the parameters and the mechanism profile (M1 offers, M2 signers,
 * M3 members) are written directly; the inbox, pending reports, this round's
 * withdrawals, the launch's shares and the coalition's votes, exits and
 * ballots (small, or empty or `null` in most rounds, or keyed records the
 * generic writer sorts) by the generic writer. A state of another shape gives
 * `undefined`, and the checkpoint then uses the generic writer.
 *
 * @module
 */
import { any, bool, fields, list, num, shapedJson, str } from "../../core/state_json.ts";
import { agreementJson, membersJson, paidOffersJson } from "../../frail/mechanisms/profile_json.ts";
import type { CrowdfundingState } from "./state.ts";

/**
 * `canonicalJson(state)`, or `undefined` for a state of an unexpected shape.
 *
 * @example
 * ```ts
 * import { crowdfundingStateJson } from "./state_json.ts";
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * import { canonicalJson } from "../../core/canonical_json.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M3");
 * if (crowdfundingStateJson(s) !== canonicalJson(s)) throw new Error();
 * if (crowdfundingStateJson({ ...s, extra: 1 } as never) !== undefined) throw new Error();
 * ```
 */
export function crowdfundingStateJson(state: CrowdfundingState): string | undefined {
  return shapedJson(state, write);
}

function write(state: CrowdfundingState): string {
  const s = fields(state, 17);
  return `{"backers":${list(s.backers, backer)},"disclosed":${disclosed(s.disclosed)},` +
    `"done":${bool(s.done)},"failure":${failure(s.failure)},"founder":${founder(s.founder)},` +
    `"inbox":${any(s.inbox)},"launch":${launch(s.launch)},"ledger":${ledger(s.ledger)},` +
    `"m1":${paidOffersJson(s.m1)},"m2":${agreementJson(s.m2)},"m3":${coalition(s.m3)},"mechanism":${
      str(s.mechanism)
    },` +
    `"params":${params(s.params)},"pending":${any(s.pending)},` +
    `"pledgedThisRound":${list(s.pledgedThisRound, str)},"round":${num(s.round)},` +
    `"withdrawnThisRound":${any(s.withdrawnThisRound)}}`;
}

function coalition(x: unknown): string {
  if (x === null) return "null";
  const c = fields(x, 5);
  return `{"ballots":${any(c.ballots)},"exited":${list(c.exited, str)},` +
    `"exits":${any(c.exits)},"members":${membersJson(c.members)},"votes":${any(c.votes)}}`;
}

function backer(x: unknown): string {
  const b = fields(x, 4);
  return `{"bank":${num(b.bank)},"history":${list(b.history, decision)},"id":${str(b.id)},` +
    `"pledged":${num(b.pledged)}}`;
}

function decision(x: unknown): string {
  const h = fields(x, 5);
  return `{"call":${str(h.call)},"processed":${num(h.processed)},` +
    `"realized":${bool(h.realized)},"reported":${num(h.reported)},"round":${num(h.round)}}`;
}

function disclosed(x: unknown): string {
  const d = fields(x, 7);
  return `{"launched":${bool(d.launched)},"newPledges":${num(d.newPledges)},` +
    `"open":${bool(d.open)},"outstandingBonuses":${num(d.outstandingBonuses)},` +
    `"pool":${num(d.pool)},"withdrawals":${num(d.withdrawals)},` +
    `"withdrawnFace":${num(d.withdrawnFace)}}`;
}

function failure(x: unknown): string {
  if (x === null) return "null";
  const f = fields(x, 2);
  return `{"kind":${str(f.kind)},"round":${num(f.round)}}`;
}

function founder(x: unknown): string {
  const f = fields(x, 1);
  return `{"bank":${num(f.bank)}}`;
}

function launch(x: unknown): string {
  if (x === null) return "null";
  const l = fields(x, 3);
  return `{"pool":${num(l.pool)},"round":${num(l.round)},"shares":${any(l.shares)}}`;
}

function ledger(x: unknown): string {
  const l = fields(x, 4);
  return `{"initial":${num(l.initial)},"interest":${num(l.interest)},` +
    `"projectIn":${num(l.projectIn)},"projectOut":${num(l.projectOut)}}`;
}

function params(x: unknown): string {
  const p = fields(x, 9);
  return `{"backers":${num(p.backers)},"capacityRule":${str(p.capacityRule)},` +
    `"goal":${num(p.goal)},"horizon":${num(p.horizon)},"margin":${num(p.margin)},` +
    `"reward":${num(p.reward)},"riskFree":${num(p.riskFree)},` +
    `"unitPledge":${num(p.unitPledge)},"withdrawalCapacity":${num(p.withdrawalCapacity)}}`;
}

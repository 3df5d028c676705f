// The debt-rollover state writer gives exactly the generic canonical JSON of
// every state the engine reaches (every mechanism, regime and mock policy),
// leaves the log and hashes byte-identical, and gives up (`undefined`) on a
// state of another shape.
import { assert, assertEquals } from "../../../_assert.ts";
import { canonicalJson } from "../../../../engine/core/canonical_json.ts";
import { REGIMES } from "../../../../engine/frail/params.ts";
import { MECHANISMS } from "../../../../engine/frail/types.ts";
import { debtRollover } from "../../../../engine/games/debt_rollover/environment.ts";
import {
  BORROWER_POLICIES,
  CREDITOR_POLICIES,
  debtRolloverMockPopulation,
} from "../../../../engine/games/debt_rollover/mock.ts";
import { parseDebtRolloverParams } from "../../../../engine/games/debt_rollover/params.ts";
import {
  type DebtRolloverState,
  initialDebtRolloverState,
} from "../../../../engine/games/debt_rollover/state.ts";
import { debtRolloverStateJson } from "../../../../engine/games/debt_rollover/state_json.ts";
import { assertOtherShapes, compareWriter, type Written } from "../_state_json.ts";

Deno.test("debtRollover.stateJson is debtRolloverStateJson()", () => {
  assertEquals(debtRollover.stateJson, debtRolloverStateJson);
});

Deno.test("debtRolloverStateJson() writes the canonical JSON of every state of 216 seeded episodes", async () => {
  const total: Written = { checkpoints: 0, rounds: 0 };
  let episodes = 0;
  let failed = 0;
  for (const mechanism of MECHANISMS) {
    for (const regime of REGIMES) {
      for (const creditors of CREDITOR_POLICIES) {
        for (const borrower of BORROWER_POLICIES) {
          for (let seed = 0; seed < 3; seed++) {
            // Seed 2 also plays other parameters: more creditors over other waves, a tight capacity.
            const overrides = seed === 2
              ? { creditors: 11, maturityWaves: [1, 2, 6], capacity: 1.25, claimRate: 0.035 }
              : {};
            const w = await compareWriter(debtRollover, {
              mechanism,
              regime,
              overrides,
              seed,
              agents: debtRolloverMockPopulation({ seed, creditors, borrower }),
            });
            if (w.final.failure !== null) failed++;
            total.checkpoints += w.checkpoints;
            total.rounds += w.rounds;
            episodes++;
          }
        }
      }
    }
  }
  assertEquals(episodes, 216);
  assertEquals(total, { checkpoints: 728, rounds: 872 });
  assertEquals(failed, 144);
});

function initial(mechanism: "M0" | "M1" | "M2" | "M3" = "M0"): DebtRolloverState {
  return initialDebtRolloverState(parseDebtRolloverParams({}), mechanism);
}

Deno.test("debtRolloverStateJson() writes hand-picked edge states as canonicalJson() does", () => {
  const states: DebtRolloverState[] = [];
  for (const m of MECHANISMS) states.push(initial(m));
  // Empty lists and a failure.
  const empty = initial();
  empty.creditors = [];
  empty.tranches = [];
  empty.disclosed.assets = [];
  empty.failure = { kind: "insolvency", round: 3 };
  empty.done = true;
  states.push(empty);
  // Non-integer, negative, -0, tiny and huge numbers, a redemption round, histories.
  const odd = initial("M1");
  odd.cash = -0;
  odd.round = 4;
  odd.cumulativeRedeemed = 1e21;
  odd.totals = {
    interest: 1e-7,
    matured: -2.5,
    faceSold: -0,
    saleProceeds: 0.1 + 0.2,
    redemptionsPaid: 123456789.125,
  };
  odd.last = {
    due: 2,
    rolled: 1,
    redeemed: 1,
    paid: 1.0404,
    deferred: 0,
    suspended: -1,
    faceSold: 5e-324,
  };
  odd.disclosed.last = { ...odd.last, paid: -0 };
  odd.disclosed.outstandingPremiums = 1.7976931348623157e308;
  odd.creditors[0] = {
    ...odd.creditors[0],
    claim: 1.0201,
    outstanding: false,
    redeemed: 1.0201,
    redeemedRound: 2,
    history: [
      { round: 1, reported: 37.5, realized: false, outcome: "rolled" },
      { round: 2, reported: 100, realized: true, outcome: "redeemed" },
    ],
  };
  odd.creditors[1].history = [{ round: 1, reported: -0, realized: true, outcome: "deferred" }];
  odd.creditors[2].id = 'crd_"\u00e9\u2028';
  odd.failure = { kind: "liquidity", round: 4 };
  // The generic parts filled: an inbox, an offer, a pending report.
  odd.inbox = {
    crd_02: [{ from: "borrower", kind: "aggregate_committed", content: { total: 2, b: -0 } }],
    crd_01: [],
  } as never;
  odd.m1!.offers.push(
    {
      id: "m1_t4_crd_01",
      target: "crd_01",
      amount: 0.05,
      lockUntil: 5,
      round: 4,
      status: "accepted",
    },
    { id: "m1_t4_crd_02", target: "crd_02", amount: -0, lockUntil: 4, round: 4, status: "pending" },
  );
  odd.m1!.discloseTermsTo = ["crd_02", "crd_01"];
  odd.pending = [{ agent: "crd_03", reported: 12.5, realized: false } as never];
  states.push(odd);
  // M2 signers, one with a declared exit; M3 members, an exit, a vote and an exit ritual.
  const m2 = initial("M2");
  m2.m2!.solicited = ["crd_01", "crd_02", "crd_03"];
  m2.m2!.signers = [{ id: "crd_02", since: 1, exitDeclared: 3 }, {
    id: "crd_01",
    since: 2,
    exitDeclared: null,
  }];
  m2.m2!.discloseToNonSigners = true;
  states.push(m2);
  const m3 = initial("M3");
  m3.m3!.members = [{ id: "crd_03", since: 1, amount: 1.0404 }, {
    id: "crd_01",
    since: 2,
    amount: -0,
  }];
  m3.m3!.exited = ["crd_05"];
  m3.m3!.votes = [{
    id: "v1",
    proposer: "crd_03",
    announceTo: ["crd_01"],
    round: 2,
    supporters: ["crd_03"],
    opponents: [],
    status: "open",
  }];
  m3.m3!.ritual = { opened: 2, wave: 1, list: ["crd_01"] } as never;
  states.push(m3);
  for (const s of states) assertEquals(debtRolloverStateJson(s), canonicalJson(s));
  const text = debtRolloverStateJson(odd)!;
  assertEquals(
    text.slice(0, 113),
    '{"cash":0,"creditors":[{"claim":1.0201,"history":[{"outcome":"rolled","realized":false,"reported":37.5,"round":1}',
  );
  for (
    const part of [
      '"cumulativeRedeemed":1e+21,',
      '"faceSold":5e-324,',
      '"outstandingPremiums":1.7976931348623157e+308}',
      '"interest":1e-7,"matured":-2.5,',
      '"saleProceeds":0.30000000000000004}',
      '"history":[{"outcome":"deferred","realized":true,"reported":0,"round":1}]',
      '"id":"crd_\\"\u00e9\u2028"',
      '"failure":{"kind":"liquidity","round":4}',
      '"inbox":{"crd_01":[],"crd_02":[{"content":{"b":0,"total":2}',
      '"m1":{"discloseTermsTo":["crd_02","crd_01"],"offers":[{"amount":0.05,"id":"m1_t4_crd_01",' +
      '"lockUntil":5,"round":4,"status":"accepted","target":"crd_01"},{"amount":0,',
    ]
  ) assert(text.includes(part), part);
});

Deno.test("debtRolloverStateJson() gives undefined for a state of another shape", () => {
  const c = (x: Record<string, unknown>, i = 0) => (x.creditors as Record<string, unknown>[])[i];
  assertOtherShapes(debtRolloverStateJson, initial("M2"), [
    (x) => (x.extra = 1),
    (x) => delete x.totals,
    (x) => (x.cash = undefined),
    (x) => (x.cash = NaN),
    (x) => (x.cash = -Infinity),
    (x) => (x.cash = "0.2"),
    (x) => (x.round = 1n),
    (x) => (x.done = 0),
    (x) => (x.failure = { kind: "liquidity" }),
    (x) => (x.failure = { kind: 1, round: 1 }),
    (x) => (x.failure = "liquidity"),
    (x) => (x.mechanism = null),
    (x) => (x.creditors = {}),
    (x) => (x.tranches = [{ round: 4, face: 2, sold: 0 }]),
    (x) => (x.tranches = [[4, 2]]),
    (x) => (c(x).note = "x"),
    (x) => delete c(x, 3).wave,
    (x) => (c(x).redeemedRound = "2"),
    (x) => (c(x).outstanding = "yes"),
    (x) => (c(x).history = [{ round: 1, reported: 1, realized: true }]),
    (x) => (c(x).history = [{ round: 1, reported: 1, realized: true, outcome: null }]),
    (x) => (c(x).history = null),
    (x) => ((x.totals as Record<string, unknown>).interest = Infinity),
    (x) => ((x.last as Record<string, unknown>).more = 0),
    (x) => ((x.disclosed as Record<string, unknown>).assets = [{ round: 4 }]),
    (x) => (((x.disclosed as Record<string, unknown>).last as Record<string, unknown>).due = "1"),
    (x) => ((x.params as Record<string, unknown>).capacity = Infinity),
    (x) => ((x.params as Record<string, unknown>).maturityWaves = [1, "3"]),
    (x) => ((x.params as Record<string, unknown>).name = "stable"),
    (x) => (x.inbox = { crd_01: [{ f: () => 1 }] }),
    (x) => (x.m2 = { signers: [NaN] }),
    (
      x,
    ) => (x.m2 = {
      solicited: [],
      signers: [{ id: "crd_01", since: 1 }],
      discloseToNonSigners: false,
    }),
    (x) => (x.m2 = { solicited: [1], signers: [], discloseToNonSigners: false }),
    (x) => (x.m2 = { solicited: [], signers: [], discloseToNonSigners: "no" }),
    (x) => (x.m1 = { offers: [], discloseTermsTo: "none", extra: 1 }),
    (
      x,
    ) => (x.m1 = {
      offers: [{ id: "o", target: "t", amount: 1, lockUntil: 2, round: 1 }],
      discloseTermsTo: "all",
    }),
    (
      x,
    ) => (x.m3 = {
      members: [{ id: "a", since: 1, amount: "1" }],
      exited: [],
      votes: [],
      ritual: null,
    }),
    (x) => (x.m3 = { members: [], exited: [], votes: [] }),
    (x) => (x.pending = [1, Infinity]),
    (x) => Object.setPrototypeOf(x.totals, Array.prototype),
  ]);
});

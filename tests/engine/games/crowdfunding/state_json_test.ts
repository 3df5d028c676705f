// The crowdfunding state writer gives exactly the generic canonical JSON of
// every state the engine reaches (every mechanism, regime and mock policy),
// leaves the log and hashes byte-identical, and gives up (`undefined`) on a
// state of another shape.
import { assert, assertEquals } from "../../../_assert.ts";
import { canonicalJson } from "../../../../engine/core/canonical_json.ts";
import { REGIMES } from "../../../../engine/frail/params.ts";
import { type MechanismId, MECHANISMS } from "../../../../engine/frail/types.ts";
import { crowdfunding } from "../../../../engine/games/crowdfunding/environment.ts";
import {
  BACKER_POLICIES,
  crowdfundingMockPopulation,
  FOUNDER_POLICIES,
} from "../../../../engine/games/crowdfunding/mock.ts";
import { parseCrowdfundingParams } from "../../../../engine/games/crowdfunding/params.ts";
import {
  type CrowdfundingState,
  initialCrowdfundingState,
} from "../../../../engine/games/crowdfunding/state.ts";
import { crowdfundingStateJson } from "../../../../engine/games/crowdfunding/state_json.ts";
import { assertOtherShapes, compareWriter, type Written } from "../_state_json.ts";

Deno.test("crowdfunding.stateJson is crowdfundingStateJson()", () => {
  assertEquals(crowdfunding.stateJson, crowdfundingStateJson);
});

Deno.test("crowdfundingStateJson() writes the canonical JSON of every state of 216 seeded episodes", async () => {
  const total: Written = { checkpoints: 0, rounds: 0 };
  let episodes = 0;
  let launched = 0;
  let failed = 0;
  for (const mechanism of MECHANISMS) {
    for (const regime of REGIMES) {
      for (const backers of BACKER_POLICIES) {
        for (const founder of FOUNDER_POLICIES) {
          for (let seed = 0; seed < 3; seed++) {
            // Seed 2 also plays other parameters: fewer backers, partial withdrawals, a lower goal.
            const overrides = seed === 2
              ? { backers: 7, goal: 5.5, capacityRule: "partial", withdrawalCapacity: 1.5 }
              : {};
            const w = await compareWriter(crowdfunding, {
              mechanism,
              regime,
              overrides,
              seed,
              agents: crowdfundingMockPopulation({ seed, backers, founder }),
            });
            if (w.final.launch !== null) launched++;
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
  assertEquals(total, { checkpoints: 948, rounds: 1164 });
  assertEquals([launched, failed], [132, 84]);
});

function initial(mechanism: MechanismId = "M0"): CrowdfundingState {
  return initialCrowdfundingState(parseCrowdfundingParams({}), mechanism);
}

Deno.test("crowdfundingStateJson() writes hand-picked edge states as canonicalJson() does", () => {
  const states: CrowdfundingState[] = [];
  for (const m of MECHANISMS) states.push(initial(m));
  // Empty lists and a failure.
  const empty = initial();
  empty.backers = [];
  empty.failure = { kind: "no_launch", round: 9 };
  empty.done = true;
  empty.disclosed.open = false;
  states.push(empty);
  // Non-integer, negative, -0, tiny and huge numbers, a launch, histories, this round's moves.
  const odd = initial("M3");
  odd.round = 3;
  odd.backers[0] = {
    id: "bkr_01",
    bank: -0,
    pledged: 1,
    history: [
      { round: 1, call: "pledge", reported: 62.5, realized: true, processed: 1 },
      { round: 2, call: "withdrawal", reported: -0, realized: false, processed: 0 },
    ],
  };
  odd.backers[1].bank = 1e21;
  odd.backers[2].pledged = 5e-324;
  odd.backers[3].id = 'bkr_"\u00e9\u2028';
  odd.founder = { bank: -0.05 };
  odd.ledger = { initial: 15, interest: 0.1 + 0.2, projectIn: 1e-7, projectOut: -0 };
  odd.disclosed = {
    pool: 14.000000000000002,
    newPledges: 3,
    withdrawals: 1,
    withdrawnFace: 0.25,
    open: false,
    launched: true,
    outstandingBonuses: 1.7976931348623157e308,
  };
  odd.launch = { round: 3, pool: 14.5, shares: { bkr_02: 1, bkr_01: 0.5, bkr_10: -0 } };
  odd.failure = { kind: "over_promise", round: 4 };
  odd.pledgedThisRound = ["bkr_03", "bkr_01"];
  odd.withdrawnThisRound = { bkr_05: 0.75, bkr_04: -0 };
  odd.inbox = {
    bkr_02: [{ from: "founder", kind: "aggregate_committed", content: { total: 7, b: -0 } }],
    bkr_01: [],
  } as never;
  odd.m3!.members.push({ id: "bkr_01", since: 1, amount: 1 } as never);
  odd.m3!.ballots = { bkr_01: { vote: "yes" } } as never;
  odd.pending = [{ agent: "bkr_04", call: "pledge", reported: 12.5 } as never];
  states.push(odd);
  // M1 offers; M2 signers, one with a declared exit; M3 exits and a vote.
  const m1 = initial("M1");
  m1.m1!.offers = [
    {
      id: "m1_t2_bkr_04",
      target: "bkr_04",
      amount: 0.125,
      lockUntil: 6,
      round: 2,
      status: "declined",
    },
    {
      id: "m1_t2_bkr_01",
      target: "bkr_01",
      amount: 1e-9,
      lockUntil: 9,
      round: 2,
      status: "expired",
    },
  ];
  m1.m1!.discloseTermsTo = "all";
  states.push(m1);
  const m2 = initial("M2");
  m2.m2!.solicited = ["bkr_01", "bkr_02"];
  m2.m2!.signers = [{ id: "bkr_02", since: 1, exitDeclared: 3 }, {
    id: "bkr_01",
    since: 2,
    exitDeclared: null,
  }];
  states.push(m2);
  odd.m3!.exited = ["bkr_09"];
  odd.m3!.exits = [{ member: "bkr_01", round: 3, confirmations: 2, status: "pending" }];
  odd.m3!.votes = [{
    id: "v1",
    proposer: "bkr_01",
    announceTo: "all",
    round: 2,
    supporters: [],
    opponents: ["bkr_02"],
    status: "failed",
  }];
  for (const s of states) assertEquals(crowdfundingStateJson(s), canonicalJson(s));
  const text = crowdfundingStateJson(odd)!;
  assertEquals(
    text.slice(0, 93),
    '{"backers":[{"bank":0,"history":[{"call":"pledge","processed":1,"realized":true,"reported":62',
  );
  for (
    const part of [
      '"bank":1e+21,',
      '"pledged":5e-324}',
      '"id":"bkr_\\"\u00e9\u2028"',
      '"founder":{"bank":-0.05}',
      '"interest":0.30000000000000004,"projectIn":1e-7,"projectOut":0}',
      '"outstandingBonuses":1.7976931348623157e+308,"pool":14.000000000000002,',
      '"launch":{"pool":14.5,"round":3,"shares":{"bkr_01":0.5,"bkr_02":1,"bkr_10":0}}',
      '"failure":{"kind":"over_promise","round":4}',
      '"pledgedThisRound":["bkr_03","bkr_01"]',
      '"withdrawnThisRound":{"bkr_04":0,"bkr_05":0.75}}',
    ]
  ) assert(text.includes(part), part);
});

Deno.test("crowdfundingStateJson() gives undefined for a state of another shape", () => {
  const b = (x: Record<string, unknown>, i = 0) => (x.backers as Record<string, unknown>[])[i];
  const state = initial("M3");
  state.launch = { round: 2, pool: 14, shares: { bkr_01: 1 } };
  state.backers[1].history.push({
    round: 1,
    call: "pledge",
    reported: 50,
    realized: true,
    processed: 1,
  });
  assertOtherShapes(crowdfundingStateJson, state, [
    (x) => (x.extra = 1),
    (x) => delete x.ledger,
    (x) => (x.round = undefined),
    (x) => (x.round = NaN),
    (x) => (x.round = "1"),
    (x) => (x.done = null),
    (x) => (x.mechanism = 3),
    (x) => (x.failure = { kind: "no_launch" }),
    (x) => (x.failure = { kind: "no_launch", round: Infinity }),
    (x) => (x.failure = false),
    (x) => (x.founder = { bank: 0, note: "" }),
    (x) => (x.founder = [0]),
    (x) => (x.launch = { round: 2, pool: 14 }),
    (x) => (x.launch = { round: 2, pool: 14, shares: { bkr_01: NaN } }),
    (x) => (x.launch = 0),
    (x) => (x.backers = "bkr_01"),
    (x) => (b(x).note = "x"),
    (x) => delete b(x, 4).pledged,
    (x) => (b(x).bank = "1"),
    (x) => (b(x, 1).history = [{ round: 1, call: "pledge", reported: 50, realized: true }]),
    (x) => (b(x, 1).history = [{ round: 1, call: 0, reported: 50, realized: true, processed: 1 }]),
    (x) => (b(x, 1).history = {}),
    (x) => (x.pledgedThisRound = [1]),
    (x) => (x.pledgedThisRound = "bkr_01"),
    (x) => (x.withdrawnThisRound = { bkr_01: Infinity }),
    (x) => ((x.disclosed as Record<string, unknown>).open = 1),
    (x) => ((x.disclosed as Record<string, unknown>).extra = 0),
    (x) => ((x.ledger as Record<string, unknown>).interest = -Infinity),
    (x) => ((x.params as Record<string, unknown>).capacityRule = undefined),
    (x) => ((x.params as Record<string, unknown>).goal = "14"),
    (x) => (x.inbox = { bkr_01: [{ f: () => 1 }] }),
    (x) => (x.m3 = { members: [NaN] }),
    (x) => (x.m3 = { members: [], exited: [], votes: [], exits: [], ballots: {}, ritual: null }),
    (
      x,
    ) => (x.m3 = {
      members: [{ id: "a", since: 1 }],
      exited: [],
      votes: [],
      exits: [],
      ballots: {},
    }),
    (
      x,
    ) => (x.m1 = {
      offers: [{ id: "o", target: "t", amount: 1, lockUntil: 2, round: 1, status: 0 }],
      discloseTermsTo: "all",
    }),
    (
      x,
    ) => (x.m2 = {
      solicited: [],
      signers: [{ id: "a", since: 1, exitDeclared: "2" }],
      discloseToNonSigners: false,
    }),
    (x) => (x.pending = [Infinity]),
    (x) => Object.setPrototypeOf(x.ledger, Array.prototype),
  ]);
});

import { assert, assertAlmostEquals, assertEquals } from "../../../_assert.ts";
import type { CallRequest } from "../../../../engine/core/environment.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import type { BackerView, FounderView } from "../../../../engine/games/crowdfunding/views.ts";
import { eventsOf, idx, play, stateAt } from "./_agents.ts";

const g = 1.03;
const never = { launch: false, reasoning: "" };
const pledge = (p: number) => ({ pledge_probability: p, reasoning: "" });
const withdraw = (p: number) => ({ withdraw_probability: p, reasoning: "" });
const coalition = (join: boolean, exit: boolean, vote: unknown = null) => ({
  join,
  exit_request: exit,
  vote,
  reasoning: "",
});

function inRound(events: readonly EngineEvent[], round: number): EngineEvent[] {
  return events.filter((e) => e.round === round);
}

Deno.test("a coalition exit needs three in-round confirmations; the member stays locked that round and may withdraw from the next", async () => {
  const r = await play((req) => {
    const i = idx(req.agent);
    if (req.call === "coalition_response") {
      return coalition(req.round === 1 && i <= 4, req.round === 2 && i === 1);
    }
    if (req.call === "exit_confirmation") return { confirm: true, reasoning: "" };
    if (req.call === "withdrawal") return withdraw(i === 1 ? 100 : 0);
    if (req.call === "launch_decision") return never;
  }, { mechanism: "M3" });
  const r2 = inRound(r.events, 2);
  const hands = eventsOf(r2, "report").filter((e) => e.call === "exit_confirmation");
  assertEquals(hands.map((e) => [e.step, e.agent]), [
    ["exit_confirmation_1", "bkr_01"],
    ["exit_confirmation_2", "bkr_01"],
    ["exit_confirmation_3", "bkr_01"],
  ]);
  assertEquals(eventsOf(r2, "mechanism", "exit_confirmation").map((e) => e.status), [
    "pending",
    "pending",
    "confirmed",
  ]);
  // Still locked in round 2: the withdrawal is overridden and nothing leaves.
  assertEquals(eventsOf(r2, "override").map((e) => e.agent), ["bkr_01"]);
  assertEquals(eventsOf(r2, "transition", "withdrawal_processed").length, 0);
  assertEquals(eventsOf(r2, "mechanism", "exit_confirmed")[0].members, ["bkr_01"]);
  const s2 = stateAt(r.events, 2);
  assertEquals(s2.m3!.members.map((m) => m.id), ["bkr_02", "bkr_03", "bkr_04"]);
  assertEquals(s2.m3!.exited, ["bkr_01"]);
  // Free from round 3.
  const w3 = eventsOf(inRound(r.events, 3), "transition", "withdrawal_processed");
  assertEquals(w3.map((e) => [e.agent, e.amount]), [["bkr_01", 1]]);
});

Deno.test("a refused confirmation hand cancels the exit and the later hands are not asked", async () => {
  const r = await play((req) => {
    const i = idx(req.agent);
    if (req.call === "coalition_response") {
      return coalition(req.round === 1 && i <= 4, req.round === 2 && i === 2);
    }
    if (req.call === "exit_confirmation") {
      return { confirm: req.step === "exit_confirmation_1", reasoning: "" };
    }
    if (req.call === "launch_decision") return never;
  }, { mechanism: "M3" });
  const r2 = inRound(r.events, 2);
  assertEquals(eventsOf(r2, "report").filter((e) => e.call === "exit_confirmation").length, 2);
  assertEquals(eventsOf(r2, "mechanism", "exit_cancelled").map((e) => [e.agent, e.hand]), [[
    "bkr_02",
    2,
  ]]);
  assertEquals(stateAt(r.events, 2).m3!.members.length, 4);
});

Deno.test("a backer who left the coalition cannot rejoin", async () => {
  const r = await play((req) => {
    const i = idx(req.agent);
    if (req.call === "coalition_response") {
      return coalition(i === 1 && req.round !== 2, req.round === 2 && i === 1);
    }
    if (req.call === "exit_confirmation") return { confirm: true, reasoning: "" };
    if (req.call === "launch_decision") return never;
  }, { mechanism: "M3" });
  const refused = eventsOf(inRound(r.events, 3), "mechanism", "refused");
  assertEquals(refused.map((e) => [e.agent, e.requested, e.reason]), [[
    "bkr_01",
    "join",
    "bkr_01 left the coalition and cannot rejoin",
  ]]);
});

Deno.test("joining the coalition pledges one unit only when the backer is not yet pledged", async () => {
  const r = await play((req) => {
    const i = idx(req.agent);
    if (req.call === "pledge") return pledge(req.round === 1 && i === 1 ? 100 : 0);
    if (req.call === "coalition_response") return coalition(req.round === 2 && i <= 2, false);
    if (req.call === "launch_decision") return never;
  }, { mechanism: "M3" });
  const joins = eventsOf(inRound(r.events, 2), "mechanism", "join");
  assertEquals(joins.map((e) => [e.agent, e.pledged, e.face]), [["bkr_01", 0, 1], [
    "bkr_02",
    1,
    1,
  ]]);
  const s = stateAt(r.events, 2);
  assertAlmostEquals(s.backers[0].bank, 0, 1e-12);
  // bkr_02 pledged in round 2 from 1.03: 0.03 stays idle and earns round-2 interest.
  assertAlmostEquals(s.backers[1].bank, 0.03 * g, 1e-12);
  assertEquals(s.backers[1].pledged, 1);
});

Deno.test("the locked total reaches the outsiders a strict majority names, the founder included, and nothing else is published", async () => {
  const r = await play((req) => {
    const i = idx(req.agent);
    if (req.call === "coalition_response") {
      const voters = req.round === 1 ? 2 : req.round <= 3 ? 3 : 0;
      const vote = i <= voters ? { announce_to: req.round === 2 ? ["bkr_10"] : "all" } : null;
      return coalition(req.round === 1 && i <= 4, false, i <= 4 ? vote : null);
    }
    if (req.call === "launch_decision") return never;
  }, { mechanism: "M3" });
  const results = eventsOf(r.events, "mechanism", "ballot_result");
  // "all" names every outsider: the backers outside the coalition and the founder.
  const everyone = ["bkr_05", "bkr_06", "bkr_07", "bkr_08", "bkr_09", "bkr_10", "bkr_11"]
    .concat(["bkr_12", "bkr_13", "bkr_14", "bkr_15", "founder"]);
  assertEquals(results.map((e) => [e.round, e.voters, e.ballots, e.recipients]), [
    [1, 4, 2, []],
    [2, 4, 3, ["bkr_10"]],
    [3, 4, 3, everyone],
  ]);
  const messages = eventsOf(r.events, "message");
  assertEquals(messages.map((e) => [e.round, e.to, e.kind, e.content]), [
    [2, ["bkr_10"], "coalition_locked_total", { total: 4 }],
    [3, everyone, "coalition_locked_total", { total: 4 }],
  ]);
});

Deno.test("a letter of intent pledges and binds; its exit binds through the notice round", async () => {
  const r = await play((req) => {
    const i = idx(req.agent);
    if (req.call === "intent_solicitation") {
      return { solicit: ["all"], disclose_aggregate: true, reasoning: "" };
    }
    if (req.call === "mechanism_response") {
      const acts = [];
      if (i <= 3 && req.round === 1) acts.push({ action: "sign", proposal_id: "m2_t1" });
      if (i === 1 && req.round === 2) acts.push({ action: "exit" });
      return { proposal_actions: acts, reasoning: "" };
    }
    if (req.call === "withdrawal") return withdraw(i === 1 ? 100 : 0);
    if (req.call === "launch_decision") return never;
  }, { mechanism: "M2" });
  const r1 = inRound(r.events, 1);
  assertEquals(eventsOf(r1, "transition", "commitment_pledge").length, 3);
  // Signers and (disclosed) non-signers see the certified aggregate in the same round.
  const agg = eventsOf(r1, "message").filter((e) => e.kind === "aggregate_committed");
  assertEquals(agg.map((e) => (e.content as { total: number }).total), [3, 3]);
  assertEquals(eventsOf(r1, "override").map((e) => e.agent), ["bkr_01"]);
  const r2 = inRound(r.events, 2);
  assertEquals(eventsOf(r2, "mechanism", "exit_declared")[0].effective_round, 3);
  assertEquals(eventsOf(r2, "override").map((e) => e.agent), ["bkr_01"]);
  const r3 = inRound(r.events, 3);
  assertEquals(eventsOf(r3, "mechanism", "exit_effective").map((e) => e.agent), ["bkr_01"]);
  assertEquals(eventsOf(r3, "transition", "withdrawal_processed").map((e) => e.agent), ["bkr_01"]);
});

function m1Founder(bonus: (i: number) => number, lockUntil = 9) {
  return (req: CallRequest) => {
    if (req.call !== "pledge_offer") return undefined;
    return {
      offers: req.round === 1
        ? Array.from({ length: 15 }, (_, k) => ({
          target: `bkr_${String(k + 1).padStart(2, "0")}`,
          amount: bonus(k + 1),
          lock_until: lockUntil,
        })).filter((o) => o.amount > 0)
        : [],
      disclose_terms_to: "all",
      reasoning: "",
    };
  };
}

function acceptAll(req: CallRequest) {
  if (req.call !== "mechanism_response") return undefined;
  const v = req.view as BackerView;
  return {
    proposal_actions: v.proposals.map((p) => ({ action: "accept", proposal_id: p.id })),
    reasoning: "",
  };
}

Deno.test("accepted M1 bonuses are paid with the reward on launch, out of the founder's margin", async () => {
  const founder = m1Founder(() => 0.1);
  const r = await play((req) => founder(req) ?? acceptAll(req), { mechanism: "M1" });
  assertEquals(r.outcome.success, true);
  assertEquals(r.outcome.rounds, 1);
  assertAlmostEquals(r.outcome.payoffs.bkr_05, (1.15 + 0.1) * g ** 8, 1e-12);
  assertAlmostEquals(r.outcome.payoffs.founder, (0.75 - 1.5) * g ** 8, 1e-12);
  assertAlmostEquals(r.outcome.welfare, 15 * 1.2 * g ** 8, 1e-9);
  const outstanding = eventsOf(r.events, "message").filter((e) => e.kind === "outstanding_bonuses");
  assertAlmostEquals((outstanding[0].content as { total: number }).total, 1.5, 1e-12);
});

Deno.test("M1 bonuses are void when the campaign fails", async () => {
  const founder = m1Founder(() => 0.1);
  const r = await play(
    (req) => founder(req) ?? acceptAll(req) ?? (req.call === "launch_decision" ? never : undefined),
    { mechanism: "M1" },
  );
  assertEquals(r.outcome.failure, "no_launch");
  assertAlmostEquals(
    eventsOf(r.events, "transition", "bonuses_void")[0].total as number,
    1.5,
    1e-12,
  );
  assertAlmostEquals(r.outcome.payoffs.bkr_05, 1.03, 1e-12);
  assertEquals(r.outcome.payoffs.founder, 0);
});

Deno.test("launching with bonuses above (1 - 0.050) x P fails the campaign and refunds after that round's interest", async () => {
  const founder = m1Founder(() => 1);
  const r = await play((req) => founder(req) ?? acceptAll(req), { mechanism: "M1" });
  assertEquals(r.outcome.success, false);
  assertEquals(r.outcome.failure, "over_promise");
  assertEquals(r.outcome.rounds, 1);
  assertEquals(
    eventsOf(r.events, "failure")[0].detail,
    "promised bonuses 15.000 exceed (1 - 0.05) x pool 15.000 = 14.250",
  );
  // Refunded at the end of round 1, then rounds 2-10 of interest.
  assertAlmostEquals(r.outcome.payoffs.bkr_09, g ** 9, 1e-12);
  assertEquals(r.outcome.payoffs.founder, 0);
  assertEquals(eventsOf(r.events, "transition", "reward_paid").length, 0);
});

Deno.test("bonuses of exactly (1 - 0.050) x P still launch", async () => {
  // 14 backers accept 0.95 each: B = 13.3 = 0.95 x 14; bkr_15 never pledges.
  const founder = m1Founder((i) => (i <= 14 ? 0.95 : 0));
  const r = await play((req) => founder(req) ?? acceptAll(req), { mechanism: "M1" });
  assertEquals(r.outcome.success, true);
  assertAlmostEquals(r.outcome.payoffs.bkr_01, (1.15 + 0.95) * g ** 8, 1e-12);
  assertAlmostEquals(r.outcome.payoffs.founder, (0.05 * 14 - 13.3) * g ** 8, 1e-9);
});

Deno.test("an M1 lock binds through lock_until and no longer", async () => {
  const founder = m1Founder((i) => (i === 1 ? 0.02 : 0), 2);
  const r = await play((req) => {
    if (req.call === "withdrawal") return withdraw(100);
    if (req.call === "launch_decision") return never;
    return founder(req) ?? acceptAll(req);
  }, { mechanism: "M1" });
  assertEquals(eventsOf(inRound(r.events, 1), "override").map((e) => e.agent), ["bkr_01"]);
  assertEquals(eventsOf(inRound(r.events, 2), "override").map((e) => e.agent), ["bkr_01"]);
  assertEquals(
    eventsOf(inRound(r.events, 3), "transition", "withdrawal_processed").map((e) => e.agent),
    ["bkr_01"],
  );
});

Deno.test("calls follow Table 7: pledge or withdrawal for every backer, mechanism calls under M1-M3, launch only when P >= G", async () => {
  const calls: CallRequest[] = [];
  const record = (mechanism: string) =>
    play((req) => {
      calls.push(req);
      if (req.call === "pledge") return pledge(100);
    }, { mechanism });
  const count = (round: number, call: string) =>
    calls.filter((c) => c.round === round && c.call === call).length;
  await record("M0");
  assertEquals(count(1, "pledge"), 15);
  assertEquals(count(1, "launch_decision"), 1);
  assertEquals(calls.filter((c) => c.agent === "founder").map((c) => c.call), ["launch_decision"]);
  calls.length = 0;
  await record("M1");
  assertEquals(count(1, "pledge_offer"), 1);
  assertEquals(count(1, "mechanism_response"), 15);
  calls.length = 0;
  await record("M2");
  assertEquals(count(1, "intent_solicitation"), 1);
  calls.length = 0;
  await record("M3");
  assertEquals(count(1, "coalition_response"), 15);
  assertEquals(calls.filter((c) => c.agent === "founder").map((c) => c.call), ["launch_decision"]);
});

Deno.test("the founder is asked to launch only in rounds where P >= G after pledges and withdrawals", async () => {
  const calls: CallRequest[] = [];
  await play((req) => {
    calls.push(req);
    if (req.call === "pledge") {
      return pledge(idx(req.agent) <= 13 || (req.round === 3 && idx(req.agent) === 14) ? 100 : 0);
    }
  });
  const launches = calls.filter((c) => c.call === "launch_decision");
  assertEquals(launches.map((c) => [c.round, (c.view as FounderView).pool]), [[3, 14]]);
});

Deno.test("backers see the round, the horizon and the pool as of the end of last round", async () => {
  const views: BackerView[] = [];
  await play((req) => {
    if (req.agent === "bkr_15") views.push(req.view as BackerView);
    if (req.call === "pledge") return pledge(idx(req.agent) <= 6 ? 100 : 0);
    if (req.call === "launch_decision") return never;
  }, { params: {} });
  assertEquals(
    views.map((v) => [v.round, v.horizon, v.roundsRemaining, v.campaign.pool]).slice(0, 3),
    [
      [1, 10, 9, 0],
      [2, 10, 8, 6],
      [3, 10, 7, 6],
    ],
  );
  assertEquals(views[1].campaign.newPledges, 6);
  assertEquals(views[2].campaign.newPledges, 0);
  assert(views.every((v) => v.coalition === null && v.outstandingBonuses === null));
});

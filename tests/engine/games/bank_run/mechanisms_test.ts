import { assert, assertAlmostEquals, assertEquals } from "../../../_assert.ts";
import { runEpisode } from "../../../../engine/run_episode.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { insolvencyBoundary } from "../../../../engine/games/bank_run/settlement.ts";
import { parseBankRunParams } from "../../../../engine/games/bank_run/params.ts";
import { idx, scripted } from "./_agents.ts";

type Ev<T extends EngineEvent["type"]> = Extract<EngineEvent, { type: T }>;
const of = <T extends EngineEvent["type"]>(events: EngineEvent[], type: T) =>
  events.filter((e) => e.type === type) as Ev<T>[];
const mech = (events: EngineEvent[], action: string) =>
  of(events, "mechanism").filter((e) => e.action === action);

/** dep_15 is offered `amount` and accepts; dep_01..dep_k run in round 1. */
function m1Script(amount: number, k: number) {
  return scripted((req) => {
    if (req.call === "retention_offer" && req.round === 1) {
      return { offers: [{ target: "dep_15", amount, lock_rounds: 12 }], disclose_terms_to: "all" };
    }
    if (req.call === "mechanism_response" && req.agent === "dep_15") {
      const v = req.view as { proposals: { id: string }[] };
      return {
        proposal_actions: v.proposals.map((p) => ({ action: "accept", proposal_id: p.id })),
      };
    }
    if (req.call === "withdrawal" && idx(req.agent) <= k) return { withdraw_probability: 100 };
    return undefined;
  });
}

Deno.test("M1 compensation counts in the insolvency test and is void on failure", async () => {
  const p = parseBankRunParams({});
  // 7 units withdrawn: solvent without compensation (7 < 8.48), insolvent with 0.5 owed (boundary 6.17).
  assert(insolvencyBoundary(p, 0.5) < 7 && 7 < insolvencyBoundary(p, 0));
  const paid = await runEpisode({
    env: "bank_run",
    mechanism: "M1",
    seed: 3,
    params: { capacity: 20 },
    agents: m1Script(0.5, 7),
  });
  assertEquals(paid.outcome.failure, "insolvency");
  assertEquals(paid.outcome.rounds, 1);
  assertEquals(
    of(paid.events, "transition").filter((e) => e.kind === "compensation_void").length,
    1,
  );
  // dep_15 gets its pro-rata share only: no compensation on failure.
  const pool = 1.125 + 0.85 * 15.075 - 7;
  assertAlmostEquals(paid.outcome.payoffs.dep_15, pool / 8, 1e-12);

  const unpaid = await runEpisode({
    env: "bank_run",
    mechanism: "M1",
    seed: 3,
    params: { capacity: 20 },
    agents: m1Script(0.01, 7),
  });
  assert(unpaid.outcome.success);
  // Compensation is paid on success, and comes out of the bank's residual.
  assertAlmostEquals(unpaid.outcome.payoffs.dep_15, 1.114 + 0.01, 1e-12);
});

Deno.test("M1 acceptance binds at once for lock_rounds rounds from acceptance, and overrides are logged", async () => {
  // The bank, told no round number, offers a 3-round lock; made and accepted in round 4, it binds
  // rounds 4, 5 and 6. dep_02 asks to withdraw from round 4 on.
  const r = await runEpisode({
    env: "bank_run",
    mechanism: "M1",
    seed: 3,
    agents: scripted((req) => {
      if (req.call === "retention_offer" && req.round === 4) {
        return { offers: [{ target: "dep_02", amount: 0.02, lock_rounds: 3 }] };
      }
      if (req.call === "mechanism_response" && req.agent === "dep_02" && req.round === 4) {
        return { proposal_actions: [{ action: "accept", proposal_id: "m1_dep_02" }] };
      }
      if (req.call === "withdrawal" && req.agent === "dep_02" && req.round >= 4) {
        return { withdraw_probability: 100 };
      }
      return undefined;
    }),
  });
  const [offer] = mech(r.events, "offer");
  assertEquals([offer.round, offer.proposal_id, offer.lock_until], [4, "m1_dep_02", 6]);
  const overrides = of(r.events, "override").filter((e) => e.agent === "dep_02");
  assertEquals(overrides.map((e) => e.round), [4, 5, 6]);
  assertEquals(overrides[0].from, 100);
  assertEquals(overrides[0].to, 0);
  // The lock ends after round 6: the round-7 withdrawal goes through.
  const d7 = of(r.events, "decision").find((e) => e.agent === "dep_02" && e.round === 7)!;
  assertEquals(d7.realized, true);
  assertEquals(d7.committed, false);
});

Deno.test("M2 exit takes effect the round after the declaration", async () => {
  const r = await runEpisode({
    env: "bank_run",
    mechanism: "M2",
    seed: 5,
    agents: scripted((req) => {
      if (req.call === "protection_solicitation") {
        return { solicit: ["all"], disclose_aggregate: true };
      }
      if (req.call === "mechanism_response" && req.agent === "dep_01") {
        if (req.round === 1) {
          return { proposal_actions: [{ action: "sign", proposal_id: "m2_agreement" }] };
        }
        if (req.round === 2) return { proposal_actions: [{ action: "exit" }] };
      }
      if (req.call === "withdrawal" && req.agent === "dep_01") return { withdraw_probability: 100 };
      return undefined;
    }),
  });
  assertEquals(of(r.events, "override").filter((e) => e.agent === "dep_01").map((e) => e.round), [
    1,
    2,
  ]);
  assertEquals(mech(r.events, "exit_declared")[0].round, 2);
  assertEquals(mech(r.events, "exit_effective").map((e) => [e.agent, e.round]), [["dep_01", 3]]);
  const d = of(r.events, "decision").filter((e) => e.agent === "dep_01");
  assertEquals(d.map((e) => e.realized), [false, false, true]);
  // The signer saw the certified aggregate; so did non-signers, since the bank disclosed it.
  const msgs = of(r.events, "message").filter((e) =>
    e.kind === "aggregate_committed" && e.round === 1
  );
  assertEquals(msgs.length, 2);
  assertAlmostEquals(msgs[0].content.total as number, 1);
});

function m3Script(plan: Record<string, Record<number, unknown[]>>, withdraw: string[] = []) {
  return scripted((req) => {
    if (req.call === "mechanism_response") {
      const acts = plan[req.agent]?.[req.round];
      return acts ? { proposal_actions: acts } : undefined;
    }
    if (req.call === "withdrawal" && withdraw.includes(req.agent)) {
      return { withdraw_probability: 100 };
    }
    return undefined;
  });
}

Deno.test("M3 exit ritual runs three waves, then the member may withdraw and never rejoin", async () => {
  const r = await runEpisode({
    env: "bank_run",
    mechanism: "M3",
    seed: 6,
    agents: m3Script({
      dep_01: { 1: [{ action: "join" }], 2: [{ action: "exit_request" }], 7: [{ action: "join" }] },
      dep_02: { 1: [{ action: "join" }], 3: [{ action: "exit_request" }] },
    }, ["dep_01"]),
  });
  assertEquals(mech(r.events, "exit_request").map((e) => [e.agent, e.round]), [["dep_01", 2]]);
  assertEquals(mech(r.events, "exit_list_join").map((e) => [e.agent, e.round]), [["dep_02", 3]]);
  assertEquals(mech(r.events, "exit_wave").map((e) => [e.round, e.wave]), [[2, 0], [3, 1], [4, 2], [
    5,
    3,
  ]]);
  const confirmed = mech(r.events, "exit_confirmed");
  assertEquals(confirmed.map((e) => [e.round, e.members]), [[5, ["dep_01", "dep_02"]]]);
  // Locked through round 5 (overrides), withdraws in round 6.
  assertEquals(of(r.events, "override").filter((e) => e.agent === "dep_01").map((e) => e.round), [
    1,
    2,
    3,
    4,
    5,
  ]);
  const d6 = of(r.events, "decision").find((e) => e.agent === "dep_01" && e.round === 6)!;
  assertEquals(d6.realized, true);
  // dep_01 has no balance left by round 7, so it is not called; dep_02 tries no rejoin. Check refusals directly:
  const refused = mech(r.events, "refused");
  assertEquals(refused.length, 0);
});

Deno.test("M3 refuses a rejoin after a completed exit", async () => {
  const r = await runEpisode({
    env: "bank_run",
    mechanism: "M3",
    seed: 6,
    agents: m3Script({
      dep_03: { 1: [{ action: "join" }], 2: [{ action: "exit_request" }], 6: [{ action: "join" }] },
    }),
  });
  const refused = mech(r.events, "refused");
  assertEquals(refused.map((e) => [e.agent, e.round, e.reason]), [
    ["dep_03", 6, "dep_03 left the coalition and cannot rejoin"],
  ]);
});

Deno.test("M3 announcement votes pass only with strictly more than half of the members", async () => {
  const members = ["dep_01", "dep_02", "dep_03", "dep_04"];
  for (const [supporters, passes] of [[1, false], [2, true]] as const) {
    const plan: Record<string, Record<number, unknown[]>> = {};
    for (const m of members) plan[m] = { 1: [{ action: "join" }] };
    plan.dep_01[2] = [{ action: "propose_announcement_vote", announce_to: "all" }];
    // Proposer counts as support; `supporters` more members vote yes in round 3, the rest no.
    members.slice(1).forEach((m, i) => {
      plan[m][3] = [{ action: "vote", vote_id: "v_dep_01", support: i < supporters }];
    });
    const r = await runEpisode({
      env: "bank_run",
      mechanism: "M3",
      seed: 2,
      agents: m3Script(plan),
    });
    const result = mech(r.events, "vote_result");
    assertEquals(result.map((e) => [e.round, e.passed, e.support, e.members]), [[
      3,
      passes,
      1 + supporters,
      4,
    ]]);
    const announced = of(r.events, "message").filter((e) => e.kind === "coalition_total");
    if (passes) {
      assertEquals(announced.length, 1);
      assertEquals(announced[0].round, 3);
      assertEquals(announced[0].content.total, 4);
      const to = announced[0].to as string[];
      assertEquals(to.length, 11);
      assert(!to.some((id) => members.includes(id)), "members are not outsiders");
    } else assertEquals(announced.length, 0);
  }
});

Deno.test("a depositor's view shows last round's balance sheet and no round or horizon", async () => {
  const seen: unknown[] = [];
  await runEpisode({
    env: "bank_run",
    seed: 1,
    agents: scripted((req) => {
      if (req.agent === "dep_15") seen.push(req.view);
      if (req.call === "withdrawal" && req.agent === "dep_01") return { withdraw_probability: 100 };
      return undefined;
    }),
  });
  const json = JSON.stringify(seen[0]);
  assert(!/"round"|"horizon"|"rounds"/.test(json), json);
  const v1 = seen[0] as { institution: { cash: number }; fractionRedeemedLastRound: number };
  const v2 = seen[1] as { institution: { cash: number }; fractionRedeemedLastRound: number };
  assertEquals(v1.institution.cash, 1.125);
  assertAlmostEquals(v2.institution.cash, 0.125);
  assertAlmostEquals(v2.fractionRedeemedLastRound, 1 / 15);
});

Deno.test("an M3 exit wave of five members goes through capacity: three are paid, two expire and are paid next round", async () => {
  const leavers = ["dep_01", "dep_02", "dep_03", "dep_04", "dep_05"];
  const plan: Record<string, Record<number, unknown[]>> = {};
  for (const id of leavers) plan[id] = { 1: [{ action: "join" }], 2: [{ action: "exit_request" }] };
  const r = await runEpisode({
    env: "bank_run",
    mechanism: "M3",
    seed: 9,
    agents: m3Script(plan, leavers),
  });
  assertEquals(mech(r.events, "exit_confirmed").map((e) => [e.round, e.members]), [[5, leavers]]);
  const paid = (round: number) =>
    of(r.events, "transition").filter((e) => e.round === round && e.kind === "withdrawal_paid");
  const expired = of(r.events, "transition").filter((e) => e.kind === "request_expired");
  assertEquals([paid(5).length, paid(6).length, paid(7).length], [0, 3, 2]);
  assertEquals(expired.map((e) => [e.round, e.amount]), [[6, 1], [6, 1]]);
  assertEquals(paid(7).map((e) => e.agent).sort(), expired.map((e) => e.agent).sort());
  assert(r.outcome.success);
});

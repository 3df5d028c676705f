// What the engine builds once and hands out many times (set-ups resolved
// once per condition, view parts shared by the views of a round) is never an
// object two episodes or two agents share where one could change it, and it
// always shows the current values.
import { assert, assertEquals, assertThrows } from "../_assert.ts";
import type { AgentFactory } from "../../engine/core/agent.ts";
import { mockPopulation } from "../../engine/agents/mock/population.ts";
import { thresholdPlayer } from "../../engine/games/staghunt/mock.ts";
import { playEpisode } from "../../engine/core/episode.ts";
import { openStream } from "../../engine/core/rng.ts";
import { bankRunStateJson } from "../../engine/games/bank_run/state_json.ts";
import { bankRunGame } from "../../engine/games/bank_run/descriptor.ts";
import { parseBankRunParams } from "../../engine/games/bank_run/params.ts";
import { initialBankRunState } from "../../engine/games/bank_run/state.ts";
import { depositorView } from "../../engine/games/bank_run/views.ts";
import { frailSetup } from "../../engine/frail/descriptor.ts";
import { stagHuntSetup } from "../../engine/games/staghunt/descriptor.ts";
import { historyFromView } from "../../engine/games/staghunt/history.ts";
import { parseStagHuntParams } from "../../engine/games/staghunt/params.ts";
import { initialStagHuntState } from "../../engine/games/staghunt/state.ts";
import { playerView } from "../../engine/games/staghunt/views.ts";

Deno.test("frailSetup() resolves a regime once but hands every caller its own parameters and derived quantities", () => {
  const a = frailSetup(bankRunGame, { mechanism: "M0", regime: "contraction" });
  (a.params as { capacity: number }).capacity = 99;
  (a.condition.derived.bounds as { best: number }).best = -1;
  const b = frailSetup(bankRunGame, { mechanism: "M2", regime: "contraction" });
  assertEquals((b.params as { capacity: number }).capacity, 3.75);
  assertEquals((b.params as { earlySalePrice: number }).earlySalePrice, 0.75);
  assertEquals((b.condition.derived.bounds as { best: number }).best.toFixed(4), "17.4060");
  assertEquals([b.condition.id, b.condition.fields.overrides_id], [
    "bank_run_M2_contraction",
    "none",
  ]);
  // Overrides are resolved every time, and a bad one is still named.
  const c = frailSetup(bankRunGame, {
    mechanism: "M0",
    regime: "contraction",
    overrides: { capacity: 5 },
  });
  assertEquals((c.params as { capacity: number }).capacity, 5);
  assertThrows(
    () =>
      frailSetup(bankRunGame, { mechanism: "M0", regime: "stable", overrides: { capacity: -1 } }),
    RangeError,
    'Invalid bank_run parameter "capacity"',
  );
});

Deno.test("stagHuntSetup() resolves a game once but hands every caller its own copy", () => {
  const a = stagHuntSetup({ N: 5, M: 3, T: 4, F: 2 }, "h1");
  a.params.payoffs.RS = 100;
  (a.condition.derived as unknown as { q_star: number }).q_star = 0;
  const b = stagHuntSetup({ N: 5, M: 3, T: 4, F: 2 }, "h1");
  assertEquals(b.params.payoffs, { RS: 4, HS: 2, RF: 0, HF: 2 });
  // q* of N = 5, M = 3 with (4, 2, 0, 2): the median of Beta(2, 3).
  assertEquals(
    (b.condition.derived as unknown as { q_star: number }).q_star.toFixed(6),
    "0.385728",
  );
  // The same game written with tuple payoffs, or another heterogeneity, resolves alike.
  const c = stagHuntSetup({ N: 5, M: 3, T: 4, F: 2, payoffs: [4, 2, 0, 2] }, "h2");
  assertEquals([c.condition.id, c.params.payoffs.RS], ["staghunt_N5_M3_T4_F2_base_h2", 4]);
  // An unknown field is refused, whether or not the known ones were seen before.
  assertThrows(
    () => stagHuntSetup({ N: 5, M: 3, T: 4, F: 2, X: 1 }, "h1"),
    RangeError,
    "X",
  );
});

Deno.test("depositorView() shares frozen parameters and books within a round, and shows books edited in place", () => {
  const s = initialBankRunState(
    parseBankRunParams({}),
    "M0",
    openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }),
  );
  const a = depositorView(s, "dep_01");
  const b = depositorView(s, "dep_02");
  assert(a.parameters === b.parameters && a.institution === b.institution);
  assert(Object.isFrozen(a.parameters) && Object.isFrozen(a.institution));
  assert(Object.isFrozen(a.proposals) && Object.isFrozen(a.announcements));
  assertThrows(() => a.proposals.push({ id: "x", kind: "y" }), TypeError);
  s.disclosed.cash = 0.5;
  s.params.capacity = 2;
  const c = depositorView(s, "dep_01");
  assertEquals([c.institution.cash, c.parameters.capacity], [0.5, 2]);
  assertEquals([a.institution.cash, a.parameters.capacity], [1.125, 3.75]);
  assertEquals(c.institution, { cash: 0.5, assets: 15.075, depositsRemaining: 15 });
});

Deno.test("playerView() shares each settled round, frozen, and shows a record edited in place", () => {
  const s = initialStagHuntState(
    parseStagHuntParams({ N: 2, M: 2, T: 2 }),
    openStream({ seed: 1, round: 0, agent: "engine", purpose: "corrupted" }),
  );
  const turn = (agent: string, position: number, action: "Stag" | "Hare") => ({
    agent,
    position,
    corrupted: false,
    originalAction: action,
    publicAction: action,
    confidence: 0.8,
    originalJustification: "j",
    publicJustification: "j",
  });
  s.round = 2;
  s.rounds.push({
    round: 1,
    turns: [turn("p01", 1, "Stag"), turn("p02", 2, "Hare")],
    outcome: { publicStag: 1, preflipStag: 1, publicSuccess: false, preflipSuccess: false },
  });
  s.rounds.push({ round: 2, turns: [turn("p01", 1, "Stag")], outcome: null });
  const a = playerView(s, "p02");
  const b = playerView(s, "p02");
  assert(a.transcript[0] === b.transcript[0] && Object.isFrozen(a.transcript[0].reports[0]));
  // The round in progress is built for each view.
  assert(a.transcript[1] !== b.transcript[1] && !Object.isFrozen(a.transcript[1]));
  const h = historyFromView(a);
  assertEquals(h.past[0].reports.map((r) => r.action), ["Stag", "Hare"]);
  assert(historyFromView(b).past[0] === h.past[0] && Object.isFrozen(h.past[0].reports));
  assertThrows(() => h.past[0].reports.push(h.past[0].reports[0]), TypeError);
  s.rounds[0].turns[1].publicAction = "Stag";
  s.rounds[0].outcome!.publicStag = 2;
  const c = playerView(s, "p02");
  assertEquals(c.transcript[0].reports[1].action, "Stag");
  assertEquals(c.transcript[0].outcome, { stag: 2, success: false });
  assertEquals(historyFromView(c).past[0].reports[1].action, "Stag");
  assertEquals(a.transcript[0].reports[1].action, "Hare");
});

Deno.test("depositorView() shares frozen decisions and messages: an agent changing its view changes neither the state nor another view", () => {
  const s = initialBankRunState(
    parseBankRunParams({}),
    "M0",
    openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }),
  );
  s.depositors[0].history.push({ round: 1, reported: 40, realized: true, processed: 0.5 });
  const message = { from: "bank", kind: "aggregate_committed", content: { total: 6, terms: [1] } };
  s.inbox = { dep_01: [message], dep_02: [message] };
  const before = bankRunStateJson(s);
  const a = depositorView(s, "dep_01");
  assertEquals(a.previousDecisions, [{ reported: 40, withdrew: true }]);
  assertThrows(() => {
    (a.previousDecisions[0] as { reported: number }).reported = 99;
  }, TypeError);
  assertThrows(() => {
    a.announcements[0].content.total = 0;
  }, TypeError);
  assertThrows(() => (a.announcements[0].content.terms as number[]).push(2), TypeError);
  assertThrows(() => a.announcements.push(message), TypeError);
  // The list of decisions is the view's own.
  a.previousDecisions.push({ reported: 100, withdrew: false });
  a.balance = 0;
  const b = depositorView(s, "dep_01");
  assertEquals(b.previousDecisions, [{ reported: 40, withdrew: true }]);
  assert(b.previousDecisions[0] === a.previousDecisions[0]);
  assertEquals(depositorView(s, "dep_02").announcements[0].content, { total: 6, terms: [1] });
  assertEquals(bankRunStateJson(s), before);
  // A history edited in place, or another episode's depositors, are shown as they are.
  s.depositors[0].history[0].processed = 0;
  assertEquals(depositorView(s, "dep_01").previousDecisions, [{ reported: 40, withdrew: false }]);
  const other = initialBankRunState(
    parseBankRunParams({}),
    "M0",
    openStream({ seed: 2, round: 0, agent: "engine", purpose: "deposit_split" }),
  );
  assertEquals(depositorView(other, "dep_01").previousDecisions, []);
  assertEquals(depositorView(s, "dep_01").previousDecisions, [{ reported: 40, withdrew: false }]);
  assertThrows(() => depositorView(s, "dep_99"), RangeError, 'Unknown depositor "dep_99"');
});

Deno.test("playEpisode() plays the same bank-run episodes when every agent vandalizes its view after answering", async () => {
  // Whatever an agent does to its view cannot reach the state, another
  // agent's view or the log: every change it may make is made, and the logs
  // are those of agents that leave their views alone.
  const vandalize = (v: unknown, depth = 0): void => {
    if (typeof v !== "object" || v === null || depth > 6) return;
    try {
      if (Array.isArray(v)) {
        for (const x of v) vandalize(x, depth + 1);
        v.push(v[0]);
        return;
      }
      for (const [k, x] of Object.entries(v)) {
        vandalize(x, depth + 1);
        (v as Record<string, unknown>)[k] = typeof x === "number" ? -1 : x;
      }
    } catch (err) {
      if (!(err instanceof TypeError)) throw err;
    }
  };
  for (const mechanism of ["M0", "M1", "M2"] as const) {
    for (const seed of [1, 2, 3, 4]) {
      const mocks = mockPopulation({ seed });
      const play = (agents: AgentFactory) =>
        playEpisode(bankRunGame.environment, {
          ...frailSetup(bankRunGame, { mechanism, regime: "stable" }),
          seed,
          agents,
          clock: () => "t",
          ndjson: true,
        });
      const calm = await play(mocks);
      const wild = await play((p) => {
        const a = mocks(p);
        return {
          policy: a.policy,
          decide(req) {
            const r = a.decide(req);
            vandalize(req.view);
            return r;
          },
        };
      });
      assert(calm.ndjson === wild.ndjson, `${mechanism} seed ${seed}: the logs differ`);
    }
  }
});

Deno.test("playerView() shares the reports of the round in progress, frozen, and shows a turn edited in place", () => {
  const s = initialStagHuntState(
    parseStagHuntParams({ N: 3, M: 2, T: 1 }),
    openStream({ seed: 1, round: 0, agent: "engine", purpose: "corrupted" }),
  );
  s.round = 1;
  const turn = {
    agent: "p01",
    position: 1,
    corrupted: true,
    originalAction: "Stag" as const,
    publicAction: "Hare" as const,
    confidence: 0.8,
    originalJustification: "j",
    publicJustification: "j",
  };
  s.rounds.push({ round: 1, turns: [turn], outcome: null });
  const a = playerView(s, "p02");
  const b = playerView(s, "p03");
  assert(
    a.transcript[0] !== b.transcript[0] && a.transcript[0].reports !== b.transcript[0].reports,
  );
  assert(a.transcript[0].reports[0] === b.transcript[0].reports[0]);
  assertThrows(() => {
    a.transcript[0].reports[0].action = "Stag";
  }, TypeError);
  // The view's own list: changing it changes no other view.
  a.transcript[0].reports.pop();
  assertEquals(b.transcript[0].reports.length, 1);
  // The rejustified text replaces the first one.
  turn.publicJustification = "rejustified";
  const c = playerView(s, "p03");
  assertEquals(c.transcript[0].reports[0].justification, "rejustified");
  assertEquals(b.transcript[0].reports[0].justification, "j");
  assertEquals(s.rounds[0].turns.length, 1);
});

Deno.test("thresholdPlayer() uses each game's own cutoff when games alternate", () => {
  const view = (payoffs: { RS: number; HS: number; RF: number; HF: number }) => ({
    you: "p02",
    position: 2,
    round: 1,
    N: 2,
    M: 2,
    payoffs,
    order: ["p01", "p02"],
    transcript: [{
      round: 1,
      outcome: null,
      reports: [{ agent: "p01", position: 1, action: "Stag", confidence: 1, justification: "" }],
    }],
  });
  // q-hat is 1 after one Stag; a cutoff above 1 is impossible, so use the texts.
  const texts = [{ RS: 4, HS: 2, RF: 0, HF: 2 }, { RS: 10, HS: 2, RF: 0, HF: 2 }].map((p) =>
    (thresholdPlayer().decide({ call: "stag_hunt_turn", view: view(p) } as never) as {
      justification: string;
    }).justification
  );
  const player = thresholdPlayer();
  const again = [0, 1, 0, 1].map((i) =>
    (player.decide({
      call: "stag_hunt_turn",
      view: view(i ? { RS: 10, HS: 2, RF: 0, HF: 2 } : { RS: 4, HS: 2, RF: 0, HF: 2 }),
    } as never) as { justification: string }).justification
  );
  assertEquals(again, [texts[0], texts[1], texts[0], texts[1]]);
  assertEquals(texts, [
    "My naive estimate 1.000 is at or above the cutoff 0.500.",
    "My naive estimate 1.000 is at or above the cutoff 0.200.",
  ]);
});

Deno.test("playerView() settles a round with the reports shown while it was in progress, and shows a turn edited before it settled", () => {
  const s = initialStagHuntState(
    parseStagHuntParams({ N: 3, M: 2, T: 2 }),
    openStream({ seed: 1, round: 0, agent: "engine", purpose: "corrupted" }),
  );
  const turn = (agent: string, position: number) => ({
    agent,
    position,
    corrupted: false,
    originalAction: "Stag" as const,
    publicAction: "Stag" as const,
    confidence: 0.8,
    originalJustification: `j${position}`,
    publicJustification: `j${position}`,
  });
  s.round = 1;
  s.rounds.push({ round: 1, turns: [turn("p01", 1), turn("p02", 2)], outcome: null });
  const during = playerView(s, "p03").transcript[0].reports;
  s.rounds[0].turns.push(turn("p03", 3));
  // Edited in place after it was shown in progress.
  s.rounds[0].turns[1].publicAction = "Hare";
  s.rounds[0].outcome = {
    publicStag: 2,
    preflipStag: 3,
    publicSuccess: true,
    preflipSuccess: true,
  };
  s.round = 2;
  s.rounds.push({ round: 2, turns: [], outcome: null });
  const settled = playerView(s, "p01").transcript[0];
  assert(Object.isFrozen(settled) && Object.isFrozen(settled.reports));
  // The unchanged turn's report is the one shown before; the edited one is made again.
  assert(settled.reports[0] === during[0]);
  assert(settled.reports[1] !== during[1] && Object.isFrozen(settled.reports[1]));
  assertEquals(settled.reports.map((r) => r.action), ["Stag", "Hare", "Stag"]);
  assertEquals(during[1].action, "Stag");
  assertEquals(settled, {
    round: 1,
    reports: [1, 2, 3].map((position) => ({
      agent: `p0${position}`,
      position,
      action: position === 2 ? "Hare" as const : "Stag" as const,
      confidence: 0.8,
      justification: `j${position}`,
    })),
    outcome: { stag: 2, success: true },
  });
  assert(playerView(s, "p02").transcript[0] === settled);
});

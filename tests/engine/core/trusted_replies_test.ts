// The project's mock agents' exact replies are taken as reports without
// parse's copy (`engine/core/_trusted_replies.ts`): only theirs, only when
// exact, and with the same log and outcome as parsing them; every other reply
// is still parsed and corrected.
import { assert, assertEquals } from "../../_assert.ts";
import type { Agent, AgentFactory } from "../../../engine/core/agent.ts";
import { mockPopulation } from "../../../engine/agents/mock/population.ts";
import { mockStagHuntPlayers } from "../../../engine/games/staghunt/mock.ts";
import { isTrusted, trustReplies } from "../../../engine/core/_trusted_replies.ts";
import { defineContract } from "../../../engine/core/contract.ts";
import { playEpisode } from "../../../engine/core/episode.ts";
import { openStream } from "../../../engine/core/rng.ts";
import { bankRunGame } from "../../../engine/games/bank_run/descriptor.ts";
import { frailSetup } from "../../../engine/frail/descriptor.ts";
import { frailGame } from "../../../engine/frail/registry.ts";
import { type EnvId, MECHANISMS } from "../../../engine/frail/types.ts";
import { turnContract } from "../../../engine/games/staghunt/contracts.ts";
import { runStagHuntEpisode } from "../../../engine/run_staghunt_episode.ts";

/** The same agent without the mark: its replies go through parse. */
function untrusted(a: Agent): Agent {
  return { policy: a.policy, decide: (req) => a.decide(req) };
}

function frail(env: EnvId, mechanism: string, seed: number, agents: AgentFactory) {
  return playEpisode(frailGame(env).environment, {
    ...frailSetup(frailGame(env), { mechanism: mechanism as never, regime: "stable" }),
    seed,
    agents,
    clock: () => "t",
    ndjson: true,
  });
}

Deno.test("playEpisode() logs the same text whether mock replies are taken as they are or parsed", async () => {
  for (const env of ["bank_run", "debt_rollover", "crowdfunding"] as const) {
    for (const mechanism of MECHANISMS) {
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const mocks = mockPopulation({ seed });
        const a = await frail(env, mechanism, seed, mocks);
        const b = await frail(env, mechanism, seed, (p) => untrusted(mocks(p)));
        assert(a.ndjson === b.ndjson, `${env} ${mechanism} seed ${seed} logs differ`);
        assertEquals(a.outcome, b.outcome);
      }
    }
  }
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    const players = mockStagHuntPlayers({ seed });
    const config = { N: 5, M: 3, T: 4, F: 2, seed, clock: () => "t", ndjson: true };
    const a = await runStagHuntEpisode({ ...config, agents: players });
    const b = await runStagHuntEpisode({
      ...config,
      agents: Object.assign((p: { id: string; role: string }) => untrusted(players(p)), players),
    });
    assert(a.ndjson === b.ndjson, `Stag Hunt seed ${seed} logs differ`);
  }
});

Deno.test("playEpisode() still corrects a bad reply from an agent that is not a marked mock", async () => {
  // Calling itself a mock is not enough; nor is being a copy of a marked mock.
  const mock = mockPopulation({ seed: 1 })({ id: "dep_01", role: "depositor" });
  assert(isTrusted(mock) && !isTrusted({ ...mock }));
  const liar: Agent = {
    policy: "mock:defensive",
    decide: () => ({ withdraw_probability: 140, reasoning: "I run." }),
  };
  const played = await frail("bank_run", "M0", 1, () => liar);
  const first = played.events.find((e) => e.type === "correction")!;
  assertEquals(
    [first.agent, first.field, first.raw, first.applied, first.reason],
    [
      "dep_01",
      "withdraw_probability",
      140,
      100,
      "Probability was not an integer in 0-100; rounded and clamped",
    ],
  );
  const report = played.events.find((e) => e.type === "report")!;
  assertEquals(report.report, { withdraw_probability: 100, reasoning: "I run." });
});

Deno.test("playEpisode() parses a marked agent's reply that is not exact", async () => {
  const replies = [
    { withdraw_probability: 14.5, reasoning: "half" },
    { withdraw_probability: 10, reasoning: "extra", note: "dropped" },
    { reasoning: "out of order", withdraw_probability: 10 },
    { withdraw_probability: Number.NaN, reasoning: "NaN" },
  ];
  let i = 0;
  const agent = trustReplies({ policy: "mock:test", decide: () => replies[i++ % replies.length] });
  const played = await frail("bank_run", "M0", 1, () => agent);
  const reports = played.events.filter((e) => e.type === "report").slice(0, 4).map((e) =>
    JSON.stringify(e.report)
  );
  assertEquals(reports, [
    '{"withdraw_probability":15,"reasoning":"half"}',
    '{"withdraw_probability":10,"reasoning":"extra"}',
    '{"withdraw_probability":10,"reasoning":"out of order"}',
    '{"withdraw_probability":0,"reasoning":"NaN"}',
  ]);
  const reasons = played.events.filter((e) => e.type === "correction").slice(0, 2).map((e) =>
    e.reason
  );
  assertEquals(reasons, [
    "Probability was not an integer in 0-100; rounded and clamped",
    "Probability is unparseable; 0 used",
  ]);
});

Deno.test("Contract.isExact() holds exactly when parse returns an equal value with no correction", () => {
  const c = defineContract("c", {
    p: { kind: "probability" },
    t: { kind: "text" },
    b: { kind: "boolean" },
  });
  const s = openStream({ seed: 3, round: 0, agent: "test", purpose: "values" });
  const pick = <T>(xs: readonly T[]): T => xs[s.int(xs.length)];
  const ps = [0, 100, 50, -1, 101, 2.5, "40", Number.NaN, undefined, null];
  const ts = ["", "x", 3, undefined, null, {}];
  const bs = [true, false, "true", 1, undefined];
  let exact = 0;
  for (let n = 0; n < 4000; n++) {
    const fields: [string, unknown][] = [["p", pick(ps)], ["t", pick(ts)], ["b", pick(bs)]];
    if (s.int(5) === 0) fields.reverse();
    if (s.int(5) === 0) fields.pop();
    if (s.int(5) === 0) fields.push(["x", 1]);
    const raw = Object.fromEntries(fields.filter(([, v]) => v !== undefined || s.int(2) === 0));
    const { value, corrections } = c.parse(raw);
    const same = corrections.length === 0 && JSON.stringify(value) === JSON.stringify(raw) &&
      Object.keys(value as object).join() === Object.keys(raw).join();
    assertEquals(c.isExact!(raw), same, JSON.stringify(raw));
    if (same) exact++;
  }
  assertEquals(exact, 79);
  // Text replies, arrays and class instances are never exact.
  assertEquals([c.isExact!('{"p":1,"t":"","b":true}'), c.isExact!([1])], [false, false]);
  // A Stag Hunt turn: values checked by their schema's check.
  assert(turnContract.isExact!({ action: "Stag", confidence: 0.75, justification: "j" }));
  assert(!turnContract.isExact!({ action: "stag", confidence: 0.75, justification: "j" }));
  assert(!turnContract.isExact!({ action: "Stag", confidence: 2, justification: "j" }));
});

Deno.test("bankRunGame's mock population marks every agent it builds", () => {
  const agents = mockPopulation({ seed: 1 });
  for (const role of ["depositor", "bank"]) assert(isTrusted(agents({ id: "x", role })), role);
  assert(bankRunGame.environment.contracts.withdrawal.isExact!({
    withdraw_probability: 0,
    reasoning: "I always stay.",
  }));
});

import assert from "node:assert/strict";
import { stagHuntSetup } from "../../../../engine/games/staghunt/descriptor.ts";
import type { Agent, AgentFactory } from "../../../../engine/core/agent.ts";
import type { CallRequest } from "../../../../engine/core/environment.ts";
import { playEpisode } from "../../../../engine/core/episode.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { corruptedPlayers } from "../../../../engine/games/staghunt/corruption.ts";
import { stagHunt } from "../../../../engine/games/staghunt/environment.ts";
import type { RejustifyView, StagHuntView } from "../../../../engine/games/staghunt/views.ts";
import { turnsFromEvents } from "../../../../engine/games/staghunt/turns.ts";

const clock = () => "2025-01-01T00:00:00.000Z";

/** Agents answering from a function of the request; every request is recorded. */
function recording(reply: (req: CallRequest) => unknown, log: CallRequest[]): AgentFactory {
  return (): Agent => ({
    policy: "test:recording",
    decide(req) {
      log.push(structuredClone(req));
      return Promise.resolve(reply(req));
    },
  });
}

const stagThenRejustify = (req: CallRequest) =>
  req.call === "rejustify"
    ? { justification: `new: ${(req.view as RejustifyView).justify.action}` }
    : { action: "Stag", confidence: 0.75, justification: `mine: ${req.agent}` };

async function play(
  params: Record<string, unknown>,
  seed: number,
  reply: (req: CallRequest) => unknown,
  log: CallRequest[] = [],
) {
  return await playEpisode(stagHunt, {
    ...stagHuntSetup(params, "h1"),
    seed,
    agents: recording(reply, log),
    clock,
  });
}

Deno.test("stagHunt draws F corrupted players from the seed, fixed across rounds, uniformly over players", async () => {
  const played = await play({ N: 5, M: 3, T: 4, F: 2 }, 11, stagThenRejustify);
  const expected = corruptedPlayers({ N: 5, F: 2 }, 11);
  assert.equal(expected.length, 2);
  const turns = turnsFromEvents(played.events);
  for (let round = 1; round <= 4; round++) {
    const bad = turns.filter((t) => t.round === round && t.corrupted).map((t) => t.agent);
    assert.deepEqual(bad, expected, `round ${round}`);
  }
  // Uniform: over 4,000 seeds each of 5 players is corrupted about F/N = 40% of the time.
  const counts = new Map<string, number>();
  for (let seed = 0; seed < 4000; seed++) {
    for (const id of corruptedPlayers({ N: 5, F: 2 }, seed)) {
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  }
  for (const [id, c] of counts) assert.ok(Math.abs(c / 4000 - 0.4) < 0.03, `${id}: ${c / 4000}`);
  assert.equal(counts.size, 5);
});

Deno.test("stagHunt shows each speaker the public transcript so far and never originals or corruption", async () => {
  const log: CallRequest[] = [];
  // Players alternate actions by position so both layers differ visibly.
  const played = await play(
    { N: 4, M: 2, T: 3, F: 2 },
    3,
    (req) =>
      req.call === "rejustify" ? { justification: "patched" } : {
        action: (req.view as StagHuntView).position % 2 ? "Stag" : "Hare",
        confidence: 0.6,
        justification: `own reason of ${req.agent}`,
      },
    log,
  );
  const turns = turnsFromEvents(played.events);
  const corrupted = new Set(turns.filter((t) => t.corrupted).map((t) => t.agent));
  assert.equal(corrupted.size, 2);
  for (const req of log.filter((r) => r.call === "stag_hunt_turn")) {
    const v = req.view as StagHuntView;
    const text = JSON.stringify(v);
    assert.ok(!/corrupt|original/i.test(text), `view leaks: ${text}`);
    for (const id of corrupted) {
      assert.ok(!text.includes(`own reason of ${id}`), `view leaks ${id}`);
    }
    // All earlier rounds complete, with outcomes; this round up to the previous speaker.
    assert.equal(v.transcript.length, v.round);
    for (const r of v.transcript.slice(0, -1)) {
      assert.equal(r.reports.length, 4);
      assert.ok(r.outcome !== null);
    }
    const current = v.transcript[v.round - 1];
    assert.equal(current.outcome, null);
    assert.deepEqual(
      current.reports.map((x) => x.position),
      [...Array(v.position - 1).keys()].map((i) => i + 1),
    );
    // Every shown report is the public layer of the logged turn.
    for (const r of v.transcript) {
      for (const x of r.reports) {
        const t = turns.find((u) => u.round === r.round && u.agent === x.agent)!;
        assert.equal(x.action, t.publicAction);
        assert.equal(x.justification, t.publicJustification);
        if (corrupted.has(x.agent)) assert.equal(x.justification, "patched");
      }
    }
  }
});

Deno.test("stagHunt (base) inverts, asks the same agent for a new justification before the next speaker, and keeps the confidence", async () => {
  const log: CallRequest[] = [];
  const played = await play({ N: 3, M: 2, T: 1, F: 1 }, 5, stagThenRejustify, log);
  const [bad] = corruptedPlayers({ N: 3, F: 1 }, 5);
  const order = log.map((r) => `${r.call}:${r.agent}`);
  const expected = ["p01", "p02", "p03"].flatMap((id) =>
    id === bad ? [`stag_hunt_turn:${id}`, `rejustify:${id}`] : [`stag_hunt_turn:${id}`]
  );
  assert.deepEqual(order, expected);
  const rejustify = log.find((r) => r.call === "rejustify")!;
  assert.deepEqual((rejustify.view as RejustifyView).justify, { action: "Hare", confidence: 0.75 });
  const t = turnsFromEvents(played.events).find((x) => x.agent === bad)!;
  assert.deepEqual(
    [
      t.originalAction,
      t.publicAction,
      t.confidence,
      t.originalJustification,
      t.publicJustification,
    ],
    ["Stag", "Hare", 0.75, `mine: ${bad}`, "new: Hare"],
  );
});

Deno.test("stagHunt settles on public actions: hand-computed payoffs, welfare, bounds and success", async () => {
  // N = 3, M = 2, F = 1, everyone plays Stag: 2 public Stag meet M every round; the
  // corrupted player earns H_S = 2, the others R_S = 4; T = 2 rounds.
  const played = await play({ N: 3, M: 2, T: 2, F: 1 }, 5, stagThenRejustify);
  const [bad] = corruptedPlayers({ N: 3, F: 1 }, 5);
  const o = played.outcome;
  for (const id of ["p01", "p02", "p03"]) assert.equal(o.payoffs[id], id === bad ? 4 : 8);
  assert.equal(o.welfare, 20);
  // worst = T (N - M + 1) H_F = 2 x 2 x 2 = 8; best = T N R_S = 24.
  assert.deepEqual(o.bounds, { worst: 8, best: 24 });
  assert.equal(o.welfareRealization, (20 - 8) / 16);
  assert.equal(o.success, true);
  assert.equal(o.failure, null);
  const outcomes = played.events.filter((e) =>
    e.type === "transition" && e.kind === "round_outcome"
  );
  assert.equal(outcomes.length, 2);
  assert.deepEqual(
    (({ public_stag, preflip_stag, public_success, preflip_success }) => [
      public_stag,
      preflip_stag,
      public_success,
      preflip_success,
    ])(outcomes[0] as unknown as Record<string, unknown>),
    [2, 3, true, true],
  );
});

Deno.test("stagHunt episode success means public success in every round", async () => {
  // N = 2, M = 2, F = 1: the inverted Stag breaks every round; pre-flip success stays.
  const played = await play({ N: 2, M: 2, T: 2, F: 1 }, 1, stagThenRejustify);
  assert.equal(played.outcome.success, false);
  assert.equal(played.outcome.failure, "coordination");
  const summary = played.events.find((e) =>
    e.type === "transition" && e.kind === "episode_summary"
  )!;
  assert.equal((summary as unknown as Record<string, number>).public_success_rounds, 0);
  assert.equal((summary as unknown as Record<string, number>).preflip_success_rounds, 2);
});

Deno.test("stagHunt (b3) draws public actions independently of the original and rejustifies only changed ones", async () => {
  let changed = 0;
  let stag = 0;
  let total = 0;
  for (let seed = 0; seed < 60; seed++) {
    const log: CallRequest[] = [];
    const played = await play(
      { N: 5, M: 3, T: 4, F: 2, corruption: "b3" },
      seed,
      stagThenRejustify,
      log,
    );
    const turns = turnsFromEvents(played.events).filter((t) => t.corrupted);
    for (const t of turns) {
      total++;
      if (t.publicAction === "Stag") stag++;
      if (t.publicAction !== t.originalAction) {
        changed++;
        assert.equal(t.publicJustification, "new: Hare");
      } else assert.equal(t.publicJustification, t.originalJustification);
    }
    assert.equal(
      log.filter((r) => r.call === "rejustify").length,
      turns.filter((t) => t.publicAction !== t.originalAction).length,
    );
  }
  assert.equal(total, 60 * 4 * 2);
  // Fair coin over 480 draws: within 4 standard deviations (0.091) of 1/2.
  assert.ok(Math.abs(stag / total - 0.5) < 0.091, `Stag share ${stag / total}`);
  assert.equal(changed, total - stag);
});

// Seeded exact values: a change to the stream keys or the draw rule changes them.
const PINNED_B3: string[] = [
  "1p01H",
  "1p03H",
  "2p01H",
  "2p03S",
  "3p01H",
  "3p03S",
  "4p01H",
  "4p03S",
];

Deno.test("stagHunt (b3) draws are pinned by the seed", async () => {
  const played = await play({ N: 5, M: 3, T: 4, F: 2, corruption: "b3" }, 42, stagThenRejustify);
  const publicActions = turnsFromEvents(played.events).filter((t) => t.corrupted)
    .map((t) => `${t.round}${t.agent}${t.publicAction[0]}`);
  assert.deepEqual(publicActions, PINNED_B3);
});

Deno.test("stagHunt reads actions case-insensitively and repairs bad replies with logged corrections", async () => {
  const played = await play({ N: 3, M: 2, T: 1, F: 0 }, 1, (req) => {
    if (req.agent === "p01") return { action: " stag ", confidence: 0.5, justification: "ok" };
    if (req.agent === "p02") return { action: "deer", confidence: 1.5, justification: "?" };
    return "no json here";
  });
  const turns = turnsFromEvents(played.events);
  assert.deepEqual(turns.map((t) => [t.originalAction, t.confidence]), [
    ["Stag", 0.5],
    ["Hare", 0.5],
    ["Hare", 0.5],
  ]);
  const corrections = played.events.filter((e): e is Extract<EngineEvent, { type: "correction" }> =>
    e.type === "correction"
  );
  assert.deepEqual(corrections.map((c) => `${c.agent}:${c.field}`), [
    "p02:action",
    "p02:confidence",
    "p03:*",
  ]);
});

Deno.test("stagHunt's outcome and bounds are plain objects with their fields in the logged order", async () => {
  // Built field by field since issue 23 (not as literals); the log and every
  // deep comparison must see the same objects as before.
  const setup = stagHuntSetup({ N: 3, M: 2, T: 1 }, "h1");
  const bounds = stagHunt.bounds(setup.params);
  assert.equal(Object.getPrototypeOf(bounds), Object.prototype);
  assert.deepEqual(Object.keys(bounds), ["worst", "best"]);
  const played = await playEpisode(stagHunt, {
    ...setup,
    seed: 1,
    clock,
    agents: () => ({
      policy: "test:stag",
      decide: () => ({ action: "Stag", confidence: 1, justification: "" }),
    }),
  });
  const fin = stagHunt.finish(played.state);
  assert.equal(Object.getPrototypeOf(fin.outcome), Object.prototype);
  assert.deepEqual(Object.keys(fin.outcome), [
    "success",
    "failure",
    "rounds",
    "payoffs",
    "welfare",
  ]);
  assert.deepEqual(Object.keys(played.outcome), [
    "success",
    "failure",
    "rounds",
    "payoffs",
    "welfare",
    "bounds",
    "welfareRealization",
  ]);
  assert.deepEqual(played.outcome.bounds, { worst: 4, best: 12 });
});

Deno.test("stagHunt's steps put a rejustify step after each corrupted speaker, whatever the players and corrupted set of the state asked", () => {
  const ids = (players: string[], corrupted: string[]) =>
    stagHunt.steps({ players, corrupted } as never).map((s) => s.id);
  const three = ["p01", "p02", "p03"];
  assert.deepEqual(ids(three, ["p02"]), ["turn_1", "turn_2", "rejustify_2", "turn_3", "settle"]);
  // The same arrays edited in place give the steps of what they hold now.
  const corrupted = ["p02"];
  ids(three, corrupted);
  corrupted[0] = "p03";
  assert.deepEqual(ids(three, corrupted), ["turn_1", "turn_2", "turn_3", "rejustify_3", "settle"]);
  corrupted.push("p01");
  corrupted.sort();
  assert.deepEqual(ids(three, corrupted), [
    "turn_1",
    "rejustify_1",
    "turn_2",
    "turn_3",
    "rejustify_3",
    "settle",
  ]);
  assert.deepEqual(ids(three, []), ["turn_1", "turn_2", "turn_3", "settle"]);
  assert.deepEqual(ids(["p01", "p02"], []), ["turn_1", "turn_2", "settle"]);
  // Beyond 30 players, and back.
  const many = Array.from({ length: 32 }, (_, i) => `p${String(i + 1).padStart(2, "0")}`);
  const steps = ids(many, ["p31", "p32"]);
  assert.equal(steps.length, 32 + 2 + 1);
  assert.deepEqual(steps.slice(-5), [
    "turn_31",
    "rejustify_31",
    "turn_32",
    "rejustify_32",
    "settle",
  ]);
  assert.deepEqual(ids(many.slice(0, 30), ["p30"]).slice(-3), [
    "turn_30",
    "rejustify_30",
    "settle",
  ]);
  assert.deepEqual(ids(three, ["p02"]), ["turn_1", "turn_2", "rejustify_2", "turn_3", "settle"]);
});

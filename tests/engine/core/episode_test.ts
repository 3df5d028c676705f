// What an episode records and what it costs: logging off serialises and hashes
// nothing, lines are the events serialised once, the events hash is exactly
// its definition, the clock is read once per round, synchronous agents never
// make the loop wait, and no event shares objects with the state.
import { assert, assertEquals, assertRejects } from "../../_assert.ts";
import type { Agent, AgentFactory } from "../../../engine/core/agent.ts";
import { mockPopulation } from "../../../engine/agents/mock/population.ts";
import { canonicalJson } from "../../../engine/core/canonical_json.ts";
import type { Environment } from "../../../engine/core/environment.ts";
import { EpisodeError, playEpisode } from "../../../engine/core/episode.ts";
import type { EngineEvent } from "../../../engine/core/events.ts";
import { deltaBlockLines, LogLineDecoder } from "../../../engine/core/event_layout.ts";
import { makeTempDir } from "../../_temp.ts";

/** The log text of one episode's events as the recorder writes it ("lines-v6"). */
const deltaText = (events: readonly object[]) =>
  deltaBlockLines(events).map((l) => l.line + "\n").join("");
import { sha256Hex, stateHash } from "../../../engine/core/hash.ts";
import { bankRun } from "../../../engine/games/bank_run/environment.ts";
import { debtRollover } from "../../../engine/games/debt_rollover/environment.ts";
import { crowdfunding } from "../../../engine/games/crowdfunding/environment.ts";
import { type AnyEnvironment, frailGame } from "../../../engine/frail/registry.ts";
import { type MechanismId, MECHANISMS } from "../../../engine/frail/types.ts";
import { bankRunGame } from "../../../engine/games/bank_run/descriptor.ts";
import { frailSetup } from "../../../engine/frail/descriptor.ts";
import { replayWith } from "../../../engine/core/replay.ts";
import { runEpisode } from "../../../engine/run_episode.ts";

const FRAIL: readonly AnyEnvironment[] = [bankRun, debtRollover, crowdfunding];

function play(env: AnyEnvironment, mechanism: string, seed: number, extra = {}) {
  return playEpisode(env, {
    ...frailSetup(frailGame(env.id), { mechanism: mechanism as MechanismId, regime: "stable" }),
    seed,
    agents: mockPopulation({ seed }),
    clock: () => "t",
    ...extra,
  });
}

Deno.test("playEpisode() without hashes records checkpoints that only mark the round, numbered as in a hashed run", async () => {
  for (const mechanism of MECHANISMS) {
    const off = await play(bankRun, mechanism, 4);
    const on = await play(bankRun, mechanism, 4, { hashes: true });
    assertEquals(off.outcome, on.outcome, mechanism);
    assertEquals([off.hashes, on.hashes.length], [[], on.outcome.rounds], mechanism);
    assertEquals(off.ndjson, undefined);
    const shape = (e: EngineEvent) => [e.type, e.round, e.step, e.seq];
    assertEquals(off.events.map(shape), on.events.map(shape), mechanism);
    for (const e of off.events.filter((e) => e.type === "checkpoint")) {
      assertEquals(Object.keys(e).sort(), [
        "episode",
        "round",
        "run",
        "schema",
        "seq",
        "step",
        "time",
        "type",
      ]);
    }
    const replay = await replayWith(bankRun, off.events);
    assertEquals([replay.ok, replay.hashes], [true, on.hashes], mechanism);
  }
});

Deno.test("playEpisode() with events: false keeps none and plays the same episode", async () => {
  const kept = await play(bankRun, "M3", 2);
  const none = await play(bankRun, "M3", 2, { events: false, ndjson: true });
  assertEquals(none.events, []);
  assertEquals(none.outcome, kept.outcome);
  // One line per event, after the block header ("lines-v5" on).
  assertEquals(none.ndjson!.split("\n").length - 1, kept.events.length + 1);
});

Deno.test("the log text is each event serialised once: its block line (deltaBlockLines), checkpoints with their canonical state", async () => {
  for (const env of FRAIL) {
    for (const mechanism of MECHANISMS) {
      const r = await play(env, mechanism, 7, { ndjson: true });
      const lines = r.ndjson!.split("\n");
      assertEquals(lines.pop(), "");
      // The block header, then a line per event.
      assertEquals(lines.length, r.events.length + 1);
      const expected = deltaText(r.events).split("\n");
      assertEquals(lines[0], expected[0]);
      const decoder = new LogLineDecoder();
      decoder.decode(JSON.parse(lines[0]));
      r.events.forEach((e, i) => {
        if (e.type !== "checkpoint") {
          assertEquals(lines[i + 1], expected[i + 1], `${env.id} ${mechanism} line ${i + 2}`);
          assertEquals(JSON.stringify(decoder.decode(JSON.parse(lines[i + 1]))), JSON.stringify(e));
          return;
        }
        const { state, ...rest } = e;
        const parsed = decoder.decode(JSON.parse(lines[i + 1])) as Record<string, unknown>;
        assertEquals(JSON.stringify(parsed.state), canonicalJson(state));
        assertEquals(JSON.stringify({ ...parsed, state: undefined }), JSON.stringify(rest));
        assertEquals(parsed.state_hash, stateHash(state));
      });
    }
  }
});

Deno.test("a checkpoint's events hash is SHA-256 over the round's event lines without their time", async () => {
  // Debt rollover logs asset_matured events whose own `round` field takes the
  // base field's place, the one case where a line is built from the whole event.
  // Round 1's hash also covers the set-up events before it (episode_start).
  for (const env of FRAIL) {
    const r = await play(env, "M3", 5, { ndjson: true, clock: () => "2026-01-01T00:00:00.000Z" });
    let round: string[] = [];
    let checked = 0;
    for (const line of r.ndjson!.trimEnd().split("\n")) {
      const e = JSON.parse(line) as EngineEvent;
      if (e.type === "round_start" && e.round > 1) round = [];
      if (e.type === "checkpoint") {
        const text = round.map((l) => `${l}\n`).join("");
        assertEquals(e.events_hash, sha256Hex(text), `${env.id} round ${e.round}`);
        checked++;
        continue;
      }
      round.push(line.replace(',"time":"2026-01-01T00:00:00.000Z"', ""));
    }
    assertEquals(checked, r.outcome.rounds);
  }
});

Deno.test("events never share objects with the state: each event reads the same at the end as when it was written", async () => {
  for (const env of FRAIL) {
    for (const mechanism of MECHANISMS) {
      for (const seed of [1, 2, 3]) {
        const r = await play(env, mechanism, seed, { ndjson: true });
        const decoder = new LogLineDecoder();
        const lines = r.ndjson!.trimEnd().split("\n").map((l) => decoder.decode(JSON.parse(l)));
        assertEquals(lines.shift(), undefined); // the block header
        r.events.forEach((e, i) => {
          assertEquals(canonicalJson(e), canonicalJson(lines[i]), `${env.id} ${i}`);
        });
      }
    }
  }
});

Deno.test("playEpisode() reads the clock once at set-up, once per round and once at the end with synchronous agents", async () => {
  let reads = 0;
  const r = await play(bankRun, "M2", 3, { clock: () => `t${reads++}` });
  assertEquals(reads, r.outcome.rounds + 2);
  const times = new Set(
    r.events.filter((e) => e.round === 2 && e.step !== "end").map((e) => e.time),
  );
  assertEquals(times.size, 1);
});

Deno.test("playEpisode() reads the clock again after a step whose agents answered asynchronously", async () => {
  let reads = 0;
  const base = mockPopulation({ seed: 3 });
  const later: AgentFactory = (p) => {
    const a = base(p);
    return { policy: a.policy, decide: (req) => Promise.resolve(a.decide(req)) };
  };
  const r = await playEpisode(bankRun, {
    ...frailSetup(bankRunGame, { mechanism: "M0", regime: "stable" }),
    seed: 3,
    agents: later,
    clock: () => `t${reads++}`,
  });
  // Under M0 one step a round asks agents (the financial decision).
  assertEquals(reads, 2 * r.outcome.rounds + 2);
});

Deno.test("an episode of synchronous agents plays to its end before playEpisode() returns; an asynchronous one does not", async () => {
  let ended = false;
  const onEvent = (e: EngineEvent) => {
    if (e.type === "episode_end") ended = true;
  };
  const sync = play(bankRun, "M1", 1, { onEvent });
  assert(ended, "synchronous agents: the whole episode ran in the call");
  await sync;
  ended = false;
  const slow: AgentFactory = (p) => {
    const a = mockPopulation({ seed: 1 })(p);
    return { policy: a.policy, decide: (req) => Promise.resolve(a.decide(req)) };
  };
  const pending = playEpisode(bankRun, {
    ...frailSetup(bankRunGame, { mechanism: "M1", regime: "stable" }),
    seed: 1,
    agents: slow,
    onEvent,
  });
  assert(!ended, "asynchronous agents: the loop awaits them");
  const [a, b] = [await pending, await play(bankRun, "M1", 1, { hashes: true })];
  assertEquals(a.outcome, b.outcome);
});

Deno.test("a crashing episode ends its events and its log text with an error, and the error carries both", async () => {
  const boom: Environment<unknown, { round: number; done: boolean }> = {
    id: "boom",
    parseParams: (x) => x,
    init: () => ({ round: 0, done: false }),
    roster: () => [{ id: "a", role: "r" }],
    horizon: () => 3,
    startRound(s, round) {
      s.round = round;
      return { state: s, events: [] };
    },
    steps: () => [{
      id: "explode",
      requests: () => [],
      apply(s) {
        if (s.round === 2) throw new Error("no more rounds");
        return { state: s, events: [{ type: "transition", kind: "tick" }] };
      },
    }],
    contracts: {},
    isDone: (s) => s.done,
    finish: (s) => ({
      state: s,
      events: [],
      outcome: { success: true, failure: null, rounds: s.round, payoffs: {}, welfare: 0 },
    }),
    bounds: () => ({ worst: 0, best: 1 }),
  };
  const agent: Agent = { policy: "none", decide: () => ({}) };
  const err = await assertRejects(
    () =>
      playEpisode(boom, {
        params: {},
        condition: {
          game: "test",
          fields: {},
          id: "boom",
          derived: { bounds: { worst: 0, best: 1 } },
          mechanism: "none",
          centralRole: null,
          centralId: null,
        },
        seed: 1,
        agents: () => agent,
        ndjson: true,
        clock: () => "t",
      }),
    EpisodeError,
    "Episode failed in round 2, step explode: no more rounds",
  ) as EpisodeError;
  const last = err.events.at(-1)!;
  assertEquals([last.type, last.step, last.round], ["episode_end", "end", 2]);
  const lines = err.ndjson!.trimEnd().split("\n");
  assertEquals(lines.length, err.events.length + 1); // and the block header
  assertEquals(err.ndjson, deltaText(err.events));
});

Deno.test("runEpisode() with outDir writes exactly its log text, and makes its folder again if it was removed", async () => {
  const dir = await makeTempDir();
  const r = await runEpisode({ env: "bank_run", seed: 2, outDir: dir, ndjson: true, run: "x" });
  assertEquals(await Deno.readTextFile(r.logPath!), r.ndjson);
  assertEquals(r.hashes.length, r.outcome.rounds);
  await Deno.remove(`${dir}/x`, { recursive: true });
  const again = await runEpisode({ env: "bank_run", seed: 3, outDir: dir, run: "x" });
  assertEquals(
    (await Deno.readTextFile(again.logPath!)).split("\n").length - 1,
    again.events.length + 1, // and the block header
  );
  assertEquals([...Deno.readDirSync(`${dir}/x`)].map((e) => e.name), [
    "bank_run_M0_stable_s3.ndjson",
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a result's events are a getter that toJSON() includes", async () => {
  const r = await runEpisode({ env: "bank_run", seed: 1 });
  const plain = JSON.parse(JSON.stringify(r));
  assertEquals(plain.events.length, r.events.length);
  assertEquals(plain.outcome, JSON.parse(JSON.stringify(r.outcome)));
  assert(r.events === r.events, "the same array on every read");
});

import { assertEquals, assertRejects, assertThrows } from "../../_assert.ts";
import { gameDescriptor, GAMES, registerGame } from "../../../engine/games/registry.ts";
import { replayEpisode, runEpisode } from "../../../engine/run_episode.ts";
import { runStagHuntEpisode } from "../../../engine/run_staghunt_episode.ts";

Deno.test("registerGame() refuses a second game of one id, a bad id and a descriptor without its factory", () => {
  const bank = gameDescriptor("bank_run");
  registerGame(bank);
  assertEquals(GAMES.filter((g) => g.id === "bank_run").length, 1);
  assertThrows(
    () => registerGame({ ...bank }),
    RangeError,
    'Game "bank_run" is already registered: pick another id, or pass { replace: true }',
  );
  assertThrows(
    () => registerGame({ ...bank, id: "Bank Run" }),
    RangeError,
    'Cannot register game "Bank Run": an id is lowercase letters',
  );
  assertThrows(
    () => registerGame({ ...bank, id: "x", setup: undefined as never }),
    TypeError,
    'Cannot register game "x": its descriptor has no "setup" function',
  );
  assertThrows(
    () => gameDescriptor("chess"),
    RangeError,
    'Unknown game "chess": this build provides "bank_run"',
  );
});

Deno.test("runEpisode() plays the Stag Hunt by game id as runStagHuntEpisode does, byte for byte", async () => {
  const config = { N: 3, M: 2, T: 2, F: 1, seed: 5, clock: () => "t", ndjson: true } as const;
  const a = await runEpisode({
    game: "staghunt",
    ...config,
    models: { kind: "h2", pool: ["a", "b"] },
  });
  const b = await runStagHuntEpisode({ ...config, models: { kind: "h2", pool: ["a", "b"] } });
  assertEquals(a.ndjson, b.ndjson);
  assertEquals(a.models, b.models);
  assertEquals((a.events[0] as { episode: string }).episode, "staghunt_N3_M2_T2_F1_base_h2_s5");
  assertEquals((await replayEpisode(a.events)).ok, true);
});

Deno.test("runEpisode() plays a FRAIL game by id as by env, and names an unknown field of a game config", async () => {
  const byEnv = await runEpisode({
    env: "debt_rollover",
    mechanism: "M2",
    seed: 2,
    clock: () => "t",
    ndjson: true,
  });
  const byId = await runEpisode({
    game: "debt_rollover",
    mechanism: "M2",
    seed: 2,
    clock: () => "t",
    ndjson: true,
  });
  assertEquals(byId.ndjson, byEnv.ndjson);
  await assertRejects(
    () => runEpisode({ game: "staghunt", seed: 1, corrupton: "b3" }),
    RangeError,
    'Invalid episode config "corrupton": unknown field "corrupton"; did you mean "corruption"?',
  );
  await assertRejects(
    () => runEpisode({ game: "bank_run", seed: 1, params: {}, overrides: {} }),
    RangeError,
    'Invalid condition "params": give the overrides as "params" or as "overrides", not both',
  );
});

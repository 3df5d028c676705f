// Every kind of input a user writes rejects a misspelled key, echoes it and
// suggests the valid name (issue: `runEpisode({ mechansim: "M3" })` used to
// run M0 without a word).
import assert from "node:assert/strict";
import { mockPopulation } from "../../engine/agents/mock/population.ts";
import { mockStagHuntPlayers } from "../../engine/games/staghunt/mock.ts";
import { parseModelConfig } from "../../engine/agents/llm/model_config.ts";
import { parseBankRunParams } from "../../engine/games/bank_run/params.ts";
import { parseGridSpec } from "../../engine/grid/spec.ts";
import { runEpisode } from "../../engine/run_episode.ts";
import { runStagHuntEpisode } from "../../engine/run_staghunt_episode.ts";

async function rejects(f: () => unknown, expected: string): Promise<void> {
  let error: unknown;
  try {
    await f();
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof RangeError, `expected a RangeError, got ${error}`);
  assert.equal((error as Error).message, expected);
}

Deno.test("runEpisode() rejects a misspelled config key with a suggestion, before anything runs", async () => {
  await rejects(
    () => runEpisode({ env: "bank_run", mechansim: "M3", seed: 1 } as never),
    'Invalid episode config "mechansim": unknown field "mechansim"; did you mean "mechanism"?',
  );
});

Deno.test("runStagHuntEpisode() rejects a misspelled config key with a suggestion", async () => {
  await rejects(
    () => runStagHuntEpisode({ seed: 1, corrupton: "b3" } as never),
    'Invalid Stag Hunt config "corrupton": unknown field "corrupton"; did you mean "corruption"?',
  );
});

Deno.test("parseGridSpec() rejects misspelled keys at every level with a suggestion", async () => {
  await rejects(
    () => parseGridSpec({ episdoes: 3, blocks: [{ game: "frail", envs: ["bank_run"] }] }),
    'Invalid grid spec "episdoes": unknown field "episdoes"; did you mean "episodes"?',
  );
  await rejects(
    () => parseGridSpec({ blocks: [{ game: "frail", envs: ["bank_run"], regime: ["stable"] }] }),
    'Invalid grid spec "blocks.0.regime": unknown field "regime"; did you mean "regimes"?',
  );
  await rejects(
    () =>
      parseGridSpec({
        blocks: [{ game: "frail", envs: ["bank_run"], agents: [{ mock: { depositor: "x" } }] }],
      }),
    'Invalid grid spec "blocks.0.agents.0.mock.depositor": unknown field "depositor"; did you mean "depositors"?',
  );
});

Deno.test("parseModelConfig() rejects a misspelled key with a suggestion", async () => {
  await rejects(
    () =>
      parseModelConfig({ id: "a", baseURL: "http://127.0.0.1:1/v1", model: "m", temprature: 1 }),
    'Invalid model config parameter "temprature": unknown field "temprature"; did you mean "temperature"?',
  );
});

Deno.test("FRAIL mock options reject a misspelled option and an unknown policy", async () => {
  await rejects(
    () => mockPopulation({ depositor: "always_stay" } as never),
    'Invalid mock options: unknown field "depositor"; did you mean "depositors"?',
  );
  await rejects(
    () => mockPopulation({ depositors: "always_stya" } as never),
    'Invalid mock options "depositors": expected one of "defensive", "always_stay", "always_run" (got "always_stya")',
  );
  await rejects(
    () => runEpisode({ env: "bank_run", seed: 1, agents: { bnak: "passive" } as never }),
    'Invalid mock options: unknown field "bnak"; did you mean "bank"?',
  );
});

Deno.test("Stag Hunt mock options reject a misspelled option with a suggestion", async () => {
  await rejects(
    () => mockStagHuntPlayers({ player: "always_stag" } as never),
    'Invalid mock Stag Hunt options: unknown field "player"; did you mean "players"?',
  );
});

Deno.test("environment parameters reject a misspelled key with a suggestion", async () => {
  await rejects(
    () => parseBankRunParams({ capcity: 3 }),
    'Invalid bank_run parameter "capcity": unknown field "capcity"; did you mean "capacity"?',
  );
});

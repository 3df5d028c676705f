// The hand-written config checks of runEpisode and runStagHuntEpisode agree
// with their zod schemas: on a seeded fuzz of configs, whatever the hand
// check accepts the schema accepts with the same values, and whatever the
// hand check leaves to the schema is either rejected by it or a shape the
// hand check does not cover.
import { assert, assertEquals } from "../_assert.ts";
import { openStream, type Stream } from "../../engine/core/rng.ts";
import { EpisodeConfigSchema, quickEpisodeConfig } from "../../engine/_episode_config.ts";
import {
  quickStagHuntRunConfig,
  StagHuntRunConfigSchema,
} from "../../engine/games/staghunt/_run_config.ts";

const pick = <T>(s: Stream, list: readonly T[]): T => list[s.int(list.length)];

/** Valid and invalid values of a field. */
interface Pool {
  valid: readonly unknown[];
  invalid: readonly unknown[];
  /** Present in this share of configs. Default 0.5. */
  present?: number;
}

const NAMES: Pool = {
  valid: [undefined, "adhoc", "run_1", "a.b-c", "x".repeat(200)],
  invalid: ["", "..", "-x", "a/b", "x".repeat(201), 3],
};
const BOOLS: Pool = { valid: [undefined, true, false], invalid: ["true", 0, null] };
const SEEDS: Pool = {
  valid: [0, 1, 7, 2 ** 53 - 1, -0],
  invalid: [2 ** 53, -1, 1.5, "3", NaN, Infinity, null, undefined],
  present: 0.95,
};
const FUNCTION = () => "t";

/**
 * A config: each field present with its probability, with a valid value
 * (nine times in ten) or an invalid one; one config in twenty has an unknown key.
 */
function randomConfig(s: Stream, pools: Record<string, Pool>): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const [key, pool] of Object.entries(pools)) {
    if (s.uniform() >= (pool.present ?? 0.5)) continue;
    config[key] = pick(s, s.uniform() < 0.9 || !pool.invalid.length ? pool.valid : pool.invalid);
  }
  if (s.uniform() < 0.05) config.unknownKey = 1;
  return config;
}

function agree(
  quick: (c: unknown) => Record<string, unknown> | undefined,
  schema: { safeParse(c: unknown): { success: boolean; data?: unknown } },
  pools: Record<string, Pool>,
  fields: readonly string[],
  seed: number,
): { quick: number; schemaOnly: number; rejected: number } {
  const s = openStream({ seed, round: 0, agent: "test", purpose: "config_fuzz" });
  const counts = { quick: 0, schemaOnly: 0, rejected: 0 };
  for (let i = 0; i < 3000; i++) {
    const config = randomConfig(s, pools);
    const fast = quick(config);
    const slow = schema.safeParse(config);
    if (fast === undefined) {
      counts[slow.success ? "schemaOnly" : "rejected"]++;
      continue;
    }
    counts.quick++;
    assert(slow.success, `the hand check accepted what zod rejects: ${Deno.inspect(config)}`);
    const data = slow.data as Record<string, unknown>;
    for (const f of fields) {
      assertEquals(fast[f], data[f], `field ${f} of ${Deno.inspect(config)}`);
    }
  }
  return counts;
}

Deno.test("quickEpisodeConfig() agrees with the episode config schema on 3,000 seeded configs", () => {
  const counts = agree(
    quickEpisodeConfig as never,
    EpisodeConfigSchema,
    {
      env: {
        valid: ["bank_run", "debt_rollover", "crowdfunding"],
        invalid: [undefined, "bank", 1],
        present: 0.95,
      },
      mechanism: { valid: [undefined, "M0", "M1", "M2", "M3"], invalid: ["M4", "m1"] },
      regime: { valid: [undefined, "stable", "expansion", "contraction"], invalid: ["boom"] },
      params: {
        valid: [undefined, {}, { capacity: 3 }, Object.create(null), { capacity: undefined }],
        invalid: [[], null, "x"],
      },
      seed: SEEDS,
      agents: {
        valid: [undefined, FUNCTION, {}, { depositors: "always_stay" }],
        invalid: [[], "x", null],
      },
      run: NAMES,
      episode: NAMES,
      outDir: { valid: [undefined, "", "runs"], invalid: [3] },
      clock: { valid: [undefined, FUNCTION], invalid: ["t"] },
      events: BOOLS,
      hashes: BOOLS,
      ndjson: BOOLS,
    },
    [
      "env",
      "mechanism",
      "regime",
      "params",
      "seed",
      "run",
      "episode",
      "outDir",
      "events",
      "hashes",
      "ndjson",
    ],
    1,
  );
  // Every outcome occurs, so each side of the comparison was exercised.
  assertEquals(counts, { quick: 1045, schemaOnly: 116, rejected: 1839 });
});

Deno.test("quickStagHuntRunConfig() agrees with the Stag Hunt config schema on 3,000 seeded configs", () => {
  const counts = agree(
    quickStagHuntRunConfig as never,
    StagHuntRunConfigSchema,
    {
      // The game's fields are anything here (the parameter schema checks them).
      N: { valid: [undefined, 5, "5"], invalid: [] },
      payoffs: { valid: [undefined, [4, 2, 0, 2], null], invalid: [] },
      corruption: { valid: [undefined, "base", 3], invalid: [] },
      seed: SEEDS,
      models: { valid: [undefined, { kind: "h1", model: "m" }], invalid: [{ kind: "h9" }] },
      agents: {
        valid: [undefined, FUNCTION, {}, { players: "always_stag" }],
        invalid: [[], "x", null],
      },
      run: NAMES,
      episode: NAMES,
      outDir: { valid: [undefined, "runs"], invalid: ["", 3] },
      clock: { valid: [undefined, FUNCTION], invalid: ["t"] },
      events: BOOLS,
      hashes: BOOLS,
      ndjson: BOOLS,
    },
    ["seed", "run", "episode", "outDir", "events", "hashes", "ndjson"],
    2,
  );
  // Configs with a heterogeneity policy are left to the schema.
  assertEquals(counts, { quick: 799, schemaOnly: 716, rejected: 1485 });
});

/**
 * Validation of `runStagHuntEpisode`'s config: the zod schema, which names
 * the field of a bad config, and a check by hand that gives the same result
 * for a config of the usual shape without zod's cost (as for `runEpisode`,
 * `../_episode_config.ts`). The hand check accepts only what the schema
 * accepts and leaves everything else (a heterogeneity policy among them) to
 * it; tests/engine/episode_config_test.ts checks that the two agree on a
 * seeded fuzz of configs.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { isPlainObject, parseQuickly, strictObject } from "../../core/strict_input.ts";
import { isName, NAME_HINT, NAME_PATTERN } from "../../names.ts";
import { ModelPolicySchema } from "./heterogeneity.ts";

const id = () => z.string().regex(NAME_PATTERN, NAME_HINT).max(200);

/**
 * The schema of `runStagHuntEpisode`'s config (the game's fields are checked
 * by the parameter schema afterwards).
 *
 * @example
 * ```ts
 * import { StagHuntRunConfigSchema } from "./_run_config.ts";
 * if (StagHuntRunConfigSchema.parse({ seed: 1 }).run !== "adhoc") throw new Error();
 * ```
 */
export const StagHuntRunConfigSchema = strictObject({
  N: z.unknown().optional(),
  M: z.unknown().optional(),
  T: z.unknown().optional(),
  F: z.unknown().optional(),
  payoffs: z.unknown().optional(),
  corruption: z.unknown().optional(),
  seed: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  models: ModelPolicySchema.optional(),
  agents: z.union([z.function(), z.object({}).passthrough()]).optional(),
  run: id().default("adhoc"),
  episode: id().optional(),
  outDir: z.string().min(1).optional(),
  clock: z.function().optional(),
  events: z.boolean().default(true),
  hashes: z.boolean().default(false),
  ndjson: z.boolean().default(false),
});

/** The fields of a parsed config that `runStagHuntEpisode` reads from it. */
export interface ParsedStagHuntRunConfig {
  /** Episode seed. */
  seed: number;
  /** Run id. */
  run: string;
  /** Episode id, if given. */
  episode?: string;
  /** Log folder, if given. */
  outDir?: string;
  /** Keep the events. */
  events: boolean;
  /** Hash checkpoints. */
  hashes: boolean;
  /** Build the log text. */
  ndjson: boolean;
}

const KEYS: ReadonlySet<string> = new Set(
  Object.keys(StagHuntRunConfigSchema.shape).filter((k) => k !== "models"),
);
const isBoolean = (v: unknown) => typeof v === "boolean";

/**
 * The parsed fields for a config of the usual shape (a plain object with
 * known keys other than `models`, and valid values), or `undefined`, leaving
 * the config to the schema.
 *
 * @example
 * ```ts
 * import { quickStagHuntRunConfig } from "./_run_config.ts";
 * if (quickStagHuntRunConfig({ N: 5, seed: 2 })?.run !== "adhoc") throw new Error();
 * if (quickStagHuntRunConfig({ seed: 2, outDir: "" }) !== undefined) throw new Error();
 * ```
 */
export function quickStagHuntRunConfig(config: unknown): ParsedStagHuntRunConfig | undefined {
  if (!isPlainObject(config)) return undefined;
  for (const k in config) if (!KEYS.has(k)) return undefined;
  const { seed, agents, run = "adhoc", episode, outDir, clock } = config;
  const { events = true, hashes = false, ndjson = false } = config;
  if (
    !(typeof seed === "number" && Number.isSafeInteger(seed) && seed >= 0) ||
    !(agents === undefined || typeof agents === "function" || isPlainObject(agents)) ||
    !isName(run) || !(episode === undefined || isName(episode)) ||
    !(outDir === undefined || (typeof outDir === "string" && outDir.length > 0)) ||
    !(clock === undefined || typeof clock === "function") ||
    !isBoolean(events) || !isBoolean(hashes) || !isBoolean(ndjson)
  ) {
    return undefined;
  }
  return { seed, run, episode, outDir, events, hashes, ndjson } as ParsedStagHuntRunConfig;
}

/**
 * Parses `runStagHuntEpisode`'s config: the hand check, else the schema.
 *
 * @example
 * ```ts
 * import { parseStagHuntRunConfig } from "./_run_config.ts";
 * try {
 *   parseStagHuntRunConfig({ seed: 1, corrupton: "b3" });
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e instanceof RangeError) || !e.message.includes('did you mean "corruption"?')) throw e;
 * }
 * ```
 * @throws {RangeError} Naming the field, for a bad config.
 */
export function parseStagHuntRunConfig(config: unknown): ParsedStagHuntRunConfig {
  return parseQuickly<ParsedStagHuntRunConfig>(
    StagHuntRunConfigSchema,
    quickStagHuntRunConfig,
    config,
    "Stag Hunt config",
  );
}

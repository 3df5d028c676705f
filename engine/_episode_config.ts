/**
 * Validation of `runEpisode`'s config: the zod schema, which names the field
 * of a bad config, and a check by hand that gives the same result for a
 * config of the usual shape without zod's cost (validating with zod cost more
 * than an episode's set-up). The hand check accepts only what the schema
 * accepts and leaves everything else to it; tests/engine/episode_config_test.ts
 * checks that the two agree on a seeded fuzz of configs.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import {
  describeInputIssue,
  isPlainObject,
  parseQuickly,
  strictObject,
} from "./core/strict_input.ts";
import { REGIMES } from "./frail/params.ts";
import { isOverridesName } from "./frail/descriptor.ts";
import { FRAIL_ENV_IDS } from "./frail/registry.ts";
import { MECHANISMS } from "./frail/types.ts";
import { isName, NAME_HINT, NAME_PATTERN } from "./names.ts";

/**
 * The schema of `runEpisode`'s config.
 *
 * @example
 * ```ts
 * import { EpisodeConfigSchema } from "./_episode_config.ts";
 * if (EpisodeConfigSchema.parse({ env: "bank_run", seed: 1 }).mechanism !== "M0") throw new Error();
 * ```
 */
export const EpisodeConfigSchema = strictObject({
  env: z.enum(FRAIL_ENV_IDS),
  mechanism: z.enum(MECHANISMS).default("M0"),
  regime: z.enum(REGIMES).default("stable"),
  params: z.record(z.string(), z.unknown()).default({}),
  paramsName: z.string().refine(isOverridesName, {
    message: 'use at most 40 letters, digits, "_", "-" or ".", other than "none" and a hash id',
  }).optional(),
  seed: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  agents: z.union([z.function(), z.record(z.string(), z.unknown())]).optional(),
  run: z.string().regex(NAME_PATTERN, NAME_HINT).max(200).default("adhoc"),
  episode: z.string().regex(NAME_PATTERN, NAME_HINT).max(200).optional(),
  outDir: z.string().optional(),
  clock: z.function().optional(),
  events: z.boolean().default(true),
  hashes: z.boolean().default(false),
  ndjson: z.boolean().default(false),
});

/** A config as the schema parses it (the fields `runEpisode` reads). */
export type ParsedEpisodeConfig = Omit<z.output<typeof EpisodeConfigSchema>, "agents" | "clock">;

const KEYS: ReadonlySet<string> = new Set(Object.keys(EpisodeConfigSchema.shape));

const has = (list: readonly string[], v: unknown) => typeof v === "string" && list.includes(v);
const optional = (v: unknown, check: (v: unknown) => boolean) => v === undefined || check(v);
const isBoolean = (v: unknown) => typeof v === "boolean";

/**
 * The parsed config for a config of the usual shape (a plain object with
 * known keys and valid values, plain-object `params` without `undefined`
 * values), or `undefined`, leaving the config to the schema.
 *
 * @example
 * ```ts
 * import { quickEpisodeConfig } from "./_episode_config.ts";
 * const c = quickEpisodeConfig({ env: "bank_run", seed: 3 });
 * if (c?.regime !== "stable" || c.events !== true || c.run !== "adhoc") throw new Error();
 * if (quickEpisodeConfig({ env: "bank_run", seed: -1 }) !== undefined) throw new Error();
 * ```
 */
export function quickEpisodeConfig(config: unknown): ParsedEpisodeConfig | undefined {
  if (!isPlainObject(config)) return undefined;
  for (const k in config) if (!KEYS.has(k)) return undefined;
  const c = config as Record<string, unknown>;
  const { env, mechanism = "M0", regime = "stable", seed, run = "adhoc", episode } = c;
  const { params, agents, outDir, clock, events = true, hashes = false, ndjson = false } = c;
  const { paramsName } = c;
  if (
    !has(FRAIL_ENV_IDS, env) || !has(MECHANISMS, mechanism) || !has(REGIMES, regime) ||
    !(typeof seed === "number" && Number.isSafeInteger(seed) && seed >= 0) ||
    !isName(run) || !optional(episode, isName) ||
    !optional(agents, (a) => typeof a === "function" || isPlainObject(a)) ||
    !optional(outDir, (d) => typeof d === "string") || !optional(paramsName, isOverridesName) ||
    !optional(clock, (f) => typeof f === "function") ||
    !isBoolean(events) || !isBoolean(hashes) || !isBoolean(ndjson)
  ) {
    return undefined;
  }
  let copied: Record<string, unknown> = {};
  if (params !== undefined) {
    if (!isPlainObject(params)) return undefined;
    copied = {};
    for (const k in params) {
      const v = (params as Record<string, unknown>)[k];
      if (v === undefined) return undefined;
      copied[k] = v;
    }
  }
  return {
    env,
    mechanism,
    regime,
    params: copied,
    ...(paramsName === undefined ? {} : { paramsName }),
    seed,
    run,
    episode,
    outDir,
    events,
    hashes,
    ndjson,
  } as ParsedEpisodeConfig;
}

/**
 * Parses `runEpisode`'s config: the hand check, else the schema.
 *
 * @example
 * ```ts
 * import { parseEpisodeConfig } from "./_episode_config.ts";
 * try {
 *   parseEpisodeConfig({ env: "bank_run", seed: 1.5 });
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e instanceof RangeError) || !e.message.startsWith('Invalid episode config "seed"')) throw e;
 * }
 * ```
 * @throws {RangeError} Naming the field, for a bad config.
 */
export function parseEpisodeConfig(config: unknown): ParsedEpisodeConfig {
  return parseQuickly<ParsedEpisodeConfig>(
    EpisodeConfigSchema,
    quickEpisodeConfig,
    config,
    "episode config",
  );
}

/** What {@linkcode parseGameEpisodeConfig} returns: the run's options and the condition's fields. */
export interface ParsedGameEpisodeConfig {
  /** The run's options (`agents` and `clock` are read from the config as given). */
  run: {
    seed: number;
    models?: unknown;
    run: string;
    episode?: string;
    outDir?: string;
    events: boolean;
    hashes: boolean;
    ndjson: boolean;
  };
  /** The condition's fields given (those of the game's `setupKeys`). */
  fields: Record<string, unknown>;
}

const RUN_SHAPE = (({ seed, agents, run, episode, outDir, clock, events, hashes, ndjson }) => ({
  seed,
  agents,
  run,
  episode,
  outDir,
  clock,
  events,
  hashes,
  ndjson,
}))(EpisodeConfigSchema.shape);

// The schema of each game's configs, by its list of condition keys (a constant of its descriptor).
const gameSchemas = new WeakMap<readonly string[], z.ZodType>();

function gameSchema(setupKeys: readonly string[]): z.ZodType {
  let schema = gameSchemas.get(setupKeys);
  if (schema === undefined) {
    const fields = Object.fromEntries(setupKeys.map((k) => [k, z.unknown().optional()]));
    schema = strictObject({
      game: z.string(),
      ...fields,
      ...RUN_SHAPE,
      models: z.unknown().optional(),
    });
    gameSchemas.set(setupKeys, schema);
  }
  return schema;
}

/**
 * Parses a `runEpisode` config of a game by id (`game`): the run's options,
 * and the condition's fields, which must be among the game's `setupKeys`
 * (the game's `setup` validates their values).
 *
 * @example
 * ```ts
 * import { parseGameEpisodeConfig } from "./_episode_config.ts";
 * const { run, fields } = parseGameEpisodeConfig({ game: "staghunt", N: 3, seed: 2 }, ["N", "M"]);
 * if (run.run !== "adhoc" || run.events !== true || fields.N !== 3 || "M" in fields) throw new Error();
 * try {
 *   parseGameEpisodeConfig({ game: "staghunt", n: 3, seed: 2 }, ["N", "M"]);
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e as Error).message.includes('did you mean "N"?')) throw e;
 * }
 * ```
 * @throws {RangeError} Naming the field, for a bad config.
 */
export function parseGameEpisodeConfig(
  config: unknown,
  setupKeys: readonly string[],
): ParsedGameEpisodeConfig {
  const parsed = gameSchema(setupKeys).safeParse(config);
  if (!parsed.success) {
    throw new RangeError(describeInputIssue(parsed.error.issues[0], config, "episode config"));
  }
  const c = parsed.data as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const k of setupKeys) if (c[k] !== undefined) fields[k] = c[k];
  const { seed, models, run, episode, outDir, events, hashes, ndjson } = c;
  return {
    run: { seed, models, run, episode, outDir, events, hashes, ndjson } as ParsedGameEpisodeConfig[
      "run"
    ],
    fields,
  };
}

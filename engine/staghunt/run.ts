/**
 * `runStagHuntEpisode`: one Stag Hunt episode from a plain config, with its
 * log written atomically under a run folder when asked.
 *
 * The runner draws the corrupted players from the seed exactly as the
 * environment does, assigns models with the heterogeneity policy (h1 / h2 /
 * h3), and builds each agent from its id, index and model (never its
 * corrupted flag). `episode_start` records the condition (N, M, T, F,
 * corruption, heterogeneity, payoffs; see `descriptor.ts`), with
 * heterogeneity `"h1"` when no policy is given.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { type MockStagHuntOptions, mockStagHuntPlayers } from "../agents/mock/staghunt.ts";
import { playEpisode } from "../core/episode.ts";
import type { EngineEvent, EpisodeOutcome } from "../core/events.ts";
import { writeEpisodeLog } from "../core/log_file.ts";
import { NAME_HINT, NAME_PATTERN, pathInside } from "../names.ts";
import { corruptedPlayers } from "./corruption.ts";
import { stagHunt } from "./environment.ts";
import { assignModel, type ModelPolicy, ModelPolicySchema } from "./heterogeneity.ts";
import type { CorruptionMode } from "./params.ts";
import { stagHuntSetup } from "./descriptor.ts";
import { describeInputIssue, strictObject } from "../core/strict_input.ts";
import type { PayoffsInput } from "./payoffs.ts";
import { playerIndex, type StagHuntAgentFactory } from "./players.ts";
import { type StagHuntTurn, turnsFromEvents } from "./turns.ts";

/** Configuration of one Stag Hunt episode. */
export interface StagHuntRunConfig {
  /** Players N. Default 5. */
  N?: number;
  /** Threshold M. Default 3. */
  M?: number;
  /** Rounds T. Default 4. */
  T?: number;
  /** Corrupted players F. Default 0. */
  F?: number;
  /** Payoffs (R_S, H_S, R_F, H_F). Default (4, 2, 0, 2). */
  payoffs?: PayoffsInput;
  /** Corruption mode. Default `"base"`. */
  corruption?: CorruptionMode;
  /** Episode seed (non-negative integer). */
  seed: number;
  /** Heterogeneity policy assigning models to players. Default: none (recorded as h1, no model). */
  models?: ModelPolicy;
  /** Agents: a factory, or mock options. Default: noiseless naive threshold players. */
  agents?: StagHuntAgentFactory | MockStagHuntOptions;
  /** Run id. Default `"adhoc"`. */
  run?: string;
  /** Episode id. Default derived from the game and the seed, e.g. `staghunt_N5_M3_T4_F2_base_h1_s7`. */
  episode?: string;
  /** Folder under which `<run>/<episode>.ndjson` is written. Default: nothing is written. */
  outDir?: string;
  /** Clock for event times. Default: wall clock. */
  clock?: () => string;
}

/** What {@linkcode runStagHuntEpisode} returns. */
export interface StagHuntRunResult {
  /** Outcome: success, payoffs, welfare, realization. */
  outcome: EpisodeOutcome;
  /** The event log. */
  events: EngineEvent[];
  /** State hash per round. */
  hashes: string[];
  /** The turn records of the episode. */
  turns: StagHuntTurn[];
  /** Model of each player, when a heterogeneity policy was given. */
  models?: Record<string, string>;
  /** Where the log was written, if it was. */
  logPath?: string;
}

const id = () => z.string().regex(NAME_PATTERN, NAME_HINT).max(200);

const ConfigSchema = strictObject({
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
});

/**
 * Runs one Stag Hunt episode. Everything is validated before anything is
 * written: a bad config throws a `RangeError` naming the field and leaves no
 * file behind.
 *
 * @example
 * ```ts
 * import { runStagHuntEpisode } from "./run.ts";
 * const r = await runStagHuntEpisode({ N: 5, M: 3, T: 4, F: 2, seed: 7,
 *   agents: { players: "always_stag" } });
 * // Three honest Stag actions meet M = 3 every round.
 * if (!r.outcome.success || r.turns.length !== 20) throw new Error();
 * ```
 * @throws {RangeError} For a bad config or parameter, naming the field.
 */
export async function runStagHuntEpisode(config: StagHuntRunConfig): Promise<StagHuntRunResult> {
  const parsed = ConfigSchema.safeParse(config);
  if (!parsed.success) {
    throw new RangeError(describeInputIssue(parsed.error.issues[0], config, "Stag Hunt config"));
  }
  const c = parsed.data;
  const regime = config.models?.kind ?? "h1";
  const { params, condition } = stagHuntSetup(
    Object.fromEntries(
      (["N", "M", "T", "F", "payoffs", "corruption"] as const)
        .filter((k) => config[k] !== undefined)
        .map((k) => [k, config[k]]),
    ),
    regime,
  );
  const corrupted = new Set(corruptedPlayers(params, c.seed));
  const factory: StagHuntAgentFactory = typeof config.agents === "function"
    ? config.agents
    : mockStagHuntPlayers({ seed: c.seed, ...(config.agents ?? {}) });
  const models: Record<string, string> = {};
  const episode = c.episode ??
    `staghunt_N${params.N}_M${params.M}_T${params.T}_F${params.F}_${params.corruption}_${regime}_s${c.seed}`;
  const logPath = c.outDir ? pathInside(c.outDir, c.run, `${episode}.ndjson`) : undefined;
  let events: EngineEvent[];
  try {
    const played = await playEpisode(stagHunt, {
      params,
      condition,
      seed: c.seed,
      agents: ({ id, role }) => {
        const index = playerIndex(id);
        const model = config.models
          ? (models[id] = assignModel({ index, corrupted: corrupted.has(id) }, config.models))
          : undefined;
        return factory(model === undefined ? { id, role, index } : { id, role, index, model });
      },
      run: c.run,
      episode,
      clock: config.clock,
    });
    events = played.events;
    if (logPath) await writeEpisodeLog(logPath, events);
    return {
      outcome: played.outcome,
      events,
      hashes: played.hashes,
      turns: turnsFromEvents(events),
      ...(config.models ? { models } : {}),
      logPath,
    };
  } catch (err) {
    const logged = (err as { events?: EngineEvent[] }).events;
    if (logPath && logged) await writeEpisodeLog(logPath, logged);
    throw err;
  }
}

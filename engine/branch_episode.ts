/**
 * Counterfactual branches: fork an episode at round k under another
 * mechanism, corruption, parameters or agents, with the same randomness.
 *
 * `branchEpisode(parentEvents, { atRound, change })` first replays the
 * parent's log (a log that does not replay is refused with replay's
 * message), then plays a new episode with the parent's seed: rounds before
 * `atRound` under the parent's condition, answered from the parent's log
 * through the machinery replay uses (`recordedAnswers`), so they cost
 * nothing and reach the parent's states exactly; then the state is rebased
 * onto the changed condition (`Environment.rebase`) and play goes on with
 * `agents`. Every stream is keyed by (seed, round, agent, purpose), so every
 * draw the change does not touch is the parent's (common random numbers).
 *
 * The branch is a normal episode: its `episode_start` records the changed
 * condition, `branch_of: { run, episode, round, condition, condition_id,
 * hashes }` (the parent's state hashes of the rounds before `round`) and
 * the `change`; replay verifies it, those hashes included. Its rounds before
 * `atRound` hold the parent's reports, corrections and agent errors, but not
 * its model calls (they were made, and paid for, in the parent; a branch's
 * usage counts only its own).
 *
 * Choices (docs/modelling-choices.md): a mechanism switch starts the new
 * mechanism empty and is refused when the parent's holds a commitment at the
 * switch (`engine/frail/rebase.ts`); a Stag Hunt F change redraws the
 * corrupted players from the parent's stream (the first F of the same
 * shuffle); anything read only at set-up (players, deposits) cannot change.
 *
 * @module
 */
import type { AgentFactory } from "./core/agent.ts";
import type { MockPopulationOptions } from "./agents/mock/population.ts";
import type { MockStagHuntOptions } from "./games/staghunt/mock.ts";
import { canonicalJson } from "./core/canonical_json.ts";
import type { Environment } from "./core/environment.ts";
import { type BranchPlay, branchSegments, checkBranch } from "./core/episode.ts";
import { EpisodeRun, playAndLog } from "./core/episode_run.ts";
import type { BranchOf, EngineEvent } from "./core/events.ts";
import { sha256Hex } from "./core/hash.ts";
import { describeMismatch, type EpisodeStart, recordedAnswers } from "./core/replay.ts";
import { roundStreams } from "./core/rng.ts";
import type { GameDescriptor, GameSetup, PlayerAgentFactory } from "./core/game.ts";
import { conditionSetup, type EpisodeResult, replayEpisode } from "./run_episode.ts";
import { gameDescriptor } from "./games/registry.ts";
import type { StagHuntAgentFactory } from "./games/staghunt/players.ts";
import { NAME_HINT, NAME_PATTERN } from "./names.ts";

/**
 * What a branch changes from its round on. FRAIL: `mechanism`, `regime`,
 * `params` (overrides merged over the parent's). Stag Hunt: `M`, `T`, `F`,
 * `corruption`, `payoffs`, `heterogeneity` (recorded; the models are the
 * `agents`). `N` (the players) cannot change. An empty change replays the
 * parent's draws with the given agents.
 */
export interface BranchChange {
  /** FRAIL mechanism. */
  mechanism?: string;
  /** FRAIL regime. */
  regime?: string;
  /** FRAIL parameter overrides, merged over the parent's. */
  params?: Record<string, unknown>;
  /** Stag Hunt threshold. */
  M?: number;
  /** Stag Hunt rounds. */
  T?: number;
  /** Stag Hunt corrupted players. */
  F?: number;
  /** Stag Hunt corruption mode. */
  corruption?: string;
  /** Stag Hunt payoffs. */
  payoffs?: unknown;
  /** Stag Hunt heterogeneity label. */
  heterogeneity?: string;
  /** Another game's keys, as its descriptor's `branch.keys` names them (min_effort: `T`, `a`, `b`, `c`, `efforts`). */
  [key: string]: unknown;
}

/** Options of {@linkcode branchEpisode}. */
export interface BranchEpisodeOptions {
  /** The first round played under the change (1 to the rounds the parent played). */
  atRound: number;
  /** What changes. */
  change: BranchChange;
  /**
   * The agents from `atRound` on: a factory (FRAIL `AgentFactory`, Stag Hunt
   * `StagHuntAgentFactory`), or mock options seeded with the episode seed as
   * `runEpisode` / `runStagHuntEpisode` seed them. Required: a log records
   * the parent's policies, not how to rebuild them.
   */
  agents: AgentFactory | StagHuntAgentFactory | MockPopulationOptions | MockStagHuntOptions;
  /** Folder under which `<run>/<episode>.ndjson` is written. Default: nothing is written. */
  outDir?: string;
  /** Run id. Default the parent's. */
  run?: string;
  /** Episode id. Default `<parent>_b<atRound>_<change label>` (see {@linkcode branchLabel}). */
  episode?: string;
  /** Clock for event times. Default: wall clock. */
  clock?: () => string;
  /** Keep the events in memory. Default `true`. */
  events?: boolean;
  /** Return the NDJSON log text. Default `false`. */
  ndjson?: boolean;
}

/**
 * Forks an episode at round `atRound` under a change, with the parent's
 * randomness (see the module doc).
 *
 * @example
 * ```ts
 * import { branchEpisode } from "./branch_episode.ts";
 * import { replayEpisode, runEpisode } from "./run_episode.ts";
 * const parent = await runEpisode({ env: "bank_run", mechanism: "M0", seed: 4, ndjson: true });
 * const b = await branchEpisode(parent.events, { atRound: 2, change: { mechanism: "M3" },
 *   agents: {} });
 * const start = b.events[0];
 * if (start.type !== "episode_start" || start.condition.mechanism !== "M3") throw new Error();
 * if (start.branch_of?.round !== 2 || b.hashes[0] !== parent.hashes[0]) throw new Error();
 * if (!(await replayEpisode(b.events)).ok) throw new Error("a branch replays");
 * ```
 * @throws {RangeError} For a bad `atRound` (1 to the rounds the parent played, or to its
 * horizon when it ended early: the change then never applies), change key or value, a parent
 * that ended in an error, or a change the game cannot apply mid-episode; {Error} when the
 * parent's log does not replay.
 */
export async function branchEpisode(
  parentEvents: readonly EngineEvent[],
  options: BranchEpisodeOptions,
): Promise<EpisodeResult> {
  const start = parentEvents.find((e): e is EpisodeStart => e.type === "episode_start");
  if (!start) throw new TypeError("Cannot branch: the parent log has no episode_start event");
  const { atRound, change } = options;
  const checked = await replayEpisode(parentEvents);
  if (!checked.ok) {
    throw new Error(
      `Cannot branch: the parent log "${start.run}/${start.episode}" does not replay: ${
        describeMismatch(checked.mismatch!)
      }`,
    );
  }
  const end = parentEvents.find((e) => e.type === "episode_end");
  if (end?.type === "episode_end" && end.status === "error") {
    throw new RangeError(
      `Cannot branch "${start.episode}": it ended in an error (${end.error ?? "no message"})`,
    );
  }
  const game = start.game;
  const descriptor = gameDescriptor(start.env);
  const played = checked.hashes.length;
  // A parent that ended before its horizon (a failure) can be branched at any
  // later round up to the horizon: the change never applies, and the branch
  // is the parent's episode (the counterfactual of switching at a round the
  // episode never reached).
  const parentSetup = conditionSetup(game, start.env, start.condition);
  const parentEnv = descriptor.environment as Environment<unknown, unknown>;
  const horizon = parentEnv.horizon(
    parentEnv.init(parentEnv.parseParams(parentSetup.params), {
      mechanism: parentSetup.condition.mechanism,
      seed: start.seed,
      stream: roundStreams(start.seed, 0),
    }),
  );
  const last = played < horizon ? horizon : played;
  if (!Number.isInteger(atRound) || atRound < 1 || atRound > last) {
    throw new RangeError(
      `Option "atRound" must be an integer in 1..${last} (the rounds "${start.episode}" ` +
        `${played < horizon ? `could have played; it ended after round ${played}` : "played"}), ` +
        `got ${atRound}`,
    );
  }
  const keys = descriptor.branch?.keys ?? [];
  for (const k of Object.keys(change ?? {})) {
    if (!keys.includes(k)) {
      throw new RangeError(
        `Unknown change "${k}" for a ${game} episode: expected ${
          keys.map((x) => `"${x}"`).join(", ")
        }`,
      );
    }
  }
  const c = start.condition;
  const changed: Record<string, unknown> = descriptor.branch
    ? descriptor.branch.apply(c, change as Record<string, unknown>)
    : { ...c };
  const setup = conditionSetup(game, start.env, changed);
  const env = descriptor.environment as Environment<unknown, unknown>;
  const seed = start.seed;
  const agents = branchAgents(descriptor, setup, seed, options.agents);
  // Who plays from atRound on: the roster the changed condition sets up.
  const roster = env.roster(
    env.init(env.parseParams(setup.params), {
      mechanism: setup.condition.mechanism,
      seed,
      stream: roundStreams(seed, 0),
    }),
  );
  const of: BranchOf = {
    run: start.run,
    episode: start.episode,
    round: atRound,
    condition: { ...c },
    condition_id: start.condition_id,
    hashes: checked.hashes.slice(0, Math.min(atRound - 1, played)),
    ...(start.branch_of ? { branch_of: start.branch_of } : {}),
  };
  const players = new Set(roster.map((p) => p.id));
  const params = env.parseParams(setup.params);
  const plan: BranchPlay<unknown> = {
    atRound,
    segments: branchSegments(of).map(({ from, condition }) => {
      const s = conditionSetup(game, start.env, condition);
      return { from, params: env.parseParams(s.params), mechanism: s.condition.mechanism };
    }),
    of,
    change: JSON.parse(JSON.stringify(change)),
  };
  // A change the game cannot apply at set-up is refused before anything is played.
  checkBranch(env, { params, condition: setup.condition, seed, branch: plan });
  const fromLog = recordedAnswers(parentEvents, { calls: false });
  const factory: AgentFactory = (p) => {
    if (!players.has(p.id)) return { policy: "parent", decide: fromLog };
    const agent = agents(p);
    return {
      policy: agent.policy,
      decide: (req) => req.round < atRound ? fromLog(req) : agent.decide(req),
    };
  };
  const run = options.run ?? start.run;
  const episode = options.episode ?? `${start.episode}_b${atRound}_${branchLabel(change)}`;
  for (const [field, name] of [["run", run], ["episode", episode]]) {
    if (!NAME_PATTERN.test(name)) {
      throw new RangeError(`Option "${field}" is not a valid name ("${name}"): ${NAME_HINT}`);
    }
  }
  const text = options.ndjson ?? false;
  const { played: result, logPath } = await playAndLog(env, {
    params,
    condition: setup.condition,
    seed,
    agents: factory,
    branch: plan,
    // The parent's definition: its prefix's state hashes are compared as it wrote them.
    hashing: checked.hashing,
  }, {
    run,
    episode,
    outDir: options.outDir,
    clock: options.clock,
    events: options.events ?? true,
    hashes: true,
    ndjson: text,
  });
  for (let i = 0; i < of.hashes.length; i++) {
    if (result.hashes[i] !== of.hashes[i]) {
      throw new Error(
        `Branch "${episode}" left its parent in round ${i + 1} (state hash ${result.hashes[i]}, ` +
          `parent ${of.hashes[i]}): a bug in the game's replay`,
      );
    }
  }
  return new EpisodeRun(result, {
    ndjson: text,
    logPath,
    ids: { condition: setup.condition.id, episode },
  });
}

/**
 * A short label of a change, for episode ids: values of `mechanism`,
 * `regime` and `corruption`, `<key><value>` for the numbers, `<key>-<hash>`
 * for objects, joined by `-` in key order; `"same"` for an empty change.
 *
 * @example
 * ```ts
 * import { branchLabel } from "./branch_episode.ts";
 * if (branchLabel({ mechanism: "M1" }) !== "M1") throw new Error();
 * if (branchLabel({ F: 0, corruption: "communication_only" }) !== "F0-communication_only") throw new Error();
 * if (branchLabel({}) !== "same") throw new Error();
 * ```
 */
export function branchLabel(change: BranchChange): string {
  const parts = Object.keys(change).sort().flatMap((k) => {
    const v = (change as Record<string, unknown>)[k];
    if (v === undefined) return [];
    if (typeof v === "string") return [v];
    if (typeof v === "number") return [`${k}${v}`];
    return [`${k}-${sha256Hex(canonicalJson(v)).slice(0, 6)}`];
  });
  return parts.length === 0 ? "same" : parts.join("-");
}

/**
 * The agents of a branch from its round on: the given factory, or the game's
 * mock agents of the given options, told about each player as the game's
 * `players` hook tells them (the Stag Hunt's speaking index).
 */
function branchAgents(
  game: GameDescriptor,
  setup: GameSetup<unknown>,
  seed: number,
  agents: BranchEpisodeOptions["agents"],
): AgentFactory {
  if (agents === undefined) {
    throw new RangeError(
      'Option "agents" is required: the agents that play from the branch round on ' +
        "(a log records the parent's policies, not how to rebuild them)",
    );
  }
  const factory: PlayerAgentFactory = typeof agents === "function"
    ? agents as PlayerAgentFactory
    : game.mockAgents({ seed, ...(agents as Record<string, unknown>) });
  const players = game.players?.players(setup, seed, undefined);
  return players ? (p) => factory(players.player(p)) : factory;
}

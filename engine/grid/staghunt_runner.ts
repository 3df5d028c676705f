/**
 * The Stag Hunt episode runner of a grid: `runStagHuntEpisode` with the
 * cell's N, M, T, F, payoffs and corruption mode and the heterogeneity policy
 * of its agents entry (`{ model }` is h1 with that model, `{ models }` its
 * policy). Its rule-based players are `mockStagHuntPlayers` seeded with the
 * episode seed, with the entry's `mock` options (the defaults for an entry
 * without them).
 *
 * @module
 */
import {
  type MockStagHuntOptions,
  mockStagHuntPlayers,
  type ThresholdPlayerOptions,
} from "../games/staghunt/mock.ts";
import type { EngineEvent } from "../core/events.ts";
import type { ModelPolicy } from "../games/staghunt/heterogeneity.ts";
import { parseStagHuntParams, type StagHuntParams } from "../games/staghunt/params.ts";
import { runStagHuntEpisode, type StagHuntRunResult } from "../games/staghunt/run.ts";
import type { GridEpisode, StagHuntCondition } from "./cell.ts";
import { gridLogging } from "./logging.ts";
import type { EpisodeRunner, GridAgentFactory, PlayedText } from "./episode_runner.ts";
import { playedText } from "./_played_text.ts";
import type { RuleSpec, StagHuntAgentsSpec, StagHuntMockSpec } from "./spec.ts";
import { beliefRuleOf } from "./_rule_spec.ts";

/**
 * The options of the rule-based players of a `mock` entry (fields left out
 * keep the players' defaults). Its `rule` is one rule (a cell's entry; a
 * block spreads a list of rules into one entry per rule).
 *
 * @example
 * ```ts
 * import { stagHuntMockOptions } from "./staghunt_runner.ts";
 * const o = stagHuntMockOptions({ players: "threshold", rule: "carryover", noise: 0.1 });
 * if (o.threshold?.rule?.id !== "carryover" || o.threshold.noise !== 0.1 || "always" in o) throw new Error();
 * const swept = stagHuntMockOptions({ rule: { carryover: { lambda: 0.7 } } });
 * if (swept.threshold?.rule?.id !== "carryover(lambda=0.7)") throw new Error();
 * ```
 * @throws {RangeError} For a list of rules, or a rule it cannot build (see `RuleSpec`).
 */
export function stagHuntMockOptions(mock: StagHuntMockSpec): MockStagHuntOptions {
  const out: MockStagHuntOptions = {};
  if (mock.players) out.players = mock.players;
  const threshold: ThresholdPlayerOptions = {};
  if (mock.rule !== undefined) {
    if (Array.isArray(mock.rule)) {
      throw new RangeError(
        `A mock entry plays one belief rule: expand the block to spread its list of ${mock.rule.length}`,
      );
    }
    threshold.rule = beliefRuleOf(mock.rule as RuleSpec);
  }
  if (mock.noise !== undefined) threshold.noise = mock.noise;
  if (mock.firstSpeakerPrior !== undefined) threshold.firstSpeakerPrior = mock.firstSpeakerPrior;
  if (mock.hare) threshold.qStar = { hare: mock.hare };
  if (Object.keys(threshold).length) out.threshold = threshold;
  if (mock.confidence !== undefined) out.always = { confidence: mock.confidence };
  return out;
}

/**
 * The game's parameters of a condition, picked by name (a cell of the
 * paper's grid also carries that grid's `id`, `condition` and `point`).
 */
function gameParams({ N, M, T, F, payoffs, corruption }: StagHuntCondition): StagHuntParams {
  return { N, M, T, F, payoffs, corruption };
}

function modelPolicy(agents: StagHuntAgentsSpec): ModelPolicy | undefined {
  if (agents.kind === "model") return { kind: "h1", model: agents.model };
  if (agents.kind === "models") return agents.models;
  return undefined;
}

/**
 * The Stag Hunt runner.
 *
 * @example
 * ```ts
 * import { stagHuntRunner } from "./staghunt_runner.ts";
 * const episode = {
 *   id: "ep", index: 0, run: "demo", cell: "c", replicate: 0, seed: 3,
 *   condition: { game: "staghunt", N: 3, M: 2, T: 2, F: 1, corruption: "base", heterogeneity: "h1",
 *     payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 } },
 *   agents: { kind: "mock", mock: { players: "always_stag" } },
 * } as const;
 * const events = await stagHuntRunner.play(episode, stagHuntRunner.mockAgents(episode));
 * if (events.filter((e) => e.type === "turn").length !== 6) throw new Error();
 * ```
 */
export const stagHuntRunner: EpisodeRunner = {
  check({ condition }) {
    parseStagHuntParams(gameParams(condition as StagHuntCondition));
  },
  mockAgents(ep) {
    const a = ep.agents as StagHuntAgentsSpec;
    const mock = a.kind === "model" ? undefined : a.mock;
    return mockStagHuntPlayers({ seed: ep.seed, ...stagHuntMockOptions(mock ?? {}) });
  },
  async play(ep, agents): Promise<EngineEvent[]> {
    return (await run(ep, agents, false)).events;
  },
  async playText(ep, agents): Promise<PlayedText> {
    const r = await run(ep, agents, true);
    return playedText(r);
  },
};

/** The episode with complete logging: its events, or (`text`) its log text only. */
function run(
  ep: GridEpisode,
  agents: GridAgentFactory,
  text: boolean,
): Promise<StagHuntRunResult> {
  const models = modelPolicy(ep.agents as StagHuntAgentsSpec);
  return runStagHuntEpisode({
    ...gameParams(ep.condition as StagHuntCondition),
    seed: ep.seed,
    ...(models ? { models } : {}),
    agents,
    ...gridLogging(ep, text),
  });
}

/**
 * The Stag Hunt episode runner of a grid: `runStagHuntEpisode` with the
 * cell's N, M, T, F, payoffs and corruption mode, the heterogeneity policy of
 * its agents entry (`{ model }` is h1 with that model, `{ models }` its
 * policy), and either the agents factory given to the grid or rule-based
 * players built from the entry's `mock` options.
 *
 * @module
 */
import type { MockStagHuntOptions, ThresholdPlayerOptions } from "../agents/mock/staghunt.ts";
import { EpisodeError } from "../core/episode.ts";
import type { EngineEvent } from "../core/events.ts";
import { carryoverRule } from "../staghunt/beliefs/carryover.ts";
import { naiveRule } from "../staghunt/beliefs/naive.ts";
import { outcomeAlignmentRule } from "../staghunt/beliefs/outcome_alignment.ts";
import type { BeliefRule } from "../staghunt/beliefs/rule.ts";
import type { ModelPolicy } from "../staghunt/heterogeneity.ts";
import { parseStagHuntParams } from "../staghunt/params.ts";
import { runStagHuntEpisode } from "../staghunt/run.ts";
import type { GridEpisode, StagHuntCondition } from "./cells.ts";
import type { EpisodeRunner } from "./runners.ts";
import type { StagHuntAgentsSpec, StagHuntMockSpec } from "./spec.ts";

const RULES: Readonly<Record<NonNullable<StagHuntMockSpec["rule"]>, () => BeliefRule>> = {
  naive: naiveRule,
  carryover: carryoverRule,
  outcome_alignment: outcomeAlignmentRule,
};

/**
 * The options of the rule-based players of a `mock` entry (fields left out
 * keep the players' defaults).
 *
 * @example
 * ```ts
 * import { stagHuntMockOptions } from "./staghunt_runner.ts";
 * const o = stagHuntMockOptions({ players: "threshold", rule: "carryover", noise: 0.1 });
 * if (o.threshold?.rule?.id !== "carryover" || o.threshold.noise !== 0.1 || "always" in o) throw new Error();
 * ```
 */
export function stagHuntMockOptions(mock: StagHuntMockSpec): MockStagHuntOptions {
  const out: MockStagHuntOptions = {};
  if (mock.players) out.players = mock.players;
  const threshold: ThresholdPlayerOptions = {};
  if (mock.rule) threshold.rule = RULES[mock.rule]();
  if (mock.noise !== undefined) threshold.noise = mock.noise;
  if (mock.firstSpeakerPrior !== undefined) threshold.firstSpeakerPrior = mock.firstSpeakerPrior;
  if (mock.hare) threshold.qStar = { hare: mock.hare };
  if (Object.keys(threshold).length) out.threshold = threshold;
  if (mock.confidence !== undefined) out.always = { confidence: mock.confidence };
  return out;
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
 * const events = await stagHuntRunner.play({
 *   id: "ep", index: 0, run: "demo", cell: "c", replicate: 0, seed: 3,
 *   condition: { game: "staghunt", N: 3, M: 2, T: 2, F: 1, corruption: "base", heterogeneity: "h1",
 *     payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 } },
 *   agents: { kind: "mock", mock: { players: "always_stag" } },
 * });
 * if (events.filter((e) => e.type === "turn").length !== 6) throw new Error();
 * ```
 */
export const stagHuntRunner: EpisodeRunner = {
  check({ condition }) {
    const c = condition as StagHuntCondition;
    parseStagHuntParams({
      N: c.N,
      M: c.M,
      T: c.T,
      F: c.F,
      payoffs: c.payoffs,
      corruption: c.corruption,
    });
  },
  async play(ep: GridEpisode, options = {}): Promise<EngineEvent[]> {
    const c = ep.condition as StagHuntCondition;
    const a = ep.agents as StagHuntAgentsSpec;
    const mock = a.kind === "mock" ? a.mock : a.kind === "models" ? a.mock : undefined;
    if (!options.agents && !mock) {
      throw new TypeError(
        `Episode "${ep.id}" names LLM agents: pass an agents factory (RunGridOptions.agents)`,
      );
    }
    const models = modelPolicy(a);
    try {
      const r = await runStagHuntEpisode({
        N: c.N,
        M: c.M,
        T: c.T,
        F: c.F,
        payoffs: c.payoffs,
        corruption: c.corruption,
        seed: ep.seed,
        ...(models ? { models } : {}),
        agents: options.agents ?? stagHuntMockOptions(mock!),
        run: ep.run,
        episode: ep.id,
      });
      return r.events;
    } catch (err) {
      if (err instanceof EpisodeError) return err.events;
      throw err;
    }
  },
};

/**
 * Dry run: counts the calls and prompt tokens of a planned grid before any
 * money is spent. Each episode is played with stand-in agents (the rule-based
 * mock agents by default) while every call's prompt is rendered from its view
 * with the real templates and counted; no request leaves the process.
 *
 * The counts are an estimate: real models may end or stretch episodes
 * differently than the stand-ins (a run ends early when the bank fails). Cost
 * is bracketed by prompt tokens alone (`minCost`) and prompt tokens plus every
 * call using its full completion cap (`maxCost`).
 *
 * @module
 */
import type { AgentFactory } from "../agent.ts";
import { mockPopulation } from "../mock/population.ts";
import { playEpisode } from "../../core/episode.ts";
import { environment, resolveParams } from "../../frail/registry.ts";
import { callCost } from "./accounting.ts";
import { type ModelAssignment, modelFor } from "./model_assignment.ts";
import { type ModelConfig, type ModelConfigInput, parseModelConfigs } from "./model_config.ts";
import { promptSet } from "./prompts/registry.ts";
import { findTemplate } from "./prompts/template.ts";
import type { GridEpisodeSpec } from "./run_grid.ts";

/** Options of {@linkcode dryRunGrid}. */
export interface DryRunOptions {
  /** Model configurations (for token caps and prices). */
  models: readonly (ModelConfigInput | ModelConfig)[];
  /** Model assignment for episodes that name none. */
  assignment: ModelAssignment;
  /** Stand-in agents per episode. Default: mock agents seeded with the episode seed. */
  standIn?: (spec: GridEpisodeSpec) => AgentFactory;
  /** Token count of a call's prompt (its messages' texts joined). Default: characters / 4, rounded up. */
  countTokens?: (text: string) => number;
}

/** Counts for one model. */
export interface DryRunModelCounts {
  /** Calls. */
  calls: number;
  /** Prompt tokens. */
  promptTokens: number;
  /** Calls x completion cap. */
  maxCompletionTokens: number;
  /** Cost of the prompt tokens, or `null` without a price. */
  minCost: number | null;
  /** Cost with every completion at its cap, or `null` without a price. */
  maxCost: number | null;
}

/** A dry run's counts. */
export interface DryRunPlan {
  /** Episodes played. */
  episodes: number;
  /** Calls in total. */
  calls: number;
  /** Prompt tokens in total. */
  promptTokens: number;
  /** Completion caps in total. */
  maxCompletionTokens: number;
  /** Counts by model id. */
  byModel: Record<string, DryRunModelCounts>;
  /** Sum of `minCost`, or `null` when a model has no price. */
  minCost: number | null;
  /** Sum of `maxCost`, or `null` when a model has no price. */
  maxCost: number | null;
}

/**
 * Plays the grid with stand-ins and counts what the LLM run would send.
 *
 * @example
 * ```ts
 * import { dryRunGrid } from "./dry_run.ts";
 * const plan = await dryRunGrid([{ env: "bank_run", mechanism: "M0", seed: 1 }], {
 *   models: [{ id: "m", baseURL: "http://127.0.0.1:9/v1", model: "x",
 *     price: { inputPerMillion: 1, outputPerMillion: 2 } }],
 *   assignment: "m",
 *   standIn: () => () => ({ policy: "stay", decide: () => Promise.resolve({ withdraw_probability: 0 }) }),
 * });
 * if (plan.calls !== 180 || plan.maxCompletionTokens !== 180 * 8192) throw new Error();
 * ```
 */
export async function dryRunGrid(
  grid: readonly GridEpisodeSpec[],
  options: DryRunOptions,
): Promise<DryRunPlan> {
  const configs = new Map(parseModelConfigs(options.models).map((m) => [m.id, m]));
  const count = options.countTokens ?? ((t: string) => Math.ceil(t.length / 4));
  const byModel: Record<string, DryRunModelCounts> = {};
  for (const spec of grid) {
    const env = environment(spec.env);
    const prompts = promptSet(spec.env);
    const assignment = spec.models ?? options.assignment;
    const standIn = (options.standIn ?? ((s) => mockPopulation({ seed: s.seed })))(spec);
    const agents: AgentFactory = (player) => {
      const id = modelFor(assignment, player);
      const m = configs.get(id);
      if (!m) throw new RangeError(`Unknown model id "${id}" in the assignment`);
      const inner = standIn(player);
      return {
        policy: `dry-run:${id}`,
        decide(req) {
          const t = findTemplate(prompts, req.role, req.call);
          if (!t) {
            throw new TypeError(
              `No prompt template for ${spec.env} role "${req.role}" and call "${req.call}"`,
            );
          }
          const tokens = count(t.render(req.view as never).map((msg) => msg.content).join(""));
          const c = byModel[id] ??= {
            calls: 0,
            promptTokens: 0,
            maxCompletionTokens: 0,
            minCost: null,
            maxCost: null,
          };
          c.calls++;
          c.promptTokens += tokens;
          c.maxCompletionTokens += m.maxTokens;
          return inner.decide(req);
        },
      };
    };
    await playEpisode(env, {
      params: resolveParams(spec.env, spec.regime ?? "stable", spec.params ?? {}),
      mechanism: spec.mechanism ?? "M0",
      regime: spec.regime ?? "stable",
      seed: spec.seed,
      agents,
      clock: () => "1970-01-01T00:00:00.000Z",
    });
  }
  let minCost: number | null = 0, maxCost: number | null = 0;
  for (const [id, c] of Object.entries(byModel)) {
    const price = configs.get(id)!.price;
    if (price) {
      c.minCost = callCost({ tokensIn: c.promptTokens, tokensOut: 0 }, price);
      c.maxCost = callCost({ tokensIn: c.promptTokens, tokensOut: c.maxCompletionTokens }, price);
      if (minCost !== null) minCost += c.minCost;
      if (maxCost !== null) maxCost += c.maxCost;
    } else {
      minCost = null;
      maxCost = null;
    }
  }
  const all = Object.values(byModel);
  return {
    episodes: grid.length,
    calls: all.reduce((s, c) => s + c.calls, 0),
    promptTokens: all.reduce((s, c) => s + c.promptTokens, 0),
    maxCompletionTokens: all.reduce((s, c) => s + c.maxCompletionTokens, 0),
    byModel,
    minCost,
    maxCost,
  };
}

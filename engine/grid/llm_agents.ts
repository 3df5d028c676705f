/**
 * LLM agents of a grid: which prompt set and model assignment an episode's
 * agents entry means, the agents `runGrid` builds from an `LlmRuntime`, and
 * the checks made before any episode starts.
 *
 * Choices: an episode's calls sample with its seed (`sample: seed`), so a
 * re-run or resumed episode replays cached responses while episodes with
 * other seeds sample afresh; a Stag Hunt entry's models are assigned to the
 * players by its heterogeneity policy (the runner passes each player's
 * model), its first model standing in for players without one.
 *
 * @module
 */
import { llmPopulation } from "../agents/llm/llm_agent.ts";
import type { ModelAssignment } from "../agents/llm/model_assignment.ts";
import { missingTemplates } from "../agents/llm/prompts/registry.ts";
import type { LlmRuntime } from "../agents/llm/runtime.ts";
import { gameDescriptor } from "../games/registry.ts";
import { type CellCondition, cellGameId, type GridEpisode } from "./cells.ts";
import type { GridAgentFactory } from "./runners.ts";
import { type AgentsSpec, modelsOf } from "./spec.ts";

/**
 * The prompt-set id of a condition: the id of the game it plays (a branch's:
 * its parents' game), whose descriptor holds the prompt set.
 *
 * @example
 * ```ts
 * import { promptSetId } from "./llm_agents.ts";
 * if (promptSetId({ game: "frail", env: "crowdfunding", mechanism: "M0", regime: "stable", params: {} }) !== "crowdfunding") {
 *   throw new Error();
 * }
 * ```
 */
export function promptSetId(condition: CellCondition): string {
  return cellGameId(condition);
}

/**
 * The model assignment of an agents entry, or `null` for rule-based agents.
 *
 * @example
 * ```ts
 * import { modelAssignmentOf } from "./llm_agents.ts";
 * if (modelAssignmentOf({ kind: "models", models: { kind: "h2", pool: ["a", "b"] } }) !== "a") throw new Error();
 * if (modelAssignmentOf({ kind: "mock", mock: {} }) !== null) throw new Error();
 * ```
 */
export function modelAssignmentOf(agents: AgentsSpec): ModelAssignment | null {
  if (agents.kind === "model") return agents.model;
  return modelsOf(agents)[0] ?? null;
}

/**
 * The LLM agents of an episode, sharing one runtime (so provider limits,
 * the cache and the ledger hold across episodes), or `undefined` for an
 * episode of rule-based agents.
 *
 * @example
 * ```ts
 * import { LlmRuntime } from "../agents/llm/runtime.ts";
 * import { gridLlmAgents } from "./llm_agents.ts";
 * const runtime = new LlmRuntime({ models: [{ id: "m", baseURL: "http://127.0.0.1:9/v1", model: "x" }] });
 * const episode = { id: "ep", index: 0, run: "r", cell: "c", replicate: 0, seed: 4,
 *   condition: { game: "frail", env: "bank_run", mechanism: "M0", regime: "stable", params: {} },
 *   agents: { kind: "model", model: "m" } } as const;
 * if (gridLlmAgents(episode, runtime)?.({ id: "bank", role: "bank" }).policy !== "llm:m") throw new Error();
 * ```
 */
export function gridLlmAgents(
  episode: GridEpisode,
  runtime: LlmRuntime,
): GridAgentFactory | undefined {
  const models = modelAssignmentOf(episode.agents);
  if (models === null) return undefined;
  const env = promptSetId(episode.condition);
  return llmPopulation({
    runtime,
    env,
    prompts: gameDescriptor(env).prompts,
    models,
    sample: episode.seed,
    episode: episode.id,
  });
}

/** Options of {@linkcode checkLlmEpisodes}. */
export interface CheckLlmEpisodesOptions {
  /** Also check keys, base URLs and models over the network (`preflight`). Default `true`. */
  preflight?: boolean;
}

/**
 * Checks, before any episode starts, that the LLM episodes can run: every
 * model they name is configured, every game they play has a template for
 * each call, and (by default) every model passes `preflight`.
 *
 * @example
 * ```ts
 * import { LlmRuntime } from "../agents/llm/runtime.ts";
 * import { checkLlmEpisodes } from "./llm_agents.ts";
 * const runtime = new LlmRuntime({ models: [{ id: "m", baseURL: "http://127.0.0.1:9/v1", model: "x" }] });
 * const episode = { id: "ep", index: 0, run: "r", cell: "c", replicate: 0, seed: 4,
 *   condition: { game: "frail", env: "bank_run", mechanism: "M0", regime: "stable", params: {} },
 *   agents: { kind: "model", model: "other" } } as const;
 * try {
 *   await checkLlmEpisodes([episode], runtime, { preflight: false });
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e instanceof RangeError) || !e.message.startsWith('Unknown model id "other"')) throw e;
 * }
 * ```
 * @throws {RangeError} For a model id the runtime does not configure.
 * @throws {TypeError} For a call without a prompt template.
 * @throws {LlmPreflightError} When a model cannot be used.
 */
export async function checkLlmEpisodes(
  episodes: readonly GridEpisode[],
  runtime: LlmRuntime,
  options: CheckLlmEpisodesOptions = {},
): Promise<void> {
  const models = new Set<string>();
  const games = new Set<string>();
  for (const e of episodes) {
    const named = modelsOf(e.agents);
    if (named.length === 0) continue;
    named.forEach((m) => models.add(m));
    games.add(promptSetId(e.condition));
  }
  models.forEach((id) => runtime.model(id));
  for (const id of games) {
    const game = gameDescriptor(id);
    const missing = missingTemplates(game.environment, game.prompts);
    if (missing.length) {
      throw new TypeError(
        `No prompt template for ${id} call(s) ${missing.map((c) => `"${c}"`).join(", ")}`,
      );
    }
  }
  if (models.size > 0 && (options.preflight ?? true)) {
    // Imported here: preflight needs the OpenAI client's package (about 60 ms
    // to load), which a grid of mock agents, and every program importing the
    // grid runner, would otherwise load for nothing.
    const { preflight } = await import("../agents/llm/preflight.ts");
    await preflight(runtime, { models: [...models] });
  }
}

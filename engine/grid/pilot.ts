/**
 * A pilot run: a few of a grid's LLM episodes played for real (through the
 * run's runtime and response cache) into a scratch folder, so that a dry run
 * can price completions from measured replies instead of an assumption.
 *
 * Choices:
 * - The episodes are spread over the models: the first episode of each
 *   distinct set of models, in grid order, then the second of each, and so
 *   on, until `count` (a grid's first episodes are often all one model's).
 * - Episodes are played one at a time. With `maxCost`, every call reserves
 *   the most it can cost before it is sent (its prompt at one token per byte
 *   of its messages plus 16 per message, and its model's completion cap; a
 *   cached call costs nothing once answered): a call the limit cannot cover is
 *   not sent, its episode stops unlogged (`EpisodeAbandoned`) and the pilot
 *   ends there, saying why. Every reply that arrives is counted, those of a
 *   stopped episode included.
 * - The measured figures are the completion tokens of the calls that
 *   returned a reply (cache hits included: they are that model's replies).
 *
 * @module
 */
import { renderCall } from "../agents/llm/llm_agent.ts";
import { modelFor } from "../agents/llm/model_assignment.ts";
import { promptSet } from "../agents/llm/prompts/registry.ts";
import type { LlmRuntime } from "../agents/llm/runtime.ts";
import { EpisodeAbandoned } from "../core/abandon.ts";
import { AgentReply } from "../core/episode.ts";
import type { LlmCallRecord } from "../core/events.ts";
import type { GridEpisode } from "./cells.ts";
import { executeEpisode } from "./execute.ts";
import { gridLlmAgents, modelAssignmentOf, promptSetId } from "./llm_agents.ts";
import { SegmentWriter } from "./segments.ts";
import { modelsOf } from "./spec.ts";

/** Options of {@linkcode runPilot}. */
export interface PilotOptions {
  /** The runtime (and its cache) the calls go through; every model the episodes name must be in it. */
  runtime: LlmRuntime;
  /** Episodes to play. */
  count: number;
  /** Folder the pilot's logs are written to. */
  dir: string;
  /** Most the pilot may spend (needs a price for every model it calls). Default no limit. */
  maxCost?: number;
}

/** What a pilot played and measured. */
export interface PilotResult {
  /** Ids of the episodes finished (logged). */
  episodes: string[];
  /** Calls and their completion tokens by model id (replies that arrived). */
  byModel: Record<string, { calls: number; tokensOut: number }>;
  /** Calls made (failed ones included). */
  calls: number;
  /** Calls made in the finished episodes (those of a stopped episode left out). */
  finishedCalls: number;
  /** Calls answered from the cache. */
  cacheHits: number;
  /** What the calls cost (cache hits cost nothing). */
  spent: number;
  /** Why the pilot stopped before `count` episodes, or `null`. */
  stopped: string | null;
  /** The folder of its logs. */
  dir: string;
}

/**
 * The pilot's episodes: spread over the sets of models the LLM episodes
 * name (see the module doc).
 *
 * @example
 * ```ts
 * import { pilotEpisodes } from "./pilot.ts";
 * import { planGrid } from "./plan.ts";
 * const plan = planGrid({ episodes: 3, blocks: [
 *   { game: "frail", envs: ["bank_run"], mechanisms: ["M0"], agents: [{ model: "a" }, { model: "b" }] },
 * ] });
 * const ids = pilotEpisodes(plan.episodes, 3).map((e) => e.id);
 * if (ids.join() !== "bank_run_M0_stable_a_e0,bank_run_M0_stable_b_e0,bank_run_M0_stable_a_e1") {
 *   throw new Error(ids.join());
 * }
 * ```
 */
export function pilotEpisodes(episodes: Iterable<GridEpisode>, count: number): GridEpisode[] {
  const groups = new Map<string, GridEpisode[]>();
  for (const ep of episodes) {
    if (modelAssignmentOf(ep.agents) === null) continue;
    const key = modelsOf(ep.agents).join(",");
    const group = groups.get(key) ?? [];
    if (group.length < count) group.push(ep);
    groups.set(key, group);
  }
  const chosen: GridEpisode[] = [];
  for (let round = 0; chosen.length < count; round++) {
    const before = chosen.length;
    for (const group of groups.values()) {
      if (round < group.length && chosen.length < count) chosen.push(group[round]);
    }
    if (chosen.length === before) break;
  }
  return chosen;
}

const encoder = new TextEncoder();

/**
 * Plays the pilot's episodes for real and measures their replies.
 *
 * @param episodes The grid's episodes (a plan's, streamed or held).
 * @param options The runtime, how many episodes, the log folder and the spending limit.
 * @returns What was played, measured and spent.
 *
 * @example
 * ```ts
 * import { LlmRuntime } from "../agents/llm/runtime.ts";
 * import { serveLocalModel } from "../agents/llm/server/local_server.ts";
 * import { planGrid } from "./plan.ts";
 * import { runPilot } from "./pilot.ts";
 * const server = serveLocalModel();
 * const runtime = new LlmRuntime({ models: [{ id: "m", baseURL: server.url, model: "coordlab-stay", testDouble: true,
 *   price: { inputPerMillion: 1, outputPerMillion: 1 } }] });
 * const plan = planGrid({ episodes: 2, blocks: [
 *   { game: "staghunt", N: [3], M: [2], T: [1], F: [1], agents: [{ model: "m" }] }] });
 * const dir = await Deno.makeTempDir();
 * const r = await runPilot(plan.episodes, { runtime, count: 1, dir });
 * await server.close();
 * await Deno.remove(dir, { recursive: true });
 * if (r.episodes.length !== 1 || r.byModel.m.calls !== 4 || !(r.spent > 0)) throw new Error();
 * ```
 * @throws {RangeError} With `maxCost`, when a model the episodes name has no price.
 */
export async function runPilot(
  episodes: Iterable<GridEpisode>,
  options: PilotOptions,
): Promise<PilotResult> {
  const { runtime, maxCost } = options;
  const chosen = pilotEpisodes(episodes, options.count);
  if (maxCost !== undefined) {
    for (const id of new Set(chosen.flatMap((e) => modelsOf(e.agents)))) {
      if (runtime.model(id).price === null) {
        throw new RangeError(
          `A pilot with --max-cost needs a price for every model, and model "${id}" has none: ` +
            `add "price" to its config`,
        );
      }
    }
  }
  const result: PilotResult = {
    episodes: [],
    byModel: {},
    calls: 0,
    finishedCalls: 0,
    cacheHits: 0,
    spent: 0,
    stopped: null,
    dir: options.dir,
  };
  let reserved = 0;
  const count = (record: LlmCallRecord) => {
    result.calls++;
    if (record.cache === "hit") result.cacheHits++;
    else result.spent += record.cost ?? 0;
    if (record.status === "ok") {
      const m = result.byModel[record.model] ??= { calls: 0, tokensOut: 0 };
      m.calls++;
      m.tokensOut += record.tokens_out;
    }
  };
  const log = SegmentWriter.create(options.dir, "pilot");
  try {
    for (const ep of chosen) {
      const callsBefore = result.calls;
      const assignment = modelAssignmentOf(ep.agents)!;
      const env = promptSetId(ep.condition);
      const prompts = promptSet(env);
      const llm = gridLlmAgents(ep, runtime)!;
      const summary = await executeEpisode(ep, {
        log,
        agents: (player) => {
          const inner = llm(player);
          const model = runtime.model(modelFor(assignment, player));
          return {
            policy: inner.policy,
            async decide(request) {
              let worst = 0;
              if (maxCost !== undefined) {
                const messages = renderCall(request, { env, prompts });
                const bytes = messages.reduce((n, m) => n + encoder.encode(m.content).length, 0);
                const price = model.price!;
                worst = ((bytes + 16 * messages.length) * price.inputPerMillion +
                  model.maxTokens * price.outputPerMillion) / 1e6;
                if (result.spent + reserved + worst > maxCost) {
                  throw new EpisodeAbandoned(
                    `the next call could cost up to ${worst.toFixed(4)}, and ` +
                      `${(result.spent + reserved).toFixed(4)} of --max-cost ${maxCost} is ` +
                      `spent or reserved`,
                  );
                }
              }
              reserved += worst;
              try {
                const reply = await inner.decide(request);
                if (reply instanceof AgentReply) {
                  for (const record of reply.calls) count(record);
                }
                return reply;
              } finally {
                reserved -= worst;
              }
            },
          };
        },
      });
      if (summary.status === "abandoned") {
        result.stopped = `Pilot stopped in episode ${ep.id}: ${summary.error}`;
        break;
      }
      result.episodes.push(ep.id);
      result.finishedCalls += result.calls - callsBefore;
    }
  } finally {
    log.close();
  }
  return result;
}

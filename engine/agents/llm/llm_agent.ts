/**
 * LLM agents: render the call's template from the authorized view (and
 * nothing else), send it through the runtime, and return the model's text
 * wrapped in an `AgentReply` carrying the call record. The engine validates
 * the text against the call's contract (tolerant extraction, repairs, neutral
 * defaults, every correction logged with the raw reply); the runner logs the
 * record as an `llm_call` event. Secrets: the report is read from the reply
 * as received; the record, and every text of the reply's corrections and
 * report the runner logs, carry the runtime's redacted copy. A reply or reasoning longer than the
 * runtime's `maxLoggedReplyChars` is cut for the log, with a correction
 * saying so (`boundReplyForLog`); the report is still read from the whole
 * reply.
 *
 * Sample index: an episode's calls use the episode's `sample` (the grid uses
 * the episode seed), so re-running or resuming an episode hits the cache while
 * episodes with different seeds sample the model afresh; should an agent send
 * the very same messages twice in one episode, the repeat gets `sample#n`.
 *
 * The record carries the messages as sent (`messages`, keys redacted); the
 * runner logs each distinct system prompt once per episode (`message_log.ts`).
 *
 * To a model configured with `testDouble: true` (the local test double), the
 * request also carries the call itself (game `env`, agent, role, call, round,
 * step and view; see `test_double.ts`), which the double answers with the
 * game's mock agents.
 *
 * @module
 */
import type { CallRequest } from "../../core/environment.ts";
import { AgentReply } from "../../core/episode.ts";
import type { Agent, AgentFactory } from "../../core/agent.ts";
import { type ModelAssignment, modelFor } from "./model_assignment.ts";
import { promptSet } from "./prompts/registry.ts";
import { boundReplyForLog } from "./reply_bounds.ts";
import { type ChatMessage, findTemplate, type PromptSet } from "./prompts/template.ts";
import type { LlmRuntime } from "./runtime.ts";
import { testDoubleCall } from "./test_double.ts";

/** Options of {@linkcode renderCall}. */
export interface RenderCallOptions {
  /** Environment id (names the prompt set, and the environment in errors). */
  env: string;
  /** Templates. Default: the environment's set from the prompt registry. */
  prompts?: PromptSet;
}

/**
 * The messages of a call: its template rendered from the request's
 * authorized view (and nothing else). LLM agents send them; a dry run counts
 * their tokens.
 *
 * @example
 * ```ts
 * import { renderCall } from "./llm_agent.ts";
 * import { bankRunGame } from "../../games/bank_run/descriptor.ts";
 * import { frailSetup } from "../../frail/descriptor.ts";
 * import { playEpisode } from "../../core/episode.ts";
 * let first: string | undefined;
 * const setup = frailSetup(bankRunGame, { mechanism: "M0", regime: "stable", overrides: { horizon: 1 } });
 * await playEpisode(bankRunGame.environment, { ...setup, seed: 1,
 *   agents: () => ({ policy: "t", decide: (req) => {
 *     first ??= renderCall(req, { env: "bank_run" }).at(-1)?.content;
 *     return Promise.resolve({ withdraw_probability: 0 });
 *   } }) });
 * if (!first) throw new Error();
 * ```
 * @throws {TypeError} When the set has no template for the call.
 */
export function renderCall(request: CallRequest, options: RenderCallOptions): ChatMessage[] {
  const prompts = options.prompts ?? promptSet(options.env);
  const template = findTemplate(prompts, request.role, request.call);
  if (!template) {
    throw new TypeError(
      `No prompt template for ${options.env} role "${request.role}" and call "${request.call}"`,
    );
  }
  return template.render(request.view as never);
}

/** Options of {@linkcode llmAgent}. */
export interface LlmAgentOptions {
  /** The run's runtime. */
  runtime: LlmRuntime;
  /** Model id. */
  model: string;
  /** Environment id whose templates render the calls. */
  env: string;
  /** Templates. Default: the environment's set from the prompt registry. */
  prompts?: PromptSet;
  /** Sample index of the episode (part of the cache key). Default 0. */
  sample?: string | number;
  /** Episode id for accounting. Default `"ep"`. */
  episode?: string;
}

/**
 * One LLM agent.
 *
 * @example
 * ```ts
 * import { llmAgent } from "./llm_agent.ts";
 * import { LlmRuntime } from "./runtime.ts";
 * const runtime = new LlmRuntime({ models: [{ id: "local", baseURL: "http://127.0.0.1:9/v1", model: "m" }] });
 * const a = llmAgent({ runtime, model: "local", env: "bank_run" });
 * if (a.policy !== "llm:local") throw new Error();
 * ```
 */
export function llmAgent(options: LlmAgentOptions): Agent {
  const { runtime, model, env } = options;
  runtime.model(model); // unknown ids fail here, not mid-episode
  const prompts = options.prompts ?? promptSet(env);
  const sample = options.sample ?? 0;
  const seen = new Map<string, number>();
  return {
    policy: `llm:${model}`,
    async decide(request: CallRequest) {
      const messages = renderCall(request, { env, prompts });
      const text = messages.map((m) => `${m.role}\u0000${m.content}`).join("\u0001");
      const n = seen.get(text) ?? 0;
      seen.set(text, n + 1);
      const full = await runtime.complete(model, messages, {
        sample: n === 0 ? sample : `${sample}#${n}`,
        episode: options.episode,
        // Read only by the local test double (a model configured with `testDouble`).
        call: testDoubleCall(env, request),
      });
      const { record, raw, notes } = boundReplyForLog(full, runtime.maxLoggedReplyChars, {
        unredacted: runtime.unredacted(full),
      });
      // The messages as sent, for the log (keys redacted: views hold none, but a
      // key pasted into a prompt must not reach a log).
      const sent = messages.map((m) => ({ role: m.role, content: runtime.redact(m.content) }));
      return new AgentReply(raw, {
        calls: [{ ...record, messages: sent }],
        notes,
        error: record.status === "error" ? (record.error ?? "The model call failed") : undefined,
        redact: (text) => runtime.redact(text),
      });
    },
  };
}

/** Options of {@linkcode llmPopulation}. */
export interface LlmPopulationOptions {
  /** The run's runtime. */
  runtime: LlmRuntime;
  /** Environment id. */
  env: string;
  /** Which model plays whom; a string for a homogeneous episode. */
  models: ModelAssignment;
  /** Templates. Default: the environment's set. */
  prompts?: PromptSet;
  /** Sample index of the episode. Default 0. */
  sample?: string | number;
  /** Episode id for accounting. Default `"ep"`. */
  episode?: string;
}

/**
 * An agent factory of LLM agents for `playEpisode` (and for runners that pass
 * each player's `model`, such as the Stag Hunt runner with a heterogeneity
 * policy: that model then plays the player).
 *
 * @example
 * ```ts
 * import { llmPopulation } from "./llm_agent.ts";
 * import { LlmRuntime } from "./runtime.ts";
 * const runtime = new LlmRuntime({ models: [
 *   { id: "a", baseURL: "http://127.0.0.1:9/v1", model: "m" },
 *   { id: "b", baseURL: "http://127.0.0.1:9/v1", model: "n" },
 * ] });
 * const make = llmPopulation({ runtime, env: "bank_run", models: { default: "a", roles: { bank: "b" } } });
 * if (make({ id: "bank", role: "bank" }).policy !== "llm:b") throw new Error();
 * ```
 */
export function llmPopulation(options: LlmPopulationOptions): AgentFactory {
  const prompts = options.prompts ?? promptSet(options.env);
  return (player) =>
    llmAgent({
      runtime: options.runtime,
      model: modelFor(options.models, player),
      env: options.env,
      prompts,
      sample: options.sample,
      episode: options.episode,
    });
}

/**
 * The LLM runtime of a run: one `openai` SDK client per model, the
 * per-provider limiters, the response cache, retries with backoff, the usage
 * ledger and a live status. Every episode in flight shares it, so the limits
 * hold across episodes.
 *
 * A call never throws for an API failure: it returns a record with
 * `status: "error"` after its last retry, and the agent's report falls back to
 * the contract's neutral default (a logged correction). Keys are read from the
 * environment variables the configurations name, kept inside the SDK clients
 * and redacted from every message the runtime produces.
 *
 * @module
 */
import OpenAI from "npm:openai@7.59.0";
import type { LlmAttemptFailure, LlmCallRecord } from "../../core/events.ts";
import { callCost, UsageLedger } from "./accounting.ts";
import { type CachedResponse, cacheKeyOf, promptHash, ResponseCache } from "./cache.ts";
import { type Limiter, limitersByProvider } from "./limiter.ts";
import { type ModelConfig, type ModelConfigInput, parseModelConfigs } from "./model_config.ts";
import type { ChatMessage } from "./prompts/template.ts";
import { redactSecrets } from "./redact.ts";
import { classifyFailure, retryDelay } from "./retry.ts";

/** Options of {@linkcode LlmRuntime}. */
export interface LlmRuntimeOptions {
  /** Model configurations (validated here). */
  models: readonly (ModelConfigInput | ModelConfig)[];
  /** Response-cache folder, or `null` for no cache. Default `null`. */
  cacheDir?: string | null;
  /** Reads an environment variable (for keys). Default `Deno.env.get`. */
  readEnv?: (name: string) => string | undefined;
  /** Uniform draw in [0, 1) for backoff jitter. Default `Math.random`. */
  random?: () => number;
  /** Sleeps for ms (backoff and rate waits). Default a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Called whenever {@linkcode LlmRuntime.status} changes. Default none. */
  onStatus?: (status: RuntimeStatus) => void;
}

/** The last retry the runtime scheduled. */
export interface RetryNotice {
  /** Model id. */
  model: string;
  /** Failure kind. */
  kind: LlmAttemptFailure["kind"];
  /** HTTP status, if any. */
  status: number | null;
  /** Attempt that failed. */
  attempt: number;
  /** Wait before the next attempt, in ms. */
  waitMs: number;
}

/** What the runtime is doing now (for progress displays). */
export interface RuntimeStatus {
  /** Calls inside the runtime (cache lookups, waits and requests). */
  inFlight: number;
  /** Requests holding a provider slot. */
  active: number;
  /** Calls waiting for a provider slot (concurrency limit). */
  queued: number;
  /** Calls waiting for a provider's requests-per-minute window. */
  rateWaiting: number;
  /** Calls sleeping before a retry. */
  retryWaiting: number;
  /** The most recent retry, or `null`. */
  lastRetry: RetryNotice | null;
  /** The first error that makes further calls pointless (bad key, unknown model), or `null`. */
  fatal: string | null;
}

/** Options of {@linkcode LlmRuntime.complete}. */
export interface CompleteOptions {
  /** Sample index (part of the cache key). Default 0. */
  sample?: string | number;
  /** Episode id for the ledger. Default `"ep"`. */
  episode?: string;
}

/**
 * The request fields that shape sampling: temperature, the token cap under
 * its configured name, the reasoning effort when set, and extra fields.
 *
 * @example
 * ```ts
 * import { samplingParams } from "./runtime.ts";
 * import { parseModelConfig } from "./model_config.ts";
 * const m = parseModelConfig({ id: "d", baseURL: "http://127.0.0.1:1/v1", model: "x", reasoningEffort: "low" });
 * const p = samplingParams(m);
 * if (p.temperature !== 1 || p.max_tokens !== 8192 || p.reasoning_effort !== "low") throw new Error();
 * ```
 */
export function samplingParams(m: ModelConfig): Record<string, unknown> {
  return {
    ...m.extraBody,
    temperature: m.temperature,
    [m.tokenLimitParam]: m.maxTokens,
    ...(m.reasoningEffort === null ? {} : { reasoning_effort: m.reasoningEffort }),
  };
}

/**
 * A run's LLM runtime.
 *
 * @example
 * ```ts
 * import { LlmRuntime } from "./runtime.ts";
 * const rt = new LlmRuntime({ models: [{ id: "local", baseURL: "http://127.0.0.1:9/v1", model: "m" }] });
 * if (rt.model("local").provider !== "127.0.0.1:9" || rt.status().inFlight !== 0) throw new Error();
 * ```
 */
export class LlmRuntime {
  /** Validated models by id. */
  readonly models: ReadonlyMap<string, ModelConfig>;
  /** The response cache, or `null`. */
  readonly cache: ResponseCache | null;
  /** Usage so far. */
  readonly ledger: UsageLedger = new UsageLedger();
  readonly #limiters: Map<string, Limiter>;
  readonly #clients = new Map<string, OpenAI>();
  readonly #secrets = new Set<string>();
  readonly #readEnv: (name: string) => string | undefined;
  readonly #random: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #listeners = new Set<(s: RuntimeStatus) => void>();
  #inFlight = 0;
  #retryWaiting = 0;
  #lastRetry: RetryNotice | null = null;
  #fatal: string | null = null;

  /** Creates the runtime (no network, no key read yet). */
  constructor(options: LlmRuntimeOptions) {
    const models = parseModelConfigs(options.models);
    if (models.length === 0) throw new RangeError("The runtime needs at least one model config");
    this.models = new Map(models.map((m) => [m.id, m]));
    this.cache = options.cacheDir ? new ResponseCache(options.cacheDir) : null;
    this.#readEnv = options.readEnv ?? ((name) => Deno.env.get(name));
    this.#random = options.random ?? Math.random;
    this.#sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    if (options.onStatus) this.#listeners.add(options.onStatus);
    this.#limiters = limitersByProvider(models, {
      sleep: this.#sleep,
      onChange: () => this.#changed(),
    });
  }

  /** A model's configuration. */
  model(id: string): ModelConfig {
    const m = this.models.get(id);
    if (!m) {
      throw new RangeError(
        `Unknown model id "${id}": configured ids are ${
          [...this.models.keys()].map((k) => `"${k}"`).join(", ")
        }`,
      );
    }
    return m;
  }

  /** The key of a model from its environment variable (`undefined` when not set or not needed). */
  apiKey(m: ModelConfig): string | undefined {
    if (m.apiKeyEnv === null) return undefined;
    let key: string | undefined;
    try {
      key = this.#readEnv(m.apiKeyEnv)?.trim() || undefined;
    } catch {
      key = undefined; // no permission to read it: treated as not set
    }
    if (key) this.#secrets.add(key);
    return key;
  }

  /** The SDK client of a model (SDK retries off: the runtime retries itself). */
  client(id: string): OpenAI {
    const m = this.model(id);
    let c = this.#clients.get(id);
    if (c) return c;
    const key = this.apiKey(m);
    if (m.apiKeyEnv !== null && key === undefined) {
      throw new TypeError(`The API key variable ${m.apiKeyEnv} of model "${m.id}" is not set`);
    }
    c = new OpenAI({
      baseURL: m.baseURL,
      apiKey: key ?? "no-key",
      maxRetries: 0,
      timeout: m.timeoutMs,
      organization: null,
      project: null,
    });
    this.#clients.set(id, c);
    return c;
  }

  /** Calls `fn` whenever the status changes; returns a function that stops it. */
  watch(fn: (status: RuntimeStatus) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /** Removes every known key from a text. */
  redact(text: string): string {
    return redactSecrets(text, this.#secrets);
  }

  /** What the runtime is doing now. */
  status(): RuntimeStatus {
    let active = 0, queued = 0, rateWaiting = 0;
    for (const l of this.#limiters.values()) {
      const s = l.status();
      active += s.active;
      queued += s.queued;
      rateWaiting += s.rateWaiting;
    }
    return {
      inFlight: this.#inFlight,
      active,
      queued,
      rateWaiting,
      retryWaiting: this.#retryWaiting,
      lastRetry: this.#lastRetry,
      fatal: this.#fatal,
    };
  }

  /**
   * Sends one chat completion (or answers it from the cache) and returns its
   * record; the record is also added to the ledger.
   */
  async complete(
    modelId: string,
    messages: readonly ChatMessage[],
    options: CompleteOptions = {},
  ): Promise<LlmCallRecord> {
    const m = this.model(modelId);
    const sampling = samplingParams(m);
    const hash = promptHash(messages);
    const key = cacheKeyOf(hash, {
      provider: m.provider,
      model: m.model,
      sampling,
      sample: options.sample ?? 0,
    });
    const base = {
      model: m.id,
      provider: m.provider,
      provider_model: m.model,
      prompt_hash: hash,
      cache_key: key,
    };
    const started = performance.now();
    this.#inFlight++;
    this.#changed();
    try {
      const cached = this.cache ? await this.cache.get(key) : undefined;
      const record = cached
        ? this.#record(base, cached, {
          cache: "hit",
          attempts: 0,
          failures: [],
          latency: 0,
          wall: performance.now() - started,
          cost: 0,
        })
        : await this.#network(m, messages, sampling, base, started);
      this.ledger.add(record, options.episode ?? "ep");
      return record;
    } finally {
      this.#inFlight--;
      this.#changed();
    }
  }

  async #network(
    m: ModelConfig,
    messages: readonly ChatMessage[],
    sampling: Record<string, unknown>,
    base: Pick<
      LlmCallRecord,
      "model" | "provider" | "provider_model" | "prompt_hash" | "cache_key"
    >,
    started: number,
  ): Promise<LlmCallRecord> {
    const failures: LlmAttemptFailure[] = [];
    const limiter = this.#limiters.get(m.provider)!;
    const cacheMode = this.cache ? "miss" : "off";
    let client: OpenAI;
    try {
      client = this.client(m.id);
    } catch (err) {
      const message = this.redact((err as Error).message);
      this.#fatal ??= message;
      return this.#failed(
        base,
        { cache: cacheMode, attempts: 0, failures, latency: 0, started, m },
        message,
      );
    }
    for (let attempt = 1;; attempt++) {
      const release = await limiter.acquire();
      const sent = performance.now();
      let response: CachedResponse | undefined;
      let error: unknown;
      try {
        const completion = await client.chat.completions.create(
          { model: m.model, messages: [...messages], ...sampling } as never,
          { timeout: m.timeoutMs, maxRetries: 0 },
        ) as unknown as CompletionLike;
        response = readCompletion(completion);
      } catch (err) {
        error = err;
      } finally {
        release();
      }
      const latency = performance.now() - sent;
      if (response) {
        if (this.cache) await this.cache.put(base.cache_key, response);
        return this.#record(base, response, {
          cache: cacheMode,
          attempts: attempt,
          failures,
          latency,
          wall: performance.now() - started,
          cost: m.price
            ? callCost({ tokensIn: response.tokens_in, tokensOut: response.tokens_out }, m.price)
            : null,
        });
      }
      const f = classifyFailure(error);
      const last = !f.retryable || attempt > m.maxRetries;
      const wait = last ? null : retryDelay(attempt, f.retryAfterMs, {
        baseMs: m.backoffMs,
        maxMs: m.maxBackoffMs,
        random: this.#random,
      });
      const message = this.redact(f.message);
      failures.push({ attempt, kind: f.kind, status: f.status, message, wait_ms: wait });
      if (last) {
        if (f.kind === "client_error" && [401, 403, 404].includes(f.status ?? 0)) {
          this.#fatal ??= `Model "${m.id}": ${message}`;
        }
        const why = f.retryable
          ? `${f.kind} after ${attempt} attempts: ${message}`
          : `${f.kind}${f.status ? ` ${f.status}` : ""}: ${message}`;
        return this.#failed(base, {
          cache: cacheMode,
          attempts: attempt,
          failures,
          latency,
          started,
          m,
        }, why);
      }
      this.#lastRetry = { model: m.id, kind: f.kind, status: f.status, attempt, waitMs: wait! };
      this.#retryWaiting++;
      this.#changed();
      await this.#sleep(wait!);
      this.#retryWaiting--;
      this.#changed();
    }
  }

  #failed(
    base: Pick<
      LlmCallRecord,
      "model" | "provider" | "provider_model" | "prompt_hash" | "cache_key"
    >,
    how: {
      cache: LlmCallRecord["cache"];
      attempts: number;
      failures: LlmAttemptFailure[];
      latency: number;
      started: number;
      m: ModelConfig;
    },
    error: string,
  ): LlmCallRecord {
    return {
      ...base,
      status: "error",
      cache: how.cache,
      attempts: how.attempts,
      failures: how.failures,
      latency_ms: round1(how.latency),
      wall_ms: round1(performance.now() - how.started),
      tokens_in: 0,
      tokens_out: 0,
      tokens_reasoning: 0,
      cost: how.m.price ? 0 : null,
      finish_reason: null,
      content: null,
      reasoning: null,
      error,
    };
  }

  #record(
    base: Pick<
      LlmCallRecord,
      "model" | "provider" | "provider_model" | "prompt_hash" | "cache_key"
    >,
    r: CachedResponse,
    how: {
      cache: LlmCallRecord["cache"];
      attempts: number;
      failures: LlmAttemptFailure[];
      latency: number;
      wall: number;
      cost: number | null;
    },
  ): LlmCallRecord {
    return {
      ...base,
      status: "ok",
      cache: how.cache,
      attempts: how.attempts,
      failures: how.failures,
      latency_ms: round1(how.latency),
      wall_ms: round1(how.wall),
      tokens_in: r.tokens_in,
      tokens_out: r.tokens_out,
      tokens_reasoning: r.tokens_reasoning,
      cost: how.cost,
      finish_reason: r.finish_reason,
      content: r.content,
      reasoning: r.reasoning,
      error: null,
    };
  }

  #changed(): void {
    if (this.#listeners.size === 0) return;
    const s = this.status();
    for (const fn of this.#listeners) fn(s);
  }
}

function round1(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** The parts of a chat-completion response {@linkcode readCompletion} reads. */
export interface CompletionLike {
  /** Choices; the first is read. */
  choices?: { message?: unknown; finish_reason?: string | null }[];
  /** Token usage, where reported. */
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    completion_tokens_details?: { reasoning_tokens?: number } | null;
  } | null;
}

/**
 * The parts of a chat completion the toolkit keeps: the reply text, reasoning
 * text where the provider returns it (`reasoning_content` or `reasoning`),
 * the finish reason and the token counts.
 *
 * @example
 * ```ts
 * import { readCompletion } from "./runtime.ts";
 * const r = readCompletion({ choices: [{ message: { content: "{}", reasoning_content: "hmm" },
 *   finish_reason: "stop" }], usage: { prompt_tokens: 9, completion_tokens: 3,
 *   completion_tokens_details: { reasoning_tokens: 1 } } } as never);
 * if (r.reasoning !== "hmm" || r.tokens_reasoning !== 1 || r.tokens_in !== 9) throw new Error();
 * ```
 */
export function readCompletion(c: CompletionLike): CachedResponse {
  const choice = c.choices?.[0];
  const message = (choice?.message ?? {}) as unknown as Record<string, unknown>;
  const reasoning = message.reasoning_content ?? message.reasoning;
  const usage = c.usage;
  return {
    content: typeof message.content === "string" ? message.content : null,
    reasoning: typeof reasoning === "string" && reasoning ? reasoning : null,
    finish_reason: choice?.finish_reason ?? null,
    tokens_in: usage?.prompt_tokens ?? 0,
    tokens_out: usage?.completion_tokens ?? 0,
    tokens_reasoning: usage?.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

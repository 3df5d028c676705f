/**
 * The LLM runtime of a run: one `openai` SDK client per model, the
 * per-provider limiters, the response cache, retries with backoff, the usage
 * ledger and a live status. Every episode in flight shares it, so the limits
 * hold across episodes.
 *
 * A call never throws for an API failure: it returns a record with
 * `status: "error"` after its last retry, and the agent's report falls back to
 * the contract's neutral default (a logged correction; the episode then ends
 * `"degraded"`). A reply is checked before it is trusted or cached
 * (`parseCompletion`): a 200 that is not a chat completion is a failed attempt,
 * retried and never cached; token counts that are not non-negative integers
 * are not used (the call is unpriced, with a warning in its record).
 *
 * Circuit breaker: once a provider has failed `maxConsecutiveFailures` calls
 * in a row (each after its last retry), or has refused a key (401, 403) or
 * answered 404 (a wrong base URL or model), the runtime sends it no further
 * request: calls fail at once with one message naming the provider and the
 * last error, and {@linkcode RuntimeStatus.fatal} carries that message, so
 * the grid starts no new episode. The breaker stays open for the runtime's
 * life (make a new runtime once the provider is fixed).
 *
 * A reply with no text (content null, missing or blank, as with a
 * `content_filter` refusal or a `length` cut before any text) is a failed
 * attempt too, retried and never cached.
 *
 * Cache: a response cache that cannot be written when a paid reply arrives
 * halts the runtime ({@linkcode LlmRuntime.halt}, cause `"cache"`, naming the
 * entry's path and the error): that reply is still returned and counted, and
 * no further request is sent (calls not yet sent, including those waiting for
 * a slot or a retry, throw `EpisodeAbandoned`). A cache folder that cannot be
 * created or written is refused when the runtime is made.
 *
 * Budgets: with a budget attached ({@linkcode LlmRuntime.useBudget}; `runGrid`
 * attaches its run folder's spend ledger), every request reserves its worst
 * case before it is sent and settles to what it billed after, so billed
 * spend never passes the limit, however many requests are in flight; a
 * request that does not fit halts the runtime. Without one, nothing is
 * refused.
 *
 * Secrets: keys are read from the environment variables the configurations
 * name and kept inside the SDK clients; they, and credentials inside a base
 * URL, are redacted from every message the runtime produces, and from the
 * reply and reasoning texts of the records it returns and of the cache. The
 * reply as received stays readable through {@linkcode LlmRuntime.unredacted},
 * which is what an agent parses (redaction is for what is written, not for
 * what is read).
 *
 * @module
 */
import OpenAI from "npm:openai@7.59.0";
import { EpisodeAbandoned, isEpisodeAbandoned } from "../../core/abandon.ts";
import type { LlmAttemptFailure, LlmCallRecord } from "../../core/events.ts";
import {
  addReserved,
  addSpend,
  billedUsage,
  type Budget,
  callCost,
  checkBudget,
  copySpend,
  emptySpend,
  emptySpendTotals,
  promptBytes,
  type Reservation,
  reservationOf,
  reservationRefusal,
  type Spend,
  type SpendLine,
  type SpendTotals,
  sumSpend,
  UsageLedger,
} from "./accounting.ts";
import { type CachedResponse, cacheKeyOf, promptHash, ResponseCache } from "./cache.ts";
import { type CompletionReading, parseCompletion } from "./completion.ts";
import { type Limiter, limitersByProvider } from "./limiter.ts";
import {
  checkCurrency,
  type ModelConfig,
  type ModelConfigInput,
  parseModelConfigs,
} from "./model_config.ts";
import type { ChatMessage } from "./prompts/template.ts";
import { redactSecrets, safeUrl, urlSecrets } from "./redact.ts";
import { classifyFailure, type FailureInfo, retryDelay } from "./retry.ts";
import { samplingParams } from "./sampling.ts";
import { TEST_DOUBLE_FIELD, type TestDoubleCall, type TestDoubleProbe } from "./test_double.ts";

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
  /**
   * Circuit breaker: failed calls in a row (each after its last retry) after
   * which a provider gets no further request. Default 10.
   */
  maxConsecutiveFailures?: number;
  /**
   * Longest reply or reasoning text an episode log keeps, in characters;
   * longer ones are cut for the log (the report is still read from the whole
   * reply) with a `correction` saying so. Default 262144 (256 Ki).
   */
  maxLoggedReplyChars?: number;
  /**
   * The currency of the models' prices, an ISO 4217 code (a models file's
   * `currency`: `new LlmRuntime(await loadModelsFile(path))` passes it). A
   * grid records it beside its spend, so costs are shown in it. Default
   * `"USD"`, as a models file without one.
   */
  currency?: string;
}

/**
 * Default of {@linkcode LlmRuntimeOptions.maxConsecutiveFailures}.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_CONSECUTIVE_FAILURES } from "./runtime.ts";
 * if (DEFAULT_MAX_CONSECUTIVE_FAILURES !== 10) throw new Error();
 * ```
 */
export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 10;

/**
 * Default of {@linkcode LlmRuntimeOptions.maxLoggedReplyChars}: 256 Ki characters.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_LOGGED_REPLY_CHARS } from "./runtime.ts";
 * if (DEFAULT_MAX_LOGGED_REPLY_CHARS !== 256 * 1024) throw new Error();
 * ```
 */
export const DEFAULT_MAX_LOGGED_REPLY_CHARS = 262_144;

/**
 * Episode id under which the ledger records {@linkcode LlmRuntime.probe} calls.
 *
 * @example
 * ```ts
 * import { LlmRuntime, PROBE_EPISODE } from "./runtime.ts";
 * const rt = new LlmRuntime({ models: [{ id: "m", baseURL: "http://127.0.0.1:9/v1", model: "x" }] });
 * if (rt.ledger.episode(PROBE_EPISODE).calls !== 0) throw new Error();
 * ```
 */
export const PROBE_EPISODE = "(preflight)";

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
  /**
   * The first reason calls stopped being sent, or `null`: a provider's open
   * circuit breaker (consecutive failures, a refused key, a 404) or a
   * missing key; one sentence naming the provider or model and the last error.
   */
  fatal: string | null;
  /**
   * Why the run must stop, or `null`: set by {@linkcode LlmRuntime.halt} (a
   * budget that cannot cover the next call, a cache that cannot be written).
   * Once set, {@linkcode LlmRuntime.complete} sends nothing and throws
   * `EpisodeAbandoned`, so the episode asking is not logged and plays again
   * on resume.
   */
  halt: RuntimeHalt | null;
}

/** Why a runtime stopped sending calls (see {@linkcode LlmRuntime.halt}). */
export interface RuntimeHalt {
  /** One sentence: what stopped the run, naming the limit, path or error. */
  reason: string;
  /** What stopped it. */
  by: HaltCause;
}

/**
 * What can halt a runtime: a spending limit, a response cache that cannot be
 * written, a spend ledger that cannot be written, a signal (the grid command
 * halts it when it is told to stop), or a run folder that cannot be written
 * (a full or failing disk).
 */
export type HaltCause = "budget" | "cache" | "ledger" | "signal" | "disk";

/** Options of {@linkcode LlmRuntime.useBudget}. */
export interface UseBudgetOptions {
  /** The limits (of the whole run: `spent` counts against them). Default none: spend is only recorded. */
  limit?: Budget;
  /** What the run spent before (a spend ledger read back). Default nothing. */
  spent?: Spend;
  /**
   * Writes one ledger line, synchronously, or throws when it cannot: a
   * `reserve` line before each request is sent (a throw: the request is not
   * sent and the runtime halts, cause `"ledger"`) and a `settle` line after
   * (a throw: the reply is still used and counted in memory, and the runtime
   * halts). Default none.
   */
  record?: (line: SpendLine) => void;
}

/** A budget attached to a runtime (see {@linkcode LlmRuntime.budgetStatus}). */
export interface BudgetStatus {
  /** The limits, or `null` when spend is only recorded. */
  limit: Budget | null;
  /** Spend of the run: what it spent before plus what was settled since. */
  spent: Spend;
  /** Spend settled since the budget was attached. */
  session: Spend;
  /** Reservations of the requests in flight. */
  reserved: SpendTotals;
  /**
   * The requests in flight by model, each counted at its reservation as a
   * request of unknown billing: what a later reading of the spend ledger
   * counts for them if they never settle (a run that returns or is killed
   * while they are out).
   */
  inFlight: Spend;
}

/** Options of {@linkcode LlmRuntime.complete}. */
export interface CompleteOptions {
  /** Sample index (part of the cache key). Default 0. */
  sample?: string | number;
  /** Episode id for the ledger. Default `"ep"`. */
  episode?: string;
  /**
   * The structured call the messages were rendered from, sent (in the
   * `coordlab_call` field) only to a model configured with `testDouble: true`;
   * not part of the prompt, the cache key or any count. Default none.
   */
  call?: TestDoubleCall;
}

// The sampling fields, in their own module for the grid's cost estimate.
export { samplingParams };

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
  /** Longest reply or reasoning text an episode log keeps, in characters. */
  readonly maxLoggedReplyChars: number;
  /** The currency of the models' prices (ISO 4217). */
  readonly currency: string;
  readonly #limiters: Map<string, Limiter>;
  readonly #clients = new Map<string, OpenAI>();
  readonly #secrets = new Set<string>();
  readonly #unredacted = new WeakMap<LlmCallRecord, string | null>();
  readonly #keysRead = new Set<string>();
  readonly #breakers = new Map<string, { failures: number; open: string | null }>();
  readonly #maxFailures: number;
  readonly #readEnv: (name: string) => string | undefined;
  readonly #random: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #listeners = new Set<(s: RuntimeStatus) => void>();
  #inFlight = 0;
  #retryWaiting = 0;
  #lastRetry: RetryNotice | null = null;
  #fatal: string | null = null;
  #halt: RuntimeHalt | null = null;
  #budget: BudgetState | null = null;

  /** Creates the runtime (no network, no key read yet). */
  constructor(options: LlmRuntimeOptions) {
    const models = parseModelConfigs(options.models);
    if (models.length === 0) throw new RangeError("The runtime needs at least one model config");
    this.models = new Map(models.map((m) => [m.id, m]));
    this.currency = checkCurrency(options.currency ?? "USD", "the runtime's");
    this.cache = options.cacheDir ? new ResponseCache(options.cacheDir) : null;
    this.#readEnv = options.readEnv ?? ((name) => Deno.env.get(name));
    this.#random = options.random ?? Math.random;
    this.#sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.#maxFailures = positiveInt(
      "maxConsecutiveFailures",
      options.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES,
    );
    this.maxLoggedReplyChars = positiveInt(
      "maxLoggedReplyChars",
      options.maxLoggedReplyChars ?? DEFAULT_MAX_LOGGED_REPLY_CHARS,
    );
    if (options.onStatus) this.#listeners.add(options.onStatus);
    for (const m of models) urlSecrets(m.baseURL).forEach((x) => this.#secrets.add(x));
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
    this.#keysRead.add(m.id);
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

  /**
   * The reply text of a record as the provider sent it, before redaction:
   * what an agent reads its report from (the record itself, like the cache,
   * holds the redacted text, fit to log). For a record this runtime did not
   * redact, its `content`.
   */
  unredacted(record: LlmCallRecord): string | null {
    return this.#unredacted.has(record) ? this.#unredacted.get(record)! : record.content;
  }

  /** Removes every known secret (keys read so far, credentials in base URLs) from a text. */
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
      halt: this.#halt,
    };
  }

  /**
   * Stops the runtime sending calls: every later {@linkcode complete} throws
   * `EpisodeAbandoned` with this reason before anything is sent (calls
   * already sent finish and are counted). The first reason stays.
   */
  halt(reason: string, by: HaltCause): void {
    if (this.#halt !== null) return;
    this.#halt = { reason: this.redact(reason), by };
    this.#changed();
  }

  /**
   * Attaches a budget (and a spend ledger) for a run; returns the function
   * that detaches it. While attached, every request (each attempt, retries
   * included) reserves its worst case before it is sent: its prompt's UTF-8
   * bytes plus its completion cap, at the model's price. A request whose
   * reservation does not fit in what is left of the limit (spent plus in
   * flight) is not sent: the runtime halts (cause `"budget"`) and the call
   * throws `EpisodeAbandoned`. Each request then settles to what it billed:
   * the reply's token counts (a reply rejected as unusable still counts its
   * usage), its reservation when that is unknown (a reply without valid
   * counts, a timeout), or nothing (an error status or a refused
   * connection, which providers normally do not bill). Cache hits reserve
   * nothing. So billed spend never exceeds the limit, however many requests
   * are in flight.
   *
   * Detaching lifts a halt the budget caused. Requests still in flight then
   * settle in memory only (their `reserve` lines count them, at their
   * reservation, when the ledger is read back), and no new request is sent
   * until they have.
   *
   * @example
   * ```ts
   * import { LlmRuntime } from "./runtime.ts";
   * const rt = new LlmRuntime({ models: [{ id: "m", baseURL: "http://127.0.0.1:9/v1", model: "x" }] });
   * const detach = rt.useBudget({ limit: { maxTokens: 10 } });
   * try {
   *   await rt.complete("m", [{ role: "user", content: "hi" }]);
   *   throw new Error("should be refused");
   * } catch (e) {
   *   if ((e as Error).name !== "EpisodeAbandoned" || rt.status().halt?.by !== "budget") throw e;
   * }
   * detach();
   * if (rt.status().halt !== null || rt.budgetStatus() !== null) throw new Error();
   * ```
   * @throws {RangeError} For a bad limit, or when a budget is already attached.
   */
  useBudget(options: UseBudgetOptions = {}): () => void {
    if (this.#budget !== null) {
      throw new RangeError(
        "The runtime already has a budget attached (a grid is running with it): " +
          "give each grid that runs at the same time its own runtime",
      );
    }
    const b: BudgetState = {
      limit: options.limit ? checkBudget({ ...options.limit }) : null,
      earlier: copySpend(options.spent ?? emptySpend()),
      session: emptySpend(),
      reserved: emptySpendTotals(),
      flying: new Map(),
      record: options.record ?? null,
      halt: null,
      detached: false,
      tag: crypto.randomUUID().slice(0, 8),
      next: 0,
    };
    this.#budget = b;
    this.#changed();
    return () => {
      if (b.detached) return;
      b.detached = true;
      if (b.halt !== null && this.#halt === b.halt) this.#halt = null;
      if (b.reserved.requests === 0 && this.#budget === b) this.#budget = null;
      this.#changed();
    };
  }

  /** The attached budget's limit, spend and reservations, or `null` without one. */
  budgetStatus(): BudgetStatus | null {
    const b = this.#budget;
    if (b === null || b.detached) return null;
    const spent = sumSpend(b.earlier, b.session);
    const inFlight = emptySpend();
    for (const { model, r } of b.flying.values()) {
      addReserved(inFlight, model, r);
    }
    return {
      limit: b.limit ? { ...b.limit } : null,
      spent,
      session: copySpend(b.session),
      reserved: { ...b.reserved },
      inFlight,
    };
  }

  /** Why a provider's circuit breaker is open, or `null` while it is closed. */
  breaker(provider: string): string | null {
    return this.#breakers.get(provider)?.open ?? null;
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
    if (this.#halt !== null) throw new EpisodeAbandoned(this.#halt.reason);
    const call = options.call ?? null;
    const record = await this.#call(m, messages, samplingParams(m), options.sample ?? 0, call)
      .catch((err) => {
        // Attempts already paid before a retry was refused still count.
        if (err instanceof CallAbandoned) this.ledger.add(err.record, options.episode ?? "ep");
        throw err;
      });
    this.ledger.add(record, options.episode ?? "ep");
    return record;
  }

  /**
   * Sends one tiny chat request to a model over the network (never the
   * cache), with its retries, to prove that its base URL, key and model name
   * work: the messages are {@linkcode PROBE_MESSAGES} and the completion cap
   * is at most 16 tokens. The record goes to the ledger under
   * {@linkcode PROBE_EPISODE}. `preflight` uses it.
   */
  async probe(modelId: string): Promise<LlmCallRecord> {
    const m = this.model(modelId);
    const sampling = {
      ...samplingParams(m),
      [m.tokenLimitParam]: Math.min(m.maxTokens, PROBE_MAX_TOKENS),
    };
    const record = await this.#call(m, PROBE_MESSAGES, sampling, "probe", PROBE).catch((err) => {
      if (err instanceof CallAbandoned) this.ledger.add(err.record, PROBE_EPISODE);
      throw err;
    });
    this.ledger.add(record, PROBE_EPISODE);
    return record;
  }

  async #call(
    m: ModelConfig,
    messages: readonly ChatMessage[],
    sampling: Record<string, unknown>,
    sample: string | number,
    call: TestDoubleCall | TestDoubleProbe | null,
  ): Promise<LlmCallRecord> {
    const hash = promptHash(messages);
    const base: CallBase = {
      model: m.id,
      provider: m.provider,
      provider_model: m.model,
      prompt_hash: hash,
      cache_key: cacheKeyOf(hash, { provider: m.provider, model: m.model, sampling, sample }),
    };
    // A probe never uses the cache.
    const cache = call !== null && "probe" in call ? null : this.cache;
    const started = performance.now();
    this.#inFlight++;
    this.#changed();
    try {
      if (!this.#keysRead.has(m.id)) this.apiKey(m); // so that its key is redacted from the start
      const cached = cache ? await cache.get(base.cache_key) : undefined;
      if (cached) {
        return this.#record(base, this.#redacted(cached), cached.content, {
          cache: "hit",
          attempts: 0,
          failures: [],
          latency: 0,
          wall: performance.now() - started,
          cost: 0,
          usageWarning: null,
        });
      }
      const failed = (error: string) =>
        this.#failed(base, {
          cache: cache ? "miss" : "off",
          attempts: 0,
          failures: [],
          latency: 0,
          started,
          m,
        }, error);
      let client: OpenAI;
      try {
        client = this.client(m.id);
      } catch (err) {
        const message = this.redact((err as Error).message);
        this.#fatal ??= message;
        return failed(message);
      }
      const open = this.breaker(m.provider);
      if (open) return failed(open);
      const bill: AttemptBill[] = [];
      let record: LlmCallRecord;
      try {
        const request = {
          model: m.model,
          messages: [...messages],
          ...sampling,
          ...(m.testDouble && call !== null ? { [TEST_DOUBLE_FIELD]: call } : {}),
        };
        record = await this.#network(m, client, request, base, started, cache, bill);
      } catch (err) {
        if (!isEpisodeAbandoned(err) || bill.length === 0) throw err;
        // A retry was refused (a budget, a halt): the attempts sent before it count.
        const partial = this.#failed(base, {
          cache: cache ? "miss" : "off",
          attempts: bill.length,
          failures: [],
          latency: 0,
          started,
          m,
        }, (err as Error).message);
        throw new CallAbandoned((err as Error).message, withBilled(partial, bill, m));
      }
      record = withBilled(record, bill, m);
      this.#countForBreaker(m, record);
      return record;
    } finally {
      this.#inFlight--;
      this.#changed();
    }
  }

  async #network(
    m: ModelConfig,
    client: OpenAI,
    request: { messages: ChatMessage[] } & Record<string, unknown>,
    base: CallBase,
    started: number,
    cache: ResponseCache | null,
    bill: AttemptBill[],
  ): Promise<LlmCallRecord> {
    const failures: LlmAttemptFailure[] = [];
    const limiter = this.#limiters.get(m.provider)!;
    const cacheMode = cache ? "miss" : "off";
    for (let attempt = 1;; attempt++) {
      const open = attempt > 1 ? this.breaker(m.provider) : null;
      if (open) {
        // Another call opened the breaker while this one waited to retry.
        return this.#failed(base, {
          cache: cacheMode,
          attempts: attempt - 1,
          failures,
          latency: 0,
          started,
          m,
        }, open);
      }
      const release = await limiter.acquire();
      let hold: Hold | null;
      try {
        hold = this.#reserve(m, request.messages, request[m.tokenLimitParam] as number);
      } catch (err) {
        release();
        throw err;
      }
      const sent = performance.now();
      let body: unknown;
      let error: unknown;
      let answered = false;
      try {
        body = await client.chat.completions.create(request as never, {
          timeout: m.timeoutMs,
          maxRetries: 0,
        });
        answered = true;
      } catch (err) {
        error = err;
      }
      const latency = performance.now() - sent;
      let reading: CompletionReading | null = null;
      let response: CachedResponse | null = null;
      try {
        reading = answered ? parseCompletion(body) : null;
        // The agent reads the reply as received; logs and the cache get a redacted copy,
        // stored before the slot is freed, so that a cache that cannot be written halts
        // the runtime before another request is sent.
        response = reading?.ok ? this.#redacted(reading.response) : null;
        if (response && cache) await this.#store(cache, base.cache_key, response);
      } finally {
        release();
      }
      bill.push(this.#settle(m, hold, answered, body, error));
      if (reading?.ok) {
        const kept = response!; // set whenever the reading is ok
        const usageWarning = reading.usageProblem === null ? null : this.redact(
          `The provider's token counts were not used, so the call is unpriced: ${reading.usageProblem}`,
        );
        return this.#record(base, kept, reading.response.content, {
          cache: cacheMode,
          attempts: attempt,
          failures,
          latency,
          wall: performance.now() - started,
          cost: m.price && usageWarning === null
            ? callCost({ tokensIn: kept.tokens_in, tokensOut: kept.tokens_out }, m.price)
            : null,
          usageWarning,
        });
      }
      const f: FailureInfo = reading
        ? {
          kind: "invalid_response",
          status: 200,
          retryable: true,
          retryAfterMs: null,
          message: reading.problem,
        }
        : classifyFailure(error);
      const last = !f.retryable || attempt > m.maxRetries;
      const wait = last ? null : retryDelay(attempt, f.retryAfterMs, {
        baseMs: m.backoffMs,
        maxMs: m.maxBackoffMs,
        maxRetryAfterMs: m.maxRetryAfterMs,
        random: this.#random,
      });
      let message = this.redact(clip(f.message, MAX_MESSAGE_CHARS));
      if (wait !== null && f.retryAfterMs !== null && f.retryAfterMs > wait) {
        message += ` (the provider asked to wait ${seconds(f.retryAfterMs)}; ` +
          `waited ${seconds(wait)}, the cap maxRetryAfterMs)`;
      }
      failures.push({
        attempt,
        kind: f.kind,
        status: f.status,
        message,
        wait_ms: wait,
        requested_wait_ms: f.retryAfterMs,
      });
      if (last) {
        if (f.kind === "client_error" && [401, 403, 404].includes(f.status ?? 0)) {
          this.#trip(m.provider, refusal(m, f.status!, message));
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

  /**
   * Before a request is sent: refuses it when the runtime is halted, or when
   * its reservation does not fit the attached budget (the runtime halts) or
   * cannot be written to the ledger (the runtime halts); else holds it.
   */
  #reserve(m: ModelConfig, messages: readonly ChatMessage[], cap: number): Hold | null {
    if (this.#halt !== null) throw new EpisodeAbandoned(this.#halt.reason);
    const b = this.#budget;
    if (b === null) return null;
    if (b.detached) {
      throw new EpisodeAbandoned(
        "The grid this runtime's budget belonged to has returned: no further request is sent " +
          "until its requests in flight have settled",
      );
    }
    const r = reservationOf(promptBytes(messages), cap, m.price);
    if (b.limit !== null) {
      const tally = { spent: this.budgetStatus()!.spent.total, reserved: b.reserved };
      const why = reservationRefusal(tally, r, b.limit, m.id);
      if (why !== null) this.#haltFor(b, why, "budget");
    }
    const id = `${b.tag}-${++b.next}`;
    try {
      b.record?.({
        type: "reserve",
        id,
        model: m.id,
        tokens_in: r.tokensIn,
        tokens_out: r.tokensOut,
        cost: r.cost,
      });
    } catch (err) {
      this.#haltFor(b, `${(err as Error).message}, so no further request is sent`, "ledger");
    }
    addReservation(b.reserved, r, 1);
    b.flying.set(id, { model: m.id, r });
    return { b, id, r };
  }

  /**
   * After a request: what it billed (see {@linkcode useBudget}), settled
   * against its hold and written to the ledger. A ledger that cannot be
   * written halts the runtime; the reply is still counted and used.
   */
  #settle(
    m: ModelConfig,
    hold: Hold | null,
    answered: boolean,
    body: unknown,
    error: unknown,
  ): AttemptBill {
    const usage = answered ? billedUsage(body) : null;
    const timedOut = !answered && classifyFailure(error).kind === "timeout" &&
      classifyFailure(error).status === null;
    const unknown = usage === null && (timedOut || (answered && typeof body === "object"));
    if (hold === null) return usage;
    const { b, id, r } = hold;
    addReservation(b.reserved, r, -1);
    b.flying.delete(id);
    const line: Extract<SpendLine, { type: "settle" }> = usage
      ? {
        type: "settle",
        id,
        model: m.id,
        usage: "reported",
        tokens_in: usage.tokensIn,
        tokens_out: usage.tokensOut,
        tokens_reasoning: usage.tokensReasoning,
        cost: m.price ? callCost(usage, m.price) : null,
      }
      : {
        type: "settle",
        id,
        model: m.id,
        usage: unknown ? "unknown" : "none",
        tokens_in: unknown ? r.tokensIn : 0,
        tokens_out: unknown ? r.tokensOut : 0,
        tokens_reasoning: 0,
        cost: unknown ? r.cost : m.price ? 0 : null,
      };
    addSpend(b.session, m.id, line);
    if (b.detached) {
      if (b.reserved.requests === 0 && this.#budget === b) this.#budget = null;
    } else {
      try {
        b.record?.(line);
      } catch (err) {
        try {
          this.#haltFor(b, `${(err as Error).message}, so no further request is sent`, "ledger");
        } catch {
          // The halt is what matters here: this reply is paid, so it is used.
        }
      }
    }
    return usage;
  }

  /** Halts the runtime for a budget (a detach lifts it) and throws `EpisodeAbandoned`. */
  #haltFor(b: BudgetState, reason: string, by: HaltCause): never {
    if (this.#halt === null) {
      this.halt(reason, by);
      b.halt = this.#halt;
    }
    throw new EpisodeAbandoned(this.#halt!.reason);
  }

  /** Counts a network call for its provider's breaker; opens it after too many failures in a row. */
  #countForBreaker(m: ModelConfig, record: LlmCallRecord): void {
    let b = this.#breakers.get(m.provider);
    if (!b) this.#breakers.set(m.provider, b = { failures: 0, open: null });
    if (record.status === "ok") {
      b.failures = 0;
      return;
    }
    b.failures++;
    if (b.failures >= this.#maxFailures) {
      this.#trip(
        m.provider,
        `The provider "${m.provider}" failed ${b.failures} calls in a row, so no further ` +
          `request is sent to it (circuit breaker); the last, of model "${m.id}": ${record.error}`,
      );
    }
  }

  /** Opens a provider's breaker (the first reason stays). */
  #trip(provider: string, why: string): void {
    let b = this.#breakers.get(provider);
    if (!b) this.#breakers.set(provider, b = { failures: 0, open: null });
    b.open ??= why;
    this.#fatal ??= why;
    this.#changed();
  }

  /**
   * Writes a paid reply to the cache; a cache that cannot be written halts
   * the runtime (the reply is still used and counted: the call succeeded).
   */
  async #store(cache: ResponseCache, key: string, response: CachedResponse): Promise<void> {
    try {
      await cache.put(key, response);
    } catch (err) {
      this.halt(
        `The response cache cannot be written, so no further call is sent (the reply just ` +
          `received was used and counted): ${(err as Error).message}`,
        "cache",
      );
    }
  }

  #redacted(r: CachedResponse): CachedResponse {
    if (this.#secrets.size === 0) return r;
    const clean = (t: string | null) => (t === null ? null : this.redact(t));
    return {
      ...r,
      content: clean(r.content),
      reasoning: clean(r.reasoning),
      finish_reason: clean(r.finish_reason),
    };
  }

  #failed(
    base: CallBase,
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
      usage_warning: null,
    };
  }

  #record(
    base: CallBase,
    r: CachedResponse,
    raw: string | null,
    how: {
      cache: LlmCallRecord["cache"];
      attempts: number;
      failures: LlmAttemptFailure[];
      latency: number;
      wall: number;
      cost: number | null;
      usageWarning: string | null;
    },
  ): LlmCallRecord {
    const record: LlmCallRecord = {
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
      usage_warning: how.usageWarning,
    };
    if (raw !== r.content) this.#unredacted.set(record, raw);
    return record;
  }

  #changed(): void {
    if (this.#listeners.size === 0) return;
    const s = this.status();
    for (const fn of this.#listeners) fn(s);
  }
}

/** A budget attached with {@linkcode LlmRuntime.useBudget}. */
interface BudgetState {
  limit: Budget | null;
  /** Spend before it was attached. */
  earlier: Spend;
  /** Spend settled since. */
  session: Spend;
  reserved: SpendTotals;
  /** The holds in flight, by request id. */
  flying: Map<string, { model: string; r: Reservation }>;
  record: ((line: SpendLine) => void) | null;
  /** The halt it caused, lifted on detach. */
  halt: RuntimeHalt | null;
  detached: boolean;
  /** Prefix of its request ids. */
  tag: string;
  next: number;
}

/** A request's reservation, held while it is in flight. */
interface Hold {
  b: BudgetState;
  id: string;
  r: Reservation;
}

/** The token counts one attempt's reply reported, or `null`. */
type AttemptBill = { tokensIn: number; tokensOut: number; tokensReasoning: number } | null;

/** An abandoned call whose earlier attempts were paid: `record` counts them. */
class CallAbandoned extends EpisodeAbandoned {
  readonly record: LlmCallRecord;
  constructor(message: string, record: LlmCallRecord) {
    super(message);
    this.record = record;
  }
}

function addReservation(t: SpendTotals, r: Reservation, sign: 1 | -1): void {
  t.requests += sign;
  t.tokensIn += sign * r.tokensIn;
  t.tokensOut += sign * r.tokensOut;
  t.tokens += sign * (r.tokensIn + r.tokensOut);
  if (r.cost === null) t.unpriced += sign;
  else t.cost += sign * r.cost;
}

/**
 * A call's record with the tokens of its attempts that the provider billed
 * but the runtime did not use (rejected replies that reported usage) added:
 * every attempt of a failed call, the attempts before the answer of one that
 * succeeded (whose own counts the record already has).
 */
function withBilled(record: LlmCallRecord, bill: readonly AttemptBill[], m: ModelConfig) {
  const unused = record.status === "ok" ? bill.slice(0, -1) : bill;
  let tokensIn = 0, tokensOut = 0, tokensReasoning = 0;
  for (const u of unused) {
    tokensIn += u?.tokensIn ?? 0;
    tokensOut += u?.tokensOut ?? 0;
    tokensReasoning += u?.tokensReasoning ?? 0;
  }
  if (tokensIn + tokensOut + tokensReasoning === 0) return record;
  const total = { tokensIn: record.tokens_in + tokensIn, tokensOut: record.tokens_out + tokensOut };
  return {
    ...record,
    tokens_in: total.tokensIn,
    tokens_out: total.tokensOut,
    tokens_reasoning: record.tokens_reasoning + tokensReasoning,
    cost: m.price && (record.status !== "ok" || record.cost !== null)
      ? callCost(total, m.price)
      : null,
  };
}

/** The identifying fields of a call record. */
type CallBase = Pick<
  LlmCallRecord,
  "model" | "provider" | "provider_model" | "prompt_hash" | "cache_key"
>;

/**
 * The messages of {@linkcode LlmRuntime.probe}.
 *
 * @example
 * ```ts
 * import { PROBE_MESSAGES } from "./runtime.ts";
 * if (PROBE_MESSAGES.length !== 1 || PROBE_MESSAGES[0].role !== "user") throw new Error();
 * ```
 */
export const PROBE_MESSAGES: readonly ChatMessage[] = [
  { role: "user", content: "Reply with the single word OK." },
];

const PROBE_MAX_TOKENS = 16;

/** What a probe tells the local test double (it plays no game). */
const PROBE: TestDoubleProbe = { probe: true };

/** Longest error message kept in a failure record (a provider may send a huge error body). */
const MAX_MESSAGE_CHARS = 2000;

/** Why a provider's 401, 403 or 404 stops every call to it. */
function refusal(m: ModelConfig, status: number, message: string): string {
  const hint = status === 404
    ? `check the base URL ${safeUrl(m.baseURL)} (OpenAI-compatible APIs usually end in /v1) ` +
      `and the model name "${m.model}"`
    : `check the key in ${m.apiKeyEnv ?? "(no key variable configured)"}`;
  return `The provider "${m.provider}" answered ${status} to model "${m.id}", so no further ` +
    `request is sent to it (${hint}): ${message}`;
}

function clip(text: string, max: number): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)}... (${text.length - max} more characters)`;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

function positiveInt(name: string, v: number): number {
  if (!Number.isSafeInteger(v) || v < 1) {
    throw new RangeError(`LlmRuntime option "${name}" must be an integer >= 1, got ${v}`);
  }
  return v;
}

function round1(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/**
 * Model configuration: which OpenAI-compatible endpoint and model a role
 * plays with, how it samples, and the limits of its provider. Validated with
 * zod; a bad field throws one `RangeError` naming it.
 *
 * Keys are never part of a configuration: `apiKeyEnv` names the environment
 * variable that holds the key, read when the runtime is created. Omit it for a
 * local server that needs no key.
 *
 * Choices where the paper is open: sampling defaults are the paper's Table 6
 * (temperature 1.0, 8192 max tokens); models sharing a `provider` share one
 * limiter, whose concurrency and requests-per-minute are the smallest any of
 * them declares.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { parseWith } from "../../frail/params.ts";
import { safeUrl } from "./redact.ts";

/** Price of a model in currency units per million tokens (finite, 0 to `MAX_PRICE_PER_MILLION`). */
export interface ModelPrice {
  /** Per million prompt tokens. */
  inputPerMillion: number;
  /** Per million completion tokens (reasoning tokens included). */
  outputPerMillion: number;
}

/** One validated model configuration. */
export interface ModelConfig {
  /** Id used in assignments, logs and the cache key, e.g. `"deepseek-flash"`. */
  id: string;
  /** OpenAI-compatible base URL, e.g. `"https://api.deepseek.com/v1"`. */
  baseURL: string;
  /** Model name sent to the provider. */
  model: string;
  /** Environment variable holding the API key; `null` for a server without keys. Default `null`. */
  apiKeyEnv: string | null;
  /** Provider id: models of one provider share a limiter. Default: host and port of `baseURL`. */
  provider: string;
  /** Sampling temperature. Default 1.0 (Table 6). */
  temperature: number;
  /** Completion token cap, 1 to `MAX_COMPLETION_TOKENS`. Default 8192 (Table 6). */
  maxTokens: number;
  /** Request field carrying the cap. Default `"max_tokens"`; newer OpenAI models take `"max_completion_tokens"`. */
  tokenLimitParam: "max_tokens" | "max_completion_tokens";
  /** Reasoning effort for providers that take one, or `null` to send none. Default `null`. */
  reasoningEffort: "minimal" | "low" | "medium" | "high" | null;
  /** Extra provider-specific request fields (e.g. `{ enable_thinking: true }`). Default `{}`. */
  extraBody: Record<string, unknown>;
  /** Calls in flight at once for the provider. Default 8. */
  concurrency: number;
  /** Requests per minute for the provider, or `null` for no limit. Default `null`. */
  requestsPerMinute: number | null;
  /** Per-attempt timeout in ms. Default 120000. */
  timeoutMs: number;
  /** Retries after the first attempt (429, 5xx, connection errors, timeouts). Default 5. */
  maxRetries: number;
  /** First backoff in ms; doubles each retry, with jitter. Default 1000. */
  backoffMs: number;
  /** Longest backoff in ms (a provider's Retry-After is honoured even when longer, up to `maxRetryAfterMs`). Default 60000. */
  maxBackoffMs: number;
  /** Longest wait a provider's Retry-After may impose, in ms (longer requests are cut to it, and the failure records both). Default 120000. */
  maxRetryAfterMs: number;
  /** Price table entry, or `null` when unknown. Default `null`. */
  price: ModelPrice | null;
  /**
   * Where the price comes from (the provider's page and the month it was
   * read), or why there is none; shown by the dry run. Default `null`.
   */
  priceSource: string | null;
  /**
   * Whether the model is coordlab's local test double (`serveLocalModel`):
   * each request then also carries the structured call its prompt was
   * rendered from, in the `coordlab_call` field only the double reads (see
   * `test_double.ts`). Never set it for a real provider, which refuses
   * unknown request fields. Default `false`.
   */
  testDouble: boolean;
}

/** What a caller writes: every field with a default may be left out. */
export type ModelConfigInput =
  & Pick<ModelConfig, "id" | "baseURL" | "model">
  & Partial<Omit<ModelConfig, "id" | "baseURL" | "model">>;

/**
 * Highest price a model config may give, per million tokens (input or
 * output): far above any provider's, low enough that no budget sum overflows.
 *
 * @example
 * ```ts
 * import { MAX_PRICE_PER_MILLION } from "./model_config.ts";
 * if (MAX_PRICE_PER_MILLION !== 10_000) throw new Error();
 * ```
 */
export const MAX_PRICE_PER_MILLION = 10_000;

/**
 * Highest completion cap (`maxTokens`) a model config may give: one million
 * tokens, above any provider's output limit.
 *
 * @example
 * ```ts
 * import { MAX_COMPLETION_TOKENS } from "./model_config.ts";
 * if (MAX_COMPLETION_TOKENS !== 1_000_000) throw new Error();
 * ```
 */
export const MAX_COMPLETION_TOKENS = 1_000_000;

const ID = /^[A-Za-z0-9][\w.:-]*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Longest wait a timer can hold, in ms (2^31 - 1, about 24.8 days): a longer
 * `setTimeout` fires at once, so every time in a model config is at most this.
 *
 * @example
 * ```ts
 * import { MAX_TIMER_MS } from "./model_config.ts";
 * if (MAX_TIMER_MS !== 2 ** 31 - 1) throw new Error();
 * ```
 */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Request fields the client sets itself, which `extraBody` may not name (they
 * would silently change the request the cache key and the log describe, or
 * ask for replies the toolkit does not read: several choices, tool calls, a
 * stream).
 *
 * @example
 * ```ts
 * import { CLIENT_REQUEST_FIELDS, parseModelConfig } from "./model_config.ts";
 * if (!CLIENT_REQUEST_FIELDS.includes("model")) throw new Error();
 * let refused = false;
 * try {
 *   parseModelConfig({ id: "a", baseURL: "http://127.0.0.1:1/v1", model: "m", extraBody: { stream: true } });
 * } catch { refused = true; }
 * if (!refused) throw new Error();
 * ```
 */
export const CLIENT_REQUEST_FIELDS: readonly string[] = Object.freeze([
  "model",
  "messages",
  "stream",
  "stream_options",
  "max_tokens",
  "max_completion_tokens",
  "n",
  "temperature",
  "reasoning_effort",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "functions",
  "function_call",
]);

const PROTOCOLS = ["http:", "https:"];

/** Why a base URL is refused, or `null` when it is an http: or https: URL with a host. */
function baseUrlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "must be an http: or https: URL (it does not parse as a URL)";
  }
  if (!PROTOCOLS.includes(u.protocol)) {
    return `must be an http: or https: URL, not ${u.protocol}`;
  }
  return u.host ? null : "must be an http: or https: URL with a host";
}

/** A whole number of ms from `min` to {@linkcode MAX_TIMER_MS}. */
function millis(min: number) {
  const range = `must be a whole number of ms from ${min} to ${MAX_TIMER_MS} (about 24.8 days)`;
  return z.number(range).int(range).min(min, range).max(MAX_TIMER_MS, range);
}

function intRange(min: number, max: number, unit = "") {
  const range = `must be a whole number${unit} from ${min} to ${max}`;
  return z.number(range).int(range).min(min, range).max(max, range);
}

/**
 * Zod schema of one {@linkcode ModelConfig}.
 *
 * @example
 * ```ts
 * import { ModelConfigSchema } from "./model_config.ts";
 * const r = ModelConfigSchema.safeParse({ id: "x", baseURL: "http://127.0.0.1:1/v1", model: "m", temperature: 5 });
 * if (r.success) throw new Error();
 * ```
 */
export const ModelConfigSchema: z.ZodType<ModelConfig, ModelConfigInput> = z.object({
  id: z.string().regex(ID, "use letters, digits, '_', '-', '.' or ':'"),
  baseURL: z.string().superRefine((url, ctx) => {
    const problem = baseUrlProblem(url);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
  model: z.string().min(1),
  apiKeyEnv: z.string().regex(ENV_NAME, "name an environment variable").nullable().default(null),
  provider: z.string().min(1).optional(),
  temperature: z.number().min(0).max(2).default(1),
  maxTokens: z.number().int().min(1).max(MAX_COMPLETION_TOKENS).default(8192),
  tokenLimitParam: z.enum(["max_tokens", "max_completion_tokens"]).default("max_tokens"),
  reasoningEffort: z.enum(["minimal", "low", "medium", "high"]).nullable().default(null),
  extraBody: z.record(z.string(), z.unknown()).superRefine((body, ctx) => {
    const taken = Object.keys(body).filter((k) => CLIENT_REQUEST_FIELDS.includes(k));
    if (taken.length) {
      ctx.addIssue({
        code: "custom",
        message: `names ${taken.map((k) => `"${k}"`).join(", ")}, which the client sets itself ` +
          `(extraBody may not name ${CLIENT_REQUEST_FIELDS.join(", ")})`,
      });
    }
  }).default({}),
  concurrency: intRange(1, 10_000).default(8),
  requestsPerMinute: intRange(1, 1_000_000, " of requests").nullable().default(null),
  timeoutMs: millis(1).default(120_000),
  maxRetries: intRange(0, 20).default(5),
  backoffMs: millis(0).default(1000),
  maxBackoffMs: millis(0).default(60_000),
  maxRetryAfterMs: z.number().min(0).default(120_000),
  price: z.object({
    inputPerMillion: z.number().nonnegative().max(MAX_PRICE_PER_MILLION),
    outputPerMillion: z.number().nonnegative().max(MAX_PRICE_PER_MILLION),
  }).strict().nullable().default(null),
  priceSource: z.string().min(1).nullable().default(null),
  testDouble: z.boolean().default(false),
}).strict().transform((c) => ({ ...c, provider: c.provider ?? new URL(c.baseURL).host }));

/**
 * Validates one model configuration, filling defaults.
 *
 * @example
 * ```ts
 * import { parseModelConfig } from "./model_config.ts";
 * const m = parseModelConfig({ id: "local", baseURL: "http://127.0.0.1:8000/v1", model: "qwen" });
 * if (m.provider !== "127.0.0.1:8000" || m.temperature !== 1 || m.maxTokens !== 8192) throw new Error();
 * ```
 * @throws {RangeError} Naming the bad field.
 */
export function parseModelConfig(input: unknown): ModelConfig {
  const url = (input as { baseURL?: unknown } | null)?.baseURL;
  const problem = typeof url === "string" ? baseUrlProblem(url) : null;
  if (problem) {
    // Said here, not by zod: its message would quote the URL with any credentials in it.
    throw new RangeError(
      `Invalid model config parameter "baseURL": ${problem} (got ${
        JSON.stringify(safeUrl(url as string))
      })`,
    );
  }
  const m = parseWith(ModelConfigSchema, input, "model config");
  if (!Number.isInteger(m.maxRetryAfterMs) || m.maxRetryAfterMs > MAX_TIMER_MS) {
    throw new RangeError(
      `Invalid model config parameter "maxRetryAfterMs": must be a whole number of ms from 0 ` +
        `to ${MAX_TIMER_MS} (about 24.8 days) (got ${m.maxRetryAfterMs})`,
    );
  }
  if (m.backoffMs > m.maxBackoffMs) {
    throw new RangeError(
      `Invalid model config parameter "backoffMs": must be at most maxBackoffMs ` +
        `(${m.maxBackoffMs}) (got ${m.backoffMs})`,
    );
  }
  return m;
}

/**
 * Validates a list of model configurations (an array, or `{ models: [...] }`
 * as in a config file); ids must be unique.
 *
 * @example
 * ```ts
 * import { parseModelConfigs } from "./model_config.ts";
 * const ms = parseModelConfigs({ models: [
 *   { id: "a", baseURL: "http://127.0.0.1:1/v1", model: "x" },
 *   { id: "b", baseURL: "http://127.0.0.1:1/v1", model: "y", apiKeyEnv: "B_KEY" },
 * ] });
 * if (ms.length !== 2 || ms[1].apiKeyEnv !== "B_KEY") throw new Error();
 * ```
 * @throws {RangeError} Naming the bad field, or a repeated id.
 */
export function parseModelConfigs(input: unknown): ModelConfig[] {
  const list = Array.isArray(input) ? input : (input as { models?: unknown } | null)?.models;
  if (!Array.isArray(list)) {
    throw new RangeError(
      'Invalid model configs: expected an array or an object with a "models" array',
    );
  }
  const out = list.map((m, i) => {
    try {
      return parseModelConfig(m);
    } catch (err) {
      const id = (m as { id?: unknown } | null)?.id;
      const named = typeof id === "string" ? ` (${JSON.stringify(id)})` : "";
      throw new RangeError(`Model config ${i}${named}: ${(err as Error).message}`);
    }
  });
  const seen = new Set<string>();
  for (const m of out) {
    if (seen.has(m.id)) throw new RangeError(`Model config id "${m.id}" appears more than once`);
    seen.add(m.id);
  }
  return out;
}

/**
 * Reads and validates a JSON file of model configurations.
 *
 * @example
 * ```ts
 * import { loadModelConfigs } from "./model_config.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/models.json`,
 *   JSON.stringify({ models: [{ id: "a", baseURL: "http://127.0.0.1:1/v1", model: "x" }] }));
 * if ((await loadModelConfigs(`${dir}/models.json`))[0].id !== "a") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 * @throws {SyntaxError} When the file is not JSON; {RangeError} naming a bad field.
 */
export async function loadModelConfigs(path: string): Promise<ModelConfig[]> {
  return (await loadModelsFile(path)).models;
}

/**
 * The currency of a models file's prices: its top-level `currency` (an
 * ISO 4217 code such as `"USD"` or `"CNY"`), `"USD"` when absent. Every
 * price in one file is in this currency.
 *
 * @example
 * ```ts
 * import { modelsCurrency } from "./model_config.ts";
 * if (modelsCurrency({ models: [] }) !== "USD" || modelsCurrency({ currency: "CNY" }) !== "CNY") {
 *   throw new Error();
 * }
 * ```
 * @throws {RangeError} When `currency` is not three capital letters, naming it.
 */
export function modelsCurrency(input: unknown): string {
  const value = Array.isArray(input)
    ? undefined
    : (input as { currency?: unknown } | null)?.currency;
  if (value === undefined) return "USD";
  return checkCurrency(value, "the models file's");
}

/**
 * Whether a value is a currency code as a models file's `currency` must be:
 * three capital letters (ISO 4217 style, e.g. `"USD"`, `"CNY"`).
 *
 * @example
 * ```ts
 * import { isCurrencyCode } from "./model_config.ts";
 * if (!isCurrencyCode("EUR") || isCurrencyCode("usd") || isCurrencyCode(1)) throw new Error();
 * ```
 */
export function isCurrencyCode(value: unknown): value is string {
  return typeof value === "string" && /^[A-Z]{3}$/.test(value);
}

/**
 * Checks a currency code: three capital letters (ISO 4217, e.g. `"USD"`).
 *
 * @example
 * ```ts
 * import { checkCurrency } from "./model_config.ts";
 * if (checkCurrency("EUR") !== "EUR") throw new Error();
 * try { checkCurrency("usd"); throw new Error("accepted"); } catch (e) { if (!(e instanceof RangeError)) throw e; }
 * ```
 * @throws {RangeError} Naming the bad value.
 */
export function checkCurrency(value: unknown, whose = "the"): string {
  if (!isCurrencyCode(value)) {
    throw new RangeError(
      `Invalid currency: ${whose} "currency" must be an ISO 4217 code of three capital letters ` +
        `such as "USD" or "CNY", got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/**
 * Reads a models file: its validated configurations and the currency of
 * their prices ({@linkcode modelsCurrency}).
 *
 * @example
 * ```ts
 * import { loadModelsFile } from "./model_config.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/models.json`, JSON.stringify({ currency: "EUR",
 *   models: [{ id: "a", baseURL: "http://127.0.0.1:1/v1", model: "x" }] }));
 * const file = await loadModelsFile(`${dir}/models.json`);
 * if (file.currency !== "EUR" || file.models[0].id !== "a") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 * @throws {SyntaxError} When the file is not JSON; {RangeError} naming a bad field or currency.
 */
export async function loadModelsFile(
  path: string,
): Promise<{ models: ModelConfig[]; currency: string }> {
  const text = await Deno.readTextFile(path);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new SyntaxError(`${path}: not JSON (${(err as Error).message})`);
  }
  try {
    return { models: parseModelConfigs(value), currency: modelsCurrency(value) };
  } catch (err) {
    throw new RangeError(`${path}: ${(err as Error).message}`);
  }
}

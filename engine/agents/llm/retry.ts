/**
 * Which failures are retried and how long to wait. 429, 408, 409, 5xx,
 * connection errors, timeouts and unreadable response bodies are retried;
 * other 4xx (bad request, bad key, unknown model) are not. The wait honours
 * the provider's `retry-after-ms` or `Retry-After` header (seconds or an HTTP
 * date) up to a cap (`maxRetryAfterMs`, default 120 s: a provider asking for
 * a day, or a date a week ahead, must not park a run); otherwise it is
 * exponential backoff with jitter: retry k waits `min(maxMs, baseMs x 2^(k-1))`
 * scaled by a uniform factor in [0.5, 1).
 *
 * @module
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError } from "npm:openai@7.59.0";
import type { LlmAttemptFailure } from "../../core/events.ts";

/** How one failed attempt is classified. */
export interface FailureInfo {
  /** Kind of failure. */
  kind: LlmAttemptFailure["kind"];
  /** HTTP status, or `null` without a response. */
  status: number | null;
  /** Whether another attempt may succeed. */
  retryable: boolean;
  /** Wait the provider asked for, in ms, or `null`. */
  retryAfterMs: number | null;
  /** The error message (not yet redacted). */
  message: string;
}

/**
 * Classifies an error thrown by the `openai` SDK (or by fetch).
 *
 * @example
 * ```ts
 * import { classifyFailure } from "./retry.ts";
 * import { RateLimitError } from "npm:openai@7.59.0";
 * const err = new RateLimitError(429, {}, "slow down", new Headers({ "retry-after": "2" }));
 * const f = classifyFailure(err);
 * if (f.kind !== "rate_limit" || !f.retryable || f.retryAfterMs !== 2000) throw new Error();
 * ```
 */
export function classifyFailure(err: unknown): FailureInfo {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof APIConnectionTimeoutError) {
    return { kind: "timeout", status: null, retryable: true, retryAfterMs: null, message };
  }
  if (err instanceof APIConnectionError) {
    return { kind: "connection", status: null, retryable: true, retryAfterMs: null, message };
  }
  if (err instanceof APIError && typeof err.status === "number") {
    const status = err.status;
    const retryAfterMs = retryAfter(err.headers);
    if (status === 429) {
      return { kind: "rate_limit", status, retryable: true, retryAfterMs, message };
    }
    if (status === 408) return { kind: "timeout", status, retryable: true, retryAfterMs, message };
    if (status >= 500 || status === 409) {
      return { kind: "server_error", status, retryable: true, retryAfterMs, message };
    }
    return { kind: "client_error", status, retryable: false, retryAfterMs: null, message };
  }
  if (err instanceof SyntaxError) {
    return { kind: "server_error", status: null, retryable: true, retryAfterMs: null, message };
  }
  const name = err instanceof Error ? err.name : "";
  if (name === "TimeoutError") {
    return { kind: "timeout", status: null, retryable: true, retryAfterMs: null, message };
  }
  if (err instanceof TypeError || name === "ConnectionRefused" || name === "ConnectionReset") {
    return { kind: "connection", status: null, retryable: true, retryAfterMs: null, message };
  }
  return { kind: "client_error", status: null, retryable: false, retryAfterMs: null, message };
}

/**
 * The wait a response asks for: `retry-after-ms`, else `Retry-After` in
 * seconds or as an HTTP date; `null` when absent or unreadable.
 *
 * @example
 * ```ts
 * import { retryAfter } from "./retry.ts";
 * if (retryAfter(new Headers({ "retry-after-ms": "250" })) !== 250) throw new Error();
 * if (retryAfter(new Headers({ "retry-after": "1.5" })) !== 1500) throw new Error();
 * if (retryAfter(undefined) !== null) throw new Error();
 * ```
 */
export function retryAfter(
  headers: Headers | undefined | null,
  now: number = Date.now(),
): number | null {
  if (!headers || typeof headers.get !== "function") return null;
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get("retry-after");
  if (!raw) return null;
  const seconds = Number(raw.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - now) : null;
}

/** Options of {@linkcode retryDelay}. */
export interface BackoffOptions {
  /** First backoff in ms. */
  baseMs: number;
  /** Longest backoff in ms (not applied to a provider's Retry-After). */
  maxMs: number;
  /** Longest wait a provider's Retry-After may ask for, in ms. Default 120000. */
  maxRetryAfterMs?: number;
  /** Uniform draw in [0, 1) for the jitter. Default `Math.random` (waits are not part of any log hash). */
  random?: () => number;
}

/**
 * The default cap on a provider's Retry-After: 120 s.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_RETRY_AFTER_MS } from "./retry.ts";
 * if (DEFAULT_MAX_RETRY_AFTER_MS !== 120_000) throw new Error();
 * ```
 */
export const DEFAULT_MAX_RETRY_AFTER_MS = 120_000;

/**
 * The wait before retry `retry` (1 for the first retry): the provider's
 * Retry-After when given (at most `maxRetryAfterMs`), else capped exponential
 * backoff with jitter.
 *
 * @example
 * ```ts
 * import { retryDelay } from "./retry.ts";
 * const opts = { baseMs: 100, maxMs: 1000, random: () => 0 };
 * if (retryDelay(3, null, opts) !== 200) throw new Error(); // 100 x 2^2 x 0.5
 * if (retryDelay(9, null, opts) !== 500) throw new Error(); // capped at 1000, x 0.5
 * if (retryDelay(1, 4000, opts) !== 4000) throw new Error(); // Retry-After wins
 * if (retryDelay(1, 86_400_000, opts) !== 120_000) throw new Error(); // up to its cap
 * ```
 */
export function retryDelay(
  retry: number,
  retryAfterMs: number | null,
  options: BackoffOptions,
): number {
  if (retryAfterMs !== null) {
    return Math.min(retryAfterMs, options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS);
  }
  const random = options.random ?? Math.random;
  const raw = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, retry - 1));
  return raw * (0.5 + random() / 2);
}

/**
 * Fault injection for the local server. Each request draws one uniform from
 * the seeded stream of (server seed, request body hash, attempt number of that
 * body), so which attempt of which request fails does not depend on the order
 * concurrent requests arrive in. The rates are probabilities of disjoint
 * faults and must sum to at most 1.
 *
 * @module
 */
import { extractJsonObject } from "../../../core/reply_json.ts";
import { openStream } from "../../../core/rng.ts";

/** Fault kinds the server injects. */
export type FaultKind =
  | "rate_limit"
  | "server_error"
  | "timeout"
  | "malformed"
  | "truncated"
  | "no_choices"
  | "html_body"
  | "negative_usage"
  | "string_usage"
  | "echo_key"
  | "huge_reply";

/** Probabilities of each fault per request. Each defaults to 0. */
export interface FaultRates {
  /** 429 with a Retry-After. */
  rateLimit?: number;
  /** 500. */
  serverError?: number;
  /** No answer until the client gives up. */
  timeout?: number;
  /** A 200 whose content holds no valid JSON object. */
  malformed?: number;
  /** A 200 whose JSON content is cut in the middle (finish reason `length`). */
  truncated?: number;
  /** A 200 whose JSON body has no `choices` (a relay's error object, say). */
  noChoices?: number;
  /** A 200 whose body is an HTML page (a proxy's error page, say). */
  htmlBody?: number;
  /** A good reply whose usage has negative token counts. */
  negativeUsage?: number;
  /** A good reply whose usage has token counts as strings. */
  stringUsage?: number;
  /** A good reply that echoes the request's bearer key in its text and reasoning. */
  echoKey?: number;
  /** A good reply after `hugeReplyChars` characters of prose. */
  hugeReply?: number;
}

const ORDER: [keyof FaultRates, FaultKind][] = [
  ["rateLimit", "rate_limit"],
  ["serverError", "server_error"],
  ["timeout", "timeout"],
  ["malformed", "malformed"],
  ["truncated", "truncated"],
  ["noChoices", "no_choices"],
  ["htmlBody", "html_body"],
  ["negativeUsage", "negative_usage"],
  ["stringUsage", "string_usage"],
  ["echoKey", "echo_key"],
  ["hugeReply", "huge_reply"],
];

/**
 * Every fault kind, in draw order.
 *
 * @example
 * ```ts
 * import { FAULT_KINDS } from "./faults.ts";
 * if (FAULT_KINDS[0] !== "rate_limit" || !FAULT_KINDS.includes("html_body")) throw new Error();
 * ```
 */
export const FAULT_KINDS: readonly FaultKind[] = ORDER.map(([, kind]) => kind);

/**
 * Checks fault rates.
 *
 * @example
 * ```ts
 * import { checkFaultRates } from "./faults.ts";
 * checkFaultRates({ rateLimit: 0.05, timeout: 0.05 });
 * ```
 * @throws {RangeError} For a rate outside [0, 1] or rates summing above 1.
 */
export function checkFaultRates(rates: FaultRates): void {
  let sum = 0;
  for (const [field] of ORDER) {
    const r = rates[field] ?? 0;
    if (!(r >= 0 && r <= 1)) {
      throw new RangeError(`Fault rate "${field}" must be in [0, 1], got ${r}`);
    }
    sum += r;
  }
  if (sum > 1 + 1e-12) throw new RangeError(`Fault rates sum to ${sum}, more than 1`);
}

/**
 * The fault of one request, or `null`.
 *
 * @example
 * ```ts
 * import { drawFault } from "./faults.ts";
 * const f = drawFault({ serverError: 1 }, { seed: 0, body: "abc", attempt: 1 });
 * if (f !== "server_error" || drawFault({}, { seed: 0, body: "abc", attempt: 1 }) !== null) throw new Error();
 * ```
 */
export function drawFault(
  rates: FaultRates,
  at: { seed: number; body: string; attempt: number },
): FaultKind | null {
  const u = openStream({ seed: at.seed, round: at.attempt, agent: at.body, purpose: "fault" })
    .uniform();
  let edge = 0;
  for (const [field, kind] of ORDER) {
    edge += rates[field] ?? 0;
    if (u < edge) return kind;
  }
  return null;
}

/**
 * Turns a good reply into a broken one: `malformed` holds no parseable JSON
 * object (prose around an object with unquoted keys); `truncated` is the JSON
 * cut halfway, or earlier if needed so that no complete inner object survives.
 * Either way the reply's contract falls back to its neutral default.
 *
 * @example
 * ```ts
 * import { breakReply } from "./faults.ts";
 * import { extractJsonObject } from "../../../core/reply_json.ts";
 * const good = '{"withdraw_probability": 20, "reasoning": "calm"}';
 * if (extractJsonObject(breakReply(good, "malformed")) !== undefined) throw new Error();
 * if (extractJsonObject(breakReply(good, "truncated")) !== undefined) throw new Error();
 * ```
 */
export function breakReply(content: string, kind: "malformed" | "truncated"): string {
  if (kind === "truncated") {
    let n = Math.max(1, Math.floor(content.length / 2));
    while (n > 1 && extractJsonObject(content.slice(0, n)) !== undefined) n--;
    return content.slice(0, n);
  }
  const unquoted = content.replace(/"(\w+)":/g, "$1:");
  return `Let me think about this. ${unquoted === content ? "{oops" : unquoted} That is my answer.`;
}

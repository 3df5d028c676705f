// Model-call usage and transcript texts of one episode, read from its
// `llm_call` events, for the run index (per-episode columns, run totals,
// the per-model summary) and its transcript search.
//
// The sums follow the runtime's ledger (engine/agents/llm/accounting.ts):
// every call counts its tokens, cache hits included; only network calls
// (not cache hits) carry a cost. A network call whose cost is `null` had no
// price: its cost is unknown, never 0, so a model or episode with only such
// calls shows "no price", and one with some says how many were unpriced.

import { isRecord } from "./_condition.ts";
import { money } from "./_currency.ts";
import type { LogEvent } from "./_log_source.ts";

/** Sums over a set of model calls. */
export interface CallUsage {
  /** Calls (cache hits included). */
  calls: number;
  /** Calls answered from the response cache. */
  cacheHits: number;
  /** Calls that failed after their last retry (`status: "error"`). */
  failedCalls: number;
  /** Prompt tokens. */
  tokensIn: number;
  /** Completion tokens (reasoning included). */
  tokensOut: number;
  /** Reasoning tokens (part of `tokensOut`). */
  tokensReasoning: number;
  /** Summed cost of the network calls that had a price. */
  cost: number;
  /** Network calls with a known cost. */
  pricedCalls: number;
  /** Network calls without a price (`cost: null`). */
  unpricedCalls: number;
  /** Calls whose token counts are not non-negative integers (counted as 0 here). */
  unreadableCalls: number;
}

/** An episode's usage, in total and per model configuration id. */
export interface EpisodeUsage {
  /** Every call of the episode. */
  total: CallUsage;
  /** Calls per model id (the `model` field of `llm_call`). */
  byModel: Record<string, CallUsage>;
}

/** No calls. */
export function emptyUsage(): CallUsage {
  return {
    calls: 0,
    cacheHits: 0,
    failedCalls: 0,
    tokensIn: 0,
    tokensOut: 0,
    tokensReasoning: 0,
    cost: 0,
    pricedCalls: 0,
    unpricedCalls: 0,
    unreadableCalls: 0,
  };
}

/** Adds `from` into `into` (in place) and returns `into`. */
export function addUsage(into: CallUsage, from: CallUsage): CallUsage {
  for (const key of Object.keys(into) as (keyof CallUsage)[]) into[key] += from[key];
  return into;
}

const count = (value: unknown): number | null =>
  Number.isInteger(value) && (value as number) >= 0 ? value as number : null;

function addEvent(usage: CallUsage, event: LogEvent): void {
  usage.calls++;
  const hit = event.cache === "hit";
  if (hit) usage.cacheHits++;
  if (event.status === "error") usage.failedCalls++;
  const tokens = [event.tokens_in, event.tokens_out, event.tokens_reasoning].map(count);
  if (tokens.some((t) => t === null)) usage.unreadableCalls++;
  usage.tokensIn += tokens[0] ?? 0;
  usage.tokensOut += tokens[1] ?? 0;
  usage.tokensReasoning += tokens[2] ?? 0;
  if (hit) return;
  if (typeof event.cost === "number" && Number.isFinite(event.cost)) {
    usage.cost += event.cost;
    usage.pricedCalls++;
  } else usage.unpricedCalls++;
}

/** The usage of one episode's `llm_call` events, in log order. */
export function usageOf(events: readonly LogEvent[]): EpisodeUsage {
  const total = emptyUsage();
  const byModel: Record<string, CallUsage> = {};
  for (const event of events) {
    if (event.type !== "llm_call") continue;
    addEvent(total, event);
    const model = typeof event.model === "string" ? event.model : "(no model id)";
    addEvent(byModel[model] ??= emptyUsage(), event);
  }
  return { total, byModel };
}

/**
 * The cost of a set of calls as text in its currency ({@linkcode money}):
 * `$0.0254`; `no price` when no network call had a price; `$0.0254 + 3
 * unpriced` when some had none; `–` without calls.
 */
export function costText(usage: CallUsage, currency: string | null): string {
  if (usage.calls === 0) return "–";
  if (usage.unpricedCalls === 0) return money(usage.cost, currency);
  if (usage.pricedCalls === 0) return "no price";
  return `${money(usage.cost, currency)} + ${usage.unpricedCalls} unpriced`;
}

/** One model call's searchable texts. */
export interface SearchCall {
  /** The call's `seq` in the episode (its anchor on the episode page is `call-<seq>`). */
  seq: number;
  /** Round. */
  round: number;
  /** Agent id. */
  agent: string;
  /** Call name, e.g. `"withdrawal"`. */
  call: string;
  /** Model id. */
  model: string;
  /** Texts as `[kind, text]`: `"reply"`, `"reasoning"`, `"prompt <role>"`. */
  texts: [string, string][];
}

/**
 * The searchable texts of an episode's model calls: the reply, the
 * reasoning, and with `prompts` the messages sent when the log holds them (a
 * `messages` array of `{ role, content }`, content a string or a list of
 * text parts; a system prompt logged once per episode and then referred to
 * by its hash, `content_sha256`, is indexed at the call that logged it).
 */
export function searchCalls(events: readonly LogEvent[], prompts = false): SearchCall[] {
  const out: SearchCall[] = [];
  for (const event of events) {
    if (event.type !== "llm_call") continue;
    const texts: [string, string][] = [];
    const messages = prompts && Array.isArray(event.messages) ? event.messages : [];
    for (const message of messages) {
      if (!isRecord(message)) continue;
      const text = messageText(message.content);
      if (text !== "") texts.push([`prompt ${String(message.role ?? "message")}`, text]);
    }
    if (typeof event.content === "string" && event.content !== "") {
      texts.push(["reply", event.content]);
    }
    if (typeof event.reasoning === "string" && event.reasoning !== "") {
      texts.push(["reasoning", event.reasoning]);
    }
    if (texts.length === 0) continue;
    out.push({
      seq: typeof event.seq === "number" ? event.seq : -1,
      round: typeof event.round === "number" ? event.round : 0,
      agent: String(event.agent ?? ""),
      call: String(event.call ?? ""),
      model: String(event.model ?? ""),
      texts,
    });
  }
  return out;
}

function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => isRecord(part) && typeof part.text === "string" ? part.text : "")
    .filter((text) => text !== "")
    .join("\n");
}

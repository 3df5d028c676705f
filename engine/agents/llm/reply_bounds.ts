/**
 * Bounding what an episode log keeps of a reply. A provider may answer with
 * megabytes (a runaway generation, or a hostile relay); the log keeps the
 * first `maxChars` characters of the reply and of the reasoning, and a
 * `correction` per cut text says so, with the full length and SHA-256 (the
 * whole reply stays in the response cache). The report is still read from
 * the whole reply: the agent hands the runner the JSON object it holds (so
 * the report and its field corrections are what the whole text gives), or,
 * when it holds none, the cut text (a prefix of a text without a JSON object
 * holds none either, so the neutral default and its correction are the same).
 * When the record holds a redacted copy of the reply, the report is read from
 * the reply as received (`options.unredacted`), and the log keeps the copy.
 *
 * @module
 */
import type { Correction } from "../../core/contract.ts";
import type { LlmCallRecord } from "../../core/events.ts";
import { sha256Hex } from "../../core/hash.ts";
import { extractJsonObject } from "../../core/reply_json.ts";

/** Options of {@linkcode boundReplyForLog}. */
export interface BoundReplyOptions {
  /**
   * The reply as the provider sent it, when the record holds a redacted copy
   * (`LlmRuntime.unredacted`): the report is read from it, the log keeps the
   * record's. Default the record's `content`.
   */
  unredacted?: string | null;
}

/** What {@linkcode boundReplyForLog} returns. */
export interface BoundedReply {
  /** The record to log (texts cut to the limit). */
  record: LlmCallRecord;
  /** What the runner reads the report from: the whole reply, or its JSON object, or the cut text. */
  raw: unknown;
  /** One correction per cut text. */
  notes: Correction[];
}

/**
 * Cuts a call record's reply and reasoning to `maxChars` for the log.
 *
 * @example
 * ```ts
 * import { boundReplyForLog } from "./reply_bounds.ts";
 * const content = "x".repeat(100) + '{"withdraw_probability": 20}';
 * const b = boundReplyForLog({ content, reasoning: null } as never, 50);
 * if (b.record.content!.length !== 50 || b.notes.length !== 1) throw new Error();
 * if ((b.raw as { withdraw_probability: number }).withdraw_probability !== 20) throw new Error();
 * const r = boundReplyForLog({ content: "[redacted]", reasoning: null } as never, 50, { unredacted: "prob" });
 * if (r.raw !== "prob" || r.record.content !== "[redacted]") throw new Error();
 * ```
 */
export function boundReplyForLog(
  record: LlmCallRecord,
  maxChars: number,
  options: BoundReplyOptions = {},
): BoundedReply {
  const whole = "unredacted" in options ? options.unredacted ?? null : record.content;
  const notes: Correction[] = [];
  const cut = (field: "content" | "reasoning"): string | null => {
    const text = record[field];
    if (typeof text !== "string" || text.length <= maxChars) return text ?? null;
    notes.push({
      field: `llm_call.${field}`,
      reason: `The ${field === "content" ? "reply" : "reasoning"} has ${text.length} characters, ` +
        `more than a log keeps (${maxChars}); the log holds its first ${maxChars}` +
        (field === "content" ? ", and the report was read from the whole reply" : ""),
      raw: null,
      applied: { kept_chars: maxChars, chars: text.length, sha256: sha256Hex(text) },
    });
    return text.slice(0, maxChars);
  };
  const content = cut("content");
  const reasoning = cut("reasoning");
  if (notes.length === 0) return { record, raw: whole, notes };
  const raw = content === record.content || whole === null
    ? whole
    : extractJsonObject(whole) ?? whole.slice(0, maxChars);
  return { record: { ...record, content, reasoning }, raw, notes };
}

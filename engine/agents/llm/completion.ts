/**
 * Reading a provider's chat-completion reply before anything trusts it. The
 * body is checked with zod: it must be an object with a non-empty `choices`
 * array whose first entry has a `message` object, with `content` a string or
 * null and `finish_reason` a string or null. Anything else (an HTML page, a
 * JSON error object sent with status 200, a reply without `choices`, a
 * number where the text should be) is not a reply: the runtime counts the
 * attempt as failed (kind `"invalid_response"`), retries it, and never caches
 * it.
 *
 * Token counts are read apart: `prompt_tokens` and `completion_tokens` (and
 * `completion_tokens_details.reasoning_tokens`, when given) must be
 * non-negative safe integers. When they are missing or are not, the reply is
 * still used, but its counts are recorded as 0 with a warning naming what was
 * wrong, and the call is unpriced, so a provider cannot lower (negative
 * counts) or blow up (strings, huge numbers) a run's spending.
 *
 * Reasoning text is read from `reasoning_content` or `reasoning` when it is a
 * string (providers differ; other shapes are ignored, not an error).
 *
 * A chat completion with no text to read (`content` null, missing, empty or
 * only white space, whatever its `finish_reason`: a `content_filter` refusal,
 * a `length` cut before any text) is not a reply either: it is a failed
 * attempt (retried, never cached), whose token usage, when valid, is still
 * returned so that a billed reply is counted.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import type { CachedResponse } from "./cache.ts";

const CompletionSchema = z.object({
  choices: z.array(
    z.object({
      message: z.object({ content: z.string().nullable().optional() }),
      finish_reason: z.string().nullable().optional(),
    }),
  ).min(1),
});

const Count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

const UsageSchema = z.object({
  prompt_tokens: Count,
  completion_tokens: Count,
  completion_tokens_details: z.object({ reasoning_tokens: Count.nullable().optional() })
    .nullable().optional(),
});

/** What {@linkcode parseCompletion} made of a reply body. */
export type CompletionReading =
  | {
    /** The body is a chat completion. */
    ok: true;
    /** What the toolkit keeps of it (counts 0 when `usageProblem` is set). */
    response: CachedResponse;
    /** Why the token counts were not used, or `null` when they were. */
    usageProblem: string | null;
  }
  | {
    /** The body is not a chat completion, or one with no text to read. */
    ok: false;
    /** What is wrong, in one sentence (not yet redacted). */
    problem: string;
    /**
     * The token counts the provider reported for a completion without text
     * (it may be billed), or `null` when the body is not a completion or its
     * usage is missing or invalid.
     */
    usage: CompletionUsage | null;
  };

/** Token counts of a reply, as {@linkcode parseCompletion} read them. */
export interface CompletionUsage {
  /** Prompt tokens. */
  tokens_in: number;
  /** Completion tokens. */
  tokens_out: number;
  /** Reasoning tokens. */
  tokens_reasoning: number;
}

/** A short, printable sample of an untrusted value (a string is quoted, anything else is JSON). */
function sample(value: unknown, max = 80): string {
  let text: string;
  try {
    text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  const flat = text.replace(/\s+/g, " ").trim();
  const cut = flat.length > max ? `${flat.slice(0, max)}...` : flat;
  return typeof value === "string" ? JSON.stringify(cut) : cut;
}

function clipped(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.length ? issue.path.join(".") : "the body";
  return `${path}: ${issue.message}`;
}

/**
 * Reads a reply body (as the `openai` SDK returns it: parsed JSON, or the
 * text of a non-JSON body).
 *
 * @example
 * ```ts
 * import { parseCompletion } from "./completion.ts";
 * const r = parseCompletion({ choices: [{ message: { content: "{}", reasoning_content: "hmm" },
 *   finish_reason: "stop" }], usage: { prompt_tokens: 9, completion_tokens: 3,
 *   completion_tokens_details: { reasoning_tokens: 1 } } });
 * if (!r.ok || r.response.reasoning !== "hmm" || r.response.tokens_in !== 9 || r.usageProblem) throw new Error();
 * const html = parseCompletion("<!DOCTYPE html><title>Bad gateway</title>");
 * if (html.ok || !html.problem.startsWith("The reply is not JSON")) throw new Error();
 * const neg = parseCompletion({ choices: [{ message: { content: "{}" } }],
 *   usage: { prompt_tokens: -350, completion_tokens: 3 } });
 * if (!neg.ok || neg.response.tokens_in !== 0 || !neg.usageProblem?.includes("prompt_tokens")) throw new Error();
 * const filtered = parseCompletion({ choices: [{ message: { content: null }, finish_reason: "content_filter" }],
 *   usage: { prompt_tokens: 9, completion_tokens: 0 } });
 * if (filtered.ok || filtered.usage?.tokens_in !== 9) throw new Error();
 * if (filtered.problem !== 'The reply has no text (content null, finish_reason "content_filter")') throw new Error(filtered.problem);
 * ```
 */
export function parseCompletion(body: unknown): CompletionReading {
  if (typeof body === "string" || body === undefined || body === null) {
    return {
      ok: false,
      problem: `The reply is not JSON (status 200, body ${sample(body ?? "")})`,
      usage: null,
    };
  }
  const shape = CompletionSchema.safeParse(body);
  if (!shape.success) {
    return {
      ok: false,
      problem: `The reply is not a chat completion (${firstIssue(shape.error)}; body ${
        sample(body)
      })`,
      usage: null,
    };
  }
  const choice = shape.data.choices[0];
  const message = (body as { choices: { message: Record<string, unknown> }[] }).choices[0].message;
  const reasoning = [message.reasoning_content, message.reasoning].find((r) =>
    typeof r === "string" && r.length > 0
  ) as string | undefined;
  const raw = (body as { usage?: unknown }).usage;
  const usage = UsageSchema.safeParse(raw);
  const usageProblem = raw === undefined || raw === null
    ? "the reply reports no token usage"
    : usage.success
    ? null
    : `the reply's token usage is invalid (usage.${firstIssue(usage.error)}; usage ${sample(raw)})`;
  const counts = usage.success ? usage.data : null;
  const tokens: CompletionUsage = {
    tokens_in: counts?.prompt_tokens ?? 0,
    tokens_out: counts?.completion_tokens ?? 0,
    tokens_reasoning: counts?.completion_tokens_details?.reasoning_tokens ?? 0,
  };
  const content = choice.message.content ?? null;
  const finish = choice.finish_reason ?? null;
  if (content === null || content.trim() === "") {
    const what = content === null
      ? (message.content === undefined ? "content missing" : "content null")
      : content === ""
      ? "content empty"
      : "content only white space";
    return {
      ok: false,
      problem: `The reply has no text (${what}, finish_reason ${
        finish === null ? "null" : JSON.stringify(clipped(finish))
      })`,
      usage: counts ? tokens : null,
    };
  }
  return {
    ok: true,
    response: { content, reasoning: reasoning ?? null, finish_reason: finish, ...tokens },
    usageProblem,
  };
}

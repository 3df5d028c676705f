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
    /** The body is not a chat completion. */
    ok: false;
    /** What is wrong, in one sentence (not yet redacted). */
    problem: string;
  };

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
 * ```
 */
export function parseCompletion(body: unknown): CompletionReading {
  if (typeof body === "string" || body === undefined || body === null) {
    return {
      ok: false,
      problem: `The reply is not JSON (status 200, body ${sample(body ?? "")})`,
    };
  }
  const shape = CompletionSchema.safeParse(body);
  if (!shape.success) {
    return {
      ok: false,
      problem: `The reply is not a chat completion (${firstIssue(shape.error)}; body ${
        sample(body)
      })`,
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
  return {
    ok: true,
    response: {
      content: choice.message.content ?? null,
      reasoning: reasoning ?? null,
      finish_reason: choice.finish_reason ?? null,
      tokens_in: counts?.prompt_tokens ?? 0,
      tokens_out: counts?.completion_tokens ?? 0,
      tokens_reasoning: counts?.completion_tokens_details?.reasoning_tokens ?? 0,
    },
    usageProblem,
  };
}

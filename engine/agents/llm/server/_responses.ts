// The local test double's responses: errors in the OpenAI shape, the
// responses of the injected faults, and the chat completion itself with its
// usage (prompt tokens are the prompt's characters / 4, rounded up;
// completion tokens the reply's and the reasoning's).
import { breakReply, type FaultKind } from "./faults.ts";
import type { PolicyAnswer } from "./answer.ts";
import type { Message } from "./_request.ts";

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** An error response in the OpenAI shape. */
export function apiError(
  status: number,
  message: string,
  type: string,
  code: string | null = null,
): Response {
  return json({ error: { message, type, param: null, code } }, status);
}

/** How a 429 asks the client to wait. */
export interface RetryHeaders {
  /** Wait in ms (sent as `retry-after-ms` and `Retry-After`). */
  retryAfterMs: number;
  /** `Retry-After` sent instead, with no `retry-after-ms`, when set. */
  retryAfter?: string;
}

/**
 * The response of a fault that replaces the answer (429, 500, an HTML page,
 * a 200 without `choices`), or `null` for a fault that changes the answer
 * (or holds the request, `timeout`) and for none.
 */
export function faultResponse(fault: FaultKind | null, retry: RetryHeaders): Response | null {
  switch (fault) {
    case "rate_limit":
      return json(
        {
          error: {
            message: "Rate limit reached; slow down",
            type: "rate_limit_error",
            param: null,
            code: null,
          },
        },
        429,
        retry.retryAfter !== undefined ? { "retry-after": retry.retryAfter } : {
          "retry-after-ms": String(retry.retryAfterMs),
          "retry-after": String(Math.ceil(retry.retryAfterMs / 1000)),
        },
      );
    case "server_error":
      return apiError(500, "The server had an error while processing your request", "server_error");
    case "html_body":
      return new Response(
        "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>" +
          "<body><h1>Bad Gateway</h1></body></html>",
        { status: 200, headers: { "content-type": "text/html" } },
      );
    case "no_choices":
      return json({ object: "error", message: "upstream unavailable", code: 503 });
    default:
      return null;
  }
}

/** What a chat completion is made of besides the answer. */
export interface CompletionParts {
  /** The fault that changes the answer, or `null`. */
  fault: FaultKind | null;
  /** The request's messages (for the prompt tokens). */
  messages: readonly Message[];
  /** The model asked for. */
  model: string;
  /** The bearer key the request was signed with (echoed by `echo_key`). */
  bearer: string;
  /** Characters of prose before the answer in a `huge_reply`. */
  hugeChars: number;
  /** Number of this completion (its id is `chatcmpl-local-<n>`). */
  n: number;
}

const tokens = (text: string) => Math.ceil(text.length / 4);

/** The body of a chat completion of an answer, as the fault (if any) changes it. */
export function completionBody(answer: PolicyAnswer, parts: CompletionParts): unknown {
  const { fault, bearer, hugeChars } = parts;
  const content = fault === "malformed" || fault === "truncated"
    ? breakReply(answer.content, fault)
    : fault === "echo_key"
    ? `${answer.content} (request signed with ${bearer})`
    : fault === "huge_reply"
    ? `${"I am thinking. ".repeat(Math.ceil(hugeChars / 15)).slice(0, hugeChars)}${answer.content}`
    : answer.content;
  const reasoning = fault === "echo_key"
    ? `${answer.reasoning} My key is ${bearer}.`
    : answer.reasoning;
  const promptTokens = tokens(parts.messages.map((m) => m.content ?? "").join(""));
  const reasoningTokens = tokens(reasoning);
  const completionTokens = tokens(content) + reasoningTokens;
  const usage = fault === "negative_usage"
    ? { prompt_tokens: -350, completion_tokens: -1, total_tokens: -351 }
    : fault === "string_usage"
    ? {
      prompt_tokens: String(promptTokens),
      completion_tokens: String(completionTokens),
      total_tokens: String(promptTokens + completionTokens),
    }
    : {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      completion_tokens_details: { reasoning_tokens: reasoningTokens },
    };
  return {
    id: `chatcmpl-local-${parts.n}`,
    object: "chat.completion",
    created: 0,
    model: parts.model,
    choices: [{
      index: 0,
      message: { role: "assistant", content, reasoning_content: reasoning },
      finish_reason: fault === "truncated" ? "length" : "stop",
      logprobs: null,
    }],
    usage,
  };
}

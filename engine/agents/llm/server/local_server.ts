/**
 * A local OpenAI-compatible server (`Deno.serve` on 127.0.0.1, OS-assigned
 * port) with `/v1/chat/completions` and `/v1/models`. It answers with the
 * rule-based policies of `policies.ts`, read from the prompt, and injects
 * latency, 429 (with `retry-after-ms` and `Retry-After`, or a given
 * `Retry-After`), 500, timeouts and malformed or truncated JSON at configured
 * rates, and the hostile replies a provider or relay may send: a 200 without
 * `choices`, an HTML page, negative or string token counts, the caller's key
 * echoed in the reply, a reply of megabytes. Tests, the benchmark and
 * notebooks reach it through the real `openai` SDK over HTTP; its counters are
 * the ground truth for "how many calls reached the network".
 *
 * Usage reported per reply: prompt tokens are the prompt's characters / 4
 * (rounded up), completion tokens the reply's and the reasoning's.
 *
 * @module
 */
import { canonicalJson } from "../../../core/canonical_json.ts";
import { sha256Hex } from "../../../core/hash.ts";
import {
  breakReply,
  checkFaultRates,
  drawFault,
  FAULT_KINDS,
  type FaultKind,
  type FaultRates,
} from "./faults.ts";
import { answerPrompt, LOCAL_MODELS, type ServedPolicy } from "./policies.ts";

/** Options of {@linkcode serveLocalModel}. */
export interface LocalServerOptions {
  /** Served model names and their policies. Default {@linkcode LOCAL_MODELS}. */
  models?: Readonly<Record<string, ServedPolicy>>;
  /** Latency added to every chat completion, in ms. Default 0. */
  latencyMs?: number;
  /** Fault rates per chat completion. Default none. */
  faults?: FaultRates;
  /** Wait a 429 asks for, in ms (sent as `retry-after-ms` and `Retry-After`). Default 50. */
  retryAfterMs?: number;
  /** `Retry-After` value a 429 sends instead (e.g. `"86400"` or an HTTP date), with no `retry-after-ms`. Default none. */
  retryAfter?: string;
  /** Characters of prose before the answer in a `hugeReply` fault. Default 5 MiB (5,242,880). */
  hugeReplyChars?: number;
  /** How long a timeout fault holds the request before answering 504, in ms (set it above the client's timeout). Default 10000. */
  timeoutHoldMs?: number;
  /** Bearer key the server requires, or `null` for none. Default `null`. */
  apiKey?: string | null;
  /** Seeds the mock agents' traits and the fault draws. Default 0. */
  seed?: number;
  /** Port on 127.0.0.1; 0 lets the system pick a free one. Default 0. */
  port?: number;
}

/** Counters of a local server. */
export interface ServerStats {
  /** HTTP requests received. */
  requests: number;
  /** Chat-completion requests received (faulty ones included). */
  chat: number;
  /** `/v1/models` requests received. */
  models: number;
  /** Chat completions answered with a well-formed 200 (hostile 200s such as an HTML page are not counted). */
  ok: number;
  /** Requests by response status (`"timeout"` for held requests). */
  byStatus: Record<string, number>;
  /** Faults injected, by kind. */
  faults: Record<FaultKind, number>;
}

/** A running local server. */
export interface LocalServer {
  /** Base URL for the SDK, e.g. `http://127.0.0.1:43817/v1`. */
  url: string;
  /** The port. */
  port: number;
  /** A copy of the counters. */
  stats(): ServerStats;
  /** Zeroes the counters. */
  resetStats(): void;
  /** Stops the server (held requests are released). */
  close(): Promise<void>;
}

function emptyStats(): ServerStats {
  return {
    requests: 0,
    chat: 0,
    models: 0,
    ok: 0,
    byStatus: {},
    faults: Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>,
  };
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function apiError(status: number, message: string, type: string, code: string | null = null) {
  return json({ error: { message, type, param: null, code } }, status);
}

function wait(ms: number, signals: AbortSignal[]): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signals.some((s) => s.aborted)) return resolve();
    const done = () => {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const s of signals) s.addEventListener("abort", done);
  });
}

const tokens = (text: string) => Math.ceil(text.length / 4);

/**
 * Starts a local server.
 *
 * @example
 * ```ts
 * import { serveLocalModel } from "./local_server.ts";
 * import OpenAI from "npm:openai@7.59.0";
 * const server = serveLocalModel();
 * try {
 *   const client = new OpenAI({ baseURL: server.url, apiKey: "none" });
 *   const models = await client.models.list();
 *   if (!models.data.some((m) => m.id === "coordlab-defensive")) throw new Error();
 *   if (server.stats().models !== 1) throw new Error();
 * } finally {
 *   await server.close();
 * }
 * ```
 */
export function serveLocalModel(options: LocalServerOptions = {}): LocalServer {
  const models = options.models ?? LOCAL_MODELS;
  const faults = options.faults ?? {};
  checkFaultRates(faults);
  const latency = options.latencyMs ?? 0;
  const retryAfterMs = options.retryAfterMs ?? 50;
  const hugeChars = options.hugeReplyChars ?? 5 * 1024 * 1024;
  const hold = options.timeoutHoldMs ?? 10_000;
  const seed = options.seed ?? 0;
  const key = options.apiKey ?? null;
  let stats = emptyStats();
  const attempts = new Map<string, number>();
  const closing = new AbortController();
  let served = 0;
  const count = (status: number | string) => {
    stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
  };
  const reply = (res: Response) => {
    count(res.status);
    return res;
  };

  const handler = async (req: Request): Promise<Response> => {
    stats.requests++;
    const path = new URL(req.url).pathname.replace(/\/+$/, "");
    if (key !== null) {
      const auth = req.headers.get("authorization") ?? "";
      if (auth !== `Bearer ${key}`) {
        // Like some real providers, echo what was sent: callers must redact.
        return reply(
          apiError(
            401,
            `Incorrect API key provided: ${auth.replace(/^Bearer /, "")}`,
            "invalid_request_error",
            "invalid_api_key",
          ),
        );
      }
    }
    if (req.method === "GET" && path === "/v1/models") {
      stats.models++;
      return reply(json({
        object: "list",
        data: Object.keys(models).map((id) => ({
          id,
          object: "model",
          created: 0,
          owned_by: "coordlab",
        })),
      }));
    }
    if (req.method !== "POST" || path !== "/v1/chat/completions") {
      return reply(apiError(404, `No route ${req.method} ${path}`, "invalid_request_error"));
    }
    stats.chat++;
    let body: { model?: string; messages?: { role: string; content: string }[] };
    try {
      body = await req.json();
    } catch {
      return reply(apiError(400, "The request body is not JSON", "invalid_request_error"));
    }
    const policy = body.model === undefined ? undefined : models[body.model];
    if (!policy) {
      return reply(
        apiError(
          404,
          `The model \`${body.model}\` does not exist`,
          "invalid_request_error",
          "model_not_found",
        ),
      );
    }
    if (!Array.isArray(body.messages)) {
      return reply(apiError(400, "messages must be an array", "invalid_request_error"));
    }
    const bodyKey = sha256Hex(canonicalJson(body));
    const attempt = (attempts.get(bodyKey) ?? 0) + 1;
    attempts.set(bodyKey, attempt);
    const fault = drawFault(faults, { seed, body: bodyKey, attempt });
    if (fault) stats.faults[fault]++;
    await wait(latency, [closing.signal]);
    if (fault === "rate_limit") {
      return reply(json(
        {
          error: {
            message: "Rate limit reached; slow down",
            type: "rate_limit_error",
            param: null,
            code: null,
          },
        },
        429,
        options.retryAfter !== undefined ? { "retry-after": options.retryAfter } : {
          "retry-after-ms": String(retryAfterMs),
          "retry-after": String(Math.ceil(retryAfterMs / 1000)),
        },
      ));
    }
    if (fault === "server_error") {
      return reply(
        apiError(500, "The server had an error while processing your request", "server_error"),
      );
    }
    if (fault === "timeout") {
      await wait(hold, [closing.signal]);
      count("timeout");
      return apiError(504, "Timed out", "server_error");
    }
    if (fault === "html_body") {
      return reply(
        new Response(
          "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>" +
            "<body><h1>Bad Gateway</h1></body></html>",
          { status: 200, headers: { "content-type": "text/html" } },
        ),
      );
    }
    if (fault === "no_choices") {
      return reply(json({ object: "error", message: "upstream unavailable", code: 503 }));
    }
    const answer = await answerPrompt(policy, body.messages, seed);
    const bearer = (req.headers.get("authorization") ?? "").replace(/^Bearer /, "");
    const content = fault === "malformed" || fault === "truncated"
      ? breakReply(answer.content, fault)
      : fault === "echo_key"
      ? `${answer.content} (request signed with ${bearer})`
      : fault === "huge_reply"
      ? `${
        "I am thinking. ".repeat(Math.ceil(hugeChars / 15)).slice(0, hugeChars)
      }${answer.content}`
      : answer.content;
    const reasoning = fault === "echo_key"
      ? `${answer.reasoning} My key is ${bearer}.`
      : answer.reasoning;
    const promptTokens = tokens(body.messages.map((m) => m.content ?? "").join(""));
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
    stats.ok++;
    served++;
    return reply(json({
      id: `chatcmpl-local-${served}`,
      object: "chat.completion",
      created: 0,
      model: body.model,
      choices: [{
        index: 0,
        message: { role: "assistant", content, reasoning_content: reasoning },
        finish_reason: fault === "truncated" ? "length" : "stop",
        logprobs: null,
      }],
      usage,
    }));
  };

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: options.port ?? 0, onListen: () => {} },
    handler,
  );
  const port = server.addr.port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    stats: () => structuredClone(stats),
    resetStats: () => {
      stats = emptyStats();
    },
    close: async () => {
      closing.abort();
      await server.shutdown();
    },
  };
}

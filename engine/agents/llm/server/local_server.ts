/**
 * A local OpenAI-compatible server (`Deno.serve` on 127.0.0.1, OS-assigned
 * port) with `/v1/chat/completions` and `/v1/models`: the test double of a
 * provider. It knows no game: each request carries, besides the prompt, the
 * structured call the prompt was rendered from (the `coordlab_call` field,
 * which the runtime sends to models configured with `testDouble: true`), and
 * the double answers it with the mock agents of the call's game, built from
 * the preset the served model names (`answer.ts`). A request without that
 * field gets a 400 naming it.
 *
 * It injects latency, 429 (with `retry-after-ms` and `Retry-After`, or a given
 * `Retry-After`), 500, timeouts and malformed or truncated JSON at configured
 * rates, and the hostile replies a provider or relay may send: a 200 without
 * `choices`, an HTML page, negative or string token counts, the caller's key
 * echoed in the reply, a reply of megabytes. Tests, the benchmark and
 * notebooks reach it through the real `openai` SDK over HTTP; its counters are
 * the ground truth for "how many calls reached the network".
 *
 * Usage reported per reply: prompt tokens are the prompt's characters / 4
 * (rounded up), completion tokens the reply's and the reasoning's (the
 * structured call counts in none).
 *
 * @module
 */
import { canonicalJson } from "../../../core/canonical_json.ts";
import { sha256Hex } from "../../../core/hash.ts";
import type { GameDescriptor } from "../../../core/game.ts";
import { GAMES } from "../../../games/registry.ts";
import {
  checkFaultRates,
  drawFault,
  FAULT_KINDS,
  type FaultKind,
  type FaultRates,
} from "./faults.ts";
import { answerCall, DoubleRequestError, PROBE_ANSWER, ServedGames } from "./answer.ts";
import { type ChatRequest, readChatRequest } from "./_request.ts";
import { apiError, completionBody, faultResponse, json } from "./_responses.ts";
import type { TestDoubleCall } from "../test_double.ts";

/** Options of {@linkcode serveLocalModel}. */
export interface LocalServerOptions {
  /**
   * The games served: a call names one by id, and each preset name they
   * declare (`mockPresets`) is a served model. Default: the registry's games
   * (models `"coordlab-defensive"`, `"coordlab-stay"`, `"coordlab-run"`).
   */
  games?: readonly GameDescriptor[];
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

/** A 401 for a request not signed with the server's key, echoing what was sent. */
function unauthorized(req: Request, key: string | null): Response | null {
  if (key === null) return null;
  const auth = req.headers.get("authorization") ?? "";
  if (auth === `Bearer ${key}`) return null;
  // Like some real providers, echo what was sent: callers must redact.
  return apiError(
    401,
    `Incorrect API key provided: ${auth.replace(/^Bearer /, "")}`,
    "invalid_request_error",
    "invalid_api_key",
  );
}

/** The `/v1/models` list. */
function modelList(models: readonly string[]): Response {
  return json({
    object: "list",
    data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "coordlab" })),
  });
}

/** A chat request read from the HTTP request. */
async function chatRequest(req: Request, served: ServedGames): Promise<ChatRequest> {
  let parsed: unknown;
  try {
    parsed = await req.json();
  } catch {
    throw new DoubleRequestError(400, "The request body is not JSON");
  }
  return readChatRequest(parsed, served.models);
}

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
  const faults = options.faults ?? {};
  checkFaultRates(faults);
  const latency = options.latencyMs ?? 0;
  const retry = { retryAfterMs: options.retryAfterMs ?? 50, retryAfter: options.retryAfter };
  const hugeChars = options.hugeReplyChars ?? 5 * 1024 * 1024;
  const hold = options.timeoutHoldMs ?? 10_000;
  const seed = options.seed ?? 0;
  const key = options.apiKey ?? null;
  const served = new ServedGames(options.games ?? GAMES, seed);
  let stats = emptyStats();
  const attempts = new Map<string, number>();
  const closing = new AbortController();
  let answered = 0;
  const reply = (res: Response) => {
    stats.byStatus[res.status] = (stats.byStatus[res.status] ?? 0) + 1;
    return res;
  };
  /** The fault of a request: one seeded draw per (body, attempt of that body). */
  const faultOf = (body: Record<string, unknown>): FaultKind | null => {
    const bodyKey = sha256Hex(canonicalJson(body));
    const attempt = (attempts.get(bodyKey) ?? 0) + 1;
    attempts.set(bodyKey, attempt);
    const fault = drawFault(faults, { seed, body: bodyKey, attempt });
    if (fault) stats.faults[fault]++;
    return fault;
  };

  /** Answers a chat request the double can read, after its fault if any. */
  const answer = async (req: Request, request: ChatRequest): Promise<Response> => {
    const { call } = request;
    // Resolved before the fault draw, so that a call the double cannot answer draws none.
    const agent = "probe" in call ? null : served.agentFor(call, request.model);
    const fault = faultOf(request.body);
    await wait(latency, [closing.signal]);
    const failed = faultResponse(fault, retry);
    if (failed) return reply(failed);
    if (fault === "timeout") {
      await wait(hold, [closing.signal]);
      stats.byStatus.timeout = (stats.byStatus.timeout ?? 0) + 1;
      return apiError(504, "Timed out", "server_error");
    }
    const answer = agent === null ? PROBE_ANSWER : await answerCall(agent, call as TestDoubleCall);
    stats.ok++;
    return reply(json(completionBody(answer, {
      fault,
      messages: request.messages,
      model: request.model,
      bearer: (req.headers.get("authorization") ?? "").replace(/^Bearer /, ""),
      hugeChars,
      n: ++answered,
    })));
  };

  const chat = async (req: Request): Promise<Response> => {
    stats.chat++;
    try {
      return await answer(req, await chatRequest(req, served));
    } catch (err) {
      if (!(err instanceof DoubleRequestError)) throw err;
      return reply(apiError(err.status, err.message, "invalid_request_error", err.code));
    }
  };

  const handler = (req: Request): Promise<Response> | Response => {
    stats.requests++;
    const path = new URL(req.url).pathname.replace(/\/+$/, "");
    const refused = unauthorized(req, key);
    if (refused) return reply(refused);
    if (req.method === "GET" && path === "/v1/models") {
      stats.models++;
      return reply(modelList(served.models));
    }
    if (req.method !== "POST" || path !== "/v1/chat/completions") {
      return reply(apiError(404, `No route ${req.method} ${path}`, "invalid_request_error"));
    }
    return chat(req);
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

/**
 * A billing provider double for the budget tests: an OpenAI-compatible
 * server on 127.0.0.1 that answers like the local model server (it forwards
 * to one) but bills every chat request it receives at the worst case a
 * request can cost: prompt tokens = the UTF-8 bytes of its messages as JSON,
 * completion tokens = its `max_tokens`. It bills on receipt, before it
 * answers (a request whose client was killed is still billed), and counts
 * what it billed, so a test can hold the runtime's accounting to the
 * provider's.
 *
 * @module
 */
import type { ModelConfigInput } from "../../../../engine/agents/llm/model_config.ts";
import { serveLocalModel } from "../../../../engine/agents/llm/server/local_server.ts";

/** What the double billed so far. */
export interface Billed {
  /** Chat requests received (each billed). */
  requests: number;
  /** Prompt plus completion tokens billed. */
  tokens: number;
  /** Cost billed at the double's price. */
  cost: number;
}

/** A running billing double. */
export interface BillingDouble {
  /** Base URL (ends in /v1). */
  url: string;
  /** What it billed so far. */
  billed(): Billed;
  /** Stops it. */
  close(): Promise<void>;
}

/**
 * Starts a billing double with a price per million tokens and a delay before
 * each answer: `latencyMs`, or `latencyMs(n)` for the n-th chat request (from 1).
 */
export function billingDouble(
  price: { inputPerMillion: number; outputPerMillion: number },
  latencyMs: number | ((request: number) => number) = 0,
): BillingDouble {
  const local = serveLocalModel();
  const billed: Billed = { requests: 0, tokens: 0, cost: 0 };
  const closing = new AbortController();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const text = await req.text();
    if (req.method === "POST" && path.endsWith("/chat/completions")) {
      const body = JSON.parse(text) as { messages: unknown[]; max_tokens: number };
      const tokensIn = new TextEncoder().encode(JSON.stringify(body.messages)).length;
      const tokensOut = body.max_tokens;
      billed.requests++;
      billed.tokens += tokensIn + tokensOut;
      billed.cost += (tokensIn * price.inputPerMillion + tokensOut * price.outputPerMillion) / 1e6;
      await new Promise((r) => {
        const t = setTimeout(
          r,
          typeof latencyMs === "number" ? latencyMs : latencyMs(billed.requests),
        );
        closing.signal.addEventListener("abort", () => (clearTimeout(t), r(null)));
      });
      const res = await fetch(`${local.url}/chat/completions`, { method: "POST", body: text });
      const reply = await res.json();
      reply.usage = {
        prompt_tokens: tokensIn,
        completion_tokens: tokensOut,
        total_tokens: tokensIn + tokensOut,
      };
      return Response.json(reply);
    }
    const res = await fetch(`${local.url}${path.replace(/^\/v1/, "")}`, { method: req.method });
    return new Response(await res.text(), { status: res.status, headers: res.headers });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    billed: () => ({ ...billed }),
    close: async () => {
      closing.abort();
      await server.shutdown();
      await local.close();
    },
  };
}

/** The budget tests' price: 50 a million tokens either way. */
export const PRICE = { inputPerMillion: 50, outputPerMillion: 50 };

/**
 * The budget tests' one model, "local", at the billing double's `url`: the local server's
 * "coordlab-stay" preset, completions capped at 100, priced at `price` when given.
 */
export function localModel(url: string, price?: unknown): ModelConfigInput {
  return {
    id: "local",
    baseURL: url,
    model: "coordlab-stay",
    testDouble: true,
    maxTokens: 100,
    ...(price === undefined ? {} : { price }),
  } as ModelConfigInput;
}

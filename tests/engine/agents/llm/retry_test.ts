import {
  APIConnectionError,
  APIConnectionTimeoutError,
  AuthenticationError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
} from "npm:openai@7.59.0";
import { assertEquals } from "../../../_assert.ts";
import { classifyFailure, retryAfter, retryDelay } from "../../../../engine/agents/llm/retry.ts";

const h = (o: Record<string, string> = {}) => new Headers(o);

Deno.test("classifyFailure() retries 429, 5xx, connection errors and timeouts but not 401 or 404", () => {
  const cases: [unknown, string, boolean][] = [
    [new RateLimitError(429, {}, "slow", h()), "rate_limit", true],
    [new InternalServerError(500, {}, "boom", h()), "server_error", true],
    [new InternalServerError(503, {}, "busy", h()), "server_error", true],
    [new APIConnectionTimeoutError(), "timeout", true],
    [new APIConnectionError({ message: "refused" }), "connection", true],
    [new AuthenticationError(401, {}, "bad key", h()), "client_error", false],
    [new NotFoundError(404, {}, "no model", h()), "client_error", false],
    [new SyntaxError("Unexpected end of JSON input"), "server_error", true],
  ];
  for (const [err, kind, retryable] of cases) {
    const f = classifyFailure(err);
    assertEquals([f.kind, f.retryable], [kind, retryable], String(err));
  }
});

Deno.test("retryAfter() reads retry-after-ms first, then Retry-After in seconds or as a date", () => {
  assertEquals(retryAfter(h({ "retry-after-ms": "120", "retry-after": "9" })), 120);
  assertEquals(retryAfter(h({ "retry-after": "3" })), 3000);
  const now = Date.parse("2026-01-01T00:00:00Z");
  assertEquals(retryAfter(h({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }), now), 5000);
  assertEquals(retryAfter(h({ "retry-after": "soon" })), null);
  assertEquals(retryAfter(h()), null);
});

Deno.test("retryDelay() doubles from the base with jitter in [0.5, 1) and caps at the maximum", () => {
  const opts = (u: number) => ({ baseMs: 100, maxMs: 1000, random: () => u });
  assertEquals([1, 2, 3, 4, 5].map((k) => retryDelay(k, null, opts(0))), [50, 100, 200, 400, 500]);
  assertEquals([1, 2, 3].map((k) => retryDelay(k, null, opts(0.5))), [75, 150, 300]);
});

Deno.test("retryDelay() honours the provider's Retry-After even above the cap", () => {
  assertEquals(retryDelay(1, 5000, { baseMs: 100, maxMs: 1000, random: () => 0 }), 5000);
});

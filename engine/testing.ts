/**
 * Test doubles: a local OpenAI-compatible server that answers every call of
 * every registered game as the game's rule-based agents would (from the
 * structured call a model configured with `testDouble: true` sends beside
 * the prompt), with seeded fault injection (429s, 500s, timeouts, malformed
 * and hostile replies). Tests, benches and the LLM
 * notebook use it in place of a real provider; nothing here is needed to run
 * experiments.
 *
 * @example Serve, ask once, close
 * ```ts
 * import { serveLocalModel } from "./testing.ts";
 * const server = serveLocalModel();
 * try {
 *   const res = await fetch(`${server.url}/models`);
 *   if (!res.ok) throw new Error(String(res.status));
 *   await res.body?.cancel();
 * } finally {
 *   await server.close();
 * }
 * ```
 *
 * @module
 */

// The local OpenAI-compatible server.
export {
  type LocalServer,
  type LocalServerOptions,
  serveLocalModel,
} from "./agents/llm/server/local_server.ts";
export { servedModels } from "./agents/llm/server/answer.ts";
export type { FaultRates } from "./agents/llm/server/faults.ts";

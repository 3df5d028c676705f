/**
 * What an LLM agent tells the local test double besides the prompt: the
 * structured call the prompt was rendered from, in one request-body field
 * ({@linkcode TEST_DOUBLE_FIELD}) that only the double reads. The runtime
 * sends it only to a model whose configuration says `testDouble: true`; a
 * real provider never receives it (the OpenAI API refuses unknown request
 * fields). It is not part of the prompt: it counts in no token, cost or
 * reservation, and is not in the cache key.
 *
 * @module
 */
import type { CallRequest } from "../../core/environment.ts";

/**
 * The request-body field that carries a {@linkcode TestDoubleCall} or a
 * {@linkcode TestDoubleProbe}.
 *
 * @example
 * ```ts
 * import { TEST_DOUBLE_FIELD } from "./test_double.ts";
 * if (TEST_DOUBLE_FIELD !== "coordlab_call") throw new Error();
 * ```
 */
export const TEST_DOUBLE_FIELD = "coordlab_call";

/** One agent's call: the game's id and the request its prompt was rendered from. */
export interface TestDoubleCall extends CallRequest {
  /** Game id, as in the registry (e.g. `"bank_run"`). */
  game: string;
}

/** A preflight probe's marker: a request that plays no game. */
export interface TestDoubleProbe {
  /** Always `true`. */
  probe: true;
}

/**
 * The structured call of an agent's request.
 *
 * @example
 * ```ts
 * import { testDoubleCall } from "./test_double.ts";
 * const c = testDoubleCall("bank_run", {
 *   agent: "dep_01", role: "depositor", call: "withdrawal", round: 1, step: "withdrawal", view: {},
 * });
 * if (c.game !== "bank_run" || c.agent !== "dep_01") throw new Error();
 * ```
 */
export function testDoubleCall(game: string, request: CallRequest): TestDoubleCall {
  const { agent, role, call, round, step, view } = request;
  return { game, agent, role, call, round, step, view };
}

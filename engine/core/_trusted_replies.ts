/**
 * The agents whose replies the engine may take as reports without copying
 * them: the project's own mock agents (`engine/agents/mock/`), which build a
 * fresh reply object for every call and never touch it again. Only their
 * replies that are already exact (`Contract.isExact`: the contract's fields,
 * in order, each valid as it is) are taken as they are; any other reply of
 * theirs, and every reply of any other agent (LLM, replay, a user's), is
 * parsed and repaired with its corrections logged, as before. The outcome and
 * the log are the same either way (`parse` of an exact reply is an equal
 * value with no corrections); what is saved is the copy and the repair pass.
 *
 * The mark is a private class field added to the agent object: it cannot be
 * copied by spreading the agent into another object or faked by a prototype,
 * so a user's agent built from a mock one is parsed. Private to the engine:
 * it is not exported from any entry point.
 *
 * @module
 */

// A base "class" whose constructor returns its argument, so that `new Mark(o)`
// adds the private field to `o` itself.
const Identity = function (o: object) {
  return o;
} as unknown as new (o: object) => object;

class Mark extends Identity {
  #trusted = true;
  static has(o: object): boolean {
    return #trusted in o;
  }
}

/**
 * Marks an agent built by a mock factory as one whose exact replies need no
 * copy; returns it.
 *
 * @example
 * ```ts
 * import { isTrusted, trustReplies } from "./_trusted_replies.ts";
 * const a = trustReplies({ policy: "mock:x", decide: () => ({}) });
 * if (!isTrusted(a) || isTrusted({ ...a })) throw new Error();
 * ```
 */
export function trustReplies<A extends object>(agent: A): A {
  if (!Mark.has(agent)) new Mark(agent);
  return agent;
}

/**
 * Whether an agent was marked by {@linkcode trustReplies} (a policy name is
 * not enough: an agent calling itself `"mock:..."` is still parsed).
 *
 * @example
 * ```ts
 * import { isTrusted } from "./_trusted_replies.ts";
 * if (isTrusted({ policy: "mock:defensive", decide: () => 0 })) throw new Error();
 * ```
 */
export function isTrusted(agent: object): boolean {
  return Mark.has(agent);
}

/**
 * The Stag Hunt state's canonical JSON, written field by field (see
 * `../core/state_json.ts`): the rounds and their turns, the players and the
 * parameters directly; the payoff totals and a pending turn by the generic
 * writer. A state of another shape gives `undefined`, and the checkpoint then
 * uses the generic writer.
 *
 * @module
 */
import { any, bool, fields, list, num, shapedJson, str } from "../../core/state_json.ts";
import type { StagHuntState } from "./state.ts";

/**
 * `canonicalJson(state)`, or `undefined` for a state of an unexpected shape.
 *
 * @example
 * ```ts
 * import { stagHuntStateJson } from "./state_json.ts";
 * import { initialStagHuntState } from "./state.ts";
 * import { parseStagHuntParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * import { canonicalJson } from "../../core/canonical_json.ts";
 * const s = initialStagHuntState(parseStagHuntParams({ F: 2 }),
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "corrupted" }));
 * if (stagHuntStateJson(s) !== canonicalJson(s)) throw new Error();
 * ```
 */
export function stagHuntStateJson(state: StagHuntState): string | undefined {
  return shapedJson(state, write);
}

function write(state: StagHuntState): string {
  const s = fields(state, 8);
  return `{"corrupted":${list(s.corrupted, str)},"done":${bool(s.done)},` +
    `"params":${params(s.params)},"payoffs":${any(s.payoffs)},"pending":${any(s.pending)},` +
    `"players":${list(s.players, str)},"round":${num(s.round)},"rounds":${list(s.rounds, round)}}`;
}

function params(x: unknown): string {
  const p = fields(x, 6);
  const q = fields(p.payoffs, 4);
  return `{"F":${num(p.F)},"M":${num(p.M)},"N":${num(p.N)},"T":${num(p.T)},` +
    `"corruption":${str(p.corruption)},"payoffs":{"HF":${num(q.HF)},"HS":${num(q.HS)},` +
    `"RF":${num(q.RF)},"RS":${num(q.RS)}}}`;
}

function round(x: unknown): string {
  const r = fields(x, 3);
  return `{"outcome":${r.outcome === null ? "null" : outcome(r.outcome)},"round":${
    num(r.round)
  },"turns":${list(r.turns, turn)}}`;
}

function outcome(x: unknown): string {
  const o = fields(x, 4);
  return `{"preflipStag":${num(o.preflipStag)},"preflipSuccess":${bool(o.preflipSuccess)},` +
    `"publicStag":${num(o.publicStag)},"publicSuccess":${bool(o.publicSuccess)}}`;
}

function turn(x: unknown): string {
  const t = fields(x, 8);
  return `{"agent":${str(t.agent)},"confidence":${num(t.confidence)},` +
    `"corrupted":${bool(t.corrupted)},"originalAction":${str(t.originalAction)},` +
    `"originalJustification":${str(t.originalJustification)},"position":${num(t.position)},` +
    `"publicAction":${str(t.publicAction)},"publicJustification":${str(t.publicJustification)}}`;
}

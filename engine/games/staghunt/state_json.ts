/**
 * The Stag Hunt state's canonical JSON, written field by field (see
 * `../core/state_json.ts`): the rounds and their turns, the players and the
 * parameters directly; the payoff totals and a pending turn by the generic
 * writer. A state of another shape gives `undefined`, and the checkpoint then
 * uses the generic writer. From `"lines-v7"` on a checkpoint holds the state
 * without its rounds ({@linkcode stagHuntCheckpointJson}).
 *
 * @module
 */
import {
  any,
  bool,
  fields,
  list,
  NOT_THIS_SHAPE,
  num,
  shapedJson,
  str,
} from "../../core/state_json.ts";
import { canonicalJson } from "../../core/canonical_json.ts";
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

/**
 * The state a checkpoint holds from `"lines-v7"` on
 * (`Environment.checkpointState`): `canonicalJson` of the state with its
 * `rounds` left out (each round's turns and outcome are its `turn` and
 * `round_outcome` events), written field by field, or by the generic writer
 * for a state of another shape.
 *
 * @example
 * ```ts
 * import { stagHuntCheckpointJson } from "./state_json.ts";
 * import { initialStagHuntState } from "./state.ts";
 * import { parseStagHuntParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * import { canonicalJson } from "../../core/canonical_json.ts";
 * const s = initialStagHuntState(parseStagHuntParams({ N: 3, M: 2, F: 1 }),
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "corrupted" }));
 * s.rounds.push({ round: 1, turns: [], outcome: null });
 * const { rounds: _r, ...rest } = s;
 * if (stagHuntCheckpointJson(s) !== canonicalJson(rest)) throw new Error();
 * if (stagHuntCheckpointJson({ ...s, extra: 1 } as never) !== canonicalJson({ ...rest, extra: 1 })) {
 *   throw new Error();
 * }
 * ```
 */
export function stagHuntCheckpointJson(state: StagHuntState): string {
  return shapedJson(state, (s) => head(s) + "}") ?? canonicalJson(withoutRounds(state));
}

/** The state with its `rounds` left out (a copy; the state is not changed). */
function withoutRounds(state: StagHuntState): unknown {
  if (typeof state !== "object" || state === null) return state;
  const { rounds: _r, ...rest } = state;
  return rest;
}

function write(state: StagHuntState): string {
  return `${head(state)},"rounds":${rounds(state.rounds)}}`;
}

/** The state's members before `rounds` (with the opening brace), after checking its shape. */
function head(state: StagHuntState): string {
  const s = fields(state, 8);
  if (!Object.prototype.propertyIsEnumerable.call(s, "rounds")) throw NOT_THIS_SHAPE;
  return `{"corrupted":${list(s.corrupted, str)},"done":${bool(s.done)},` +
    `"params":${params(s.params)},"payoffs":${any(s.payoffs)},"pending":${any(s.pending)},` +
    `"players":${list(s.players, str)},"round":${num(s.round)}`;
}

function params(x: unknown): string {
  const p = fields(x, 6);
  const q = fields(p.payoffs, 4);
  return `{"F":${num(p.F)},"M":${num(p.M)},"N":${num(p.N)},"T":${num(p.T)},` +
    `"corruption":${str(p.corruption)},"payoffs":{"HF":${num(q.HF)},"HS":${num(q.HS)},` +
    `"RF":${num(q.RF)},"RS":${num(q.RS)}}}`;
}

// The texts of the settled rounds of the state last written, by position in its `rounds`
// (a settled round is written again by every later checkpoint of its episode; one state's
// only, so nothing is kept past the next episode, and no weak map is paid for).
let keptFor: unknown = undefined;
let kept: (KeptRound | undefined)[] = [];

function rounds(x: unknown): string {
  if (!Array.isArray(x)) throw NOT_THIS_SHAPE;
  if (x !== keptFor) {
    keptFor = x;
    kept = [];
  }
  if (x.length === 0) return "[]";
  let out = "[" + round(x[0], 0);
  for (let i = 1; i < x.length; i++) out += "," + round(x[i], i);
  return out + "]";
}

function round(x: unknown, i: number): string {
  const r = fields(x, 3);
  // A settled round's kept text is used while every value it was written from is the same
  // (read again and compared); an open round is written afresh.
  if (r.outcome === null) return roundText(r);
  const k = kept[i];
  if (k !== undefined && k.record === r && unchanged(r, k)) return k.text;
  const text = roundText(r);
  // Flat once: every later state's text copies it, where a concatenation would be walked
  // piece by piece again each time that text is flattened (to be hashed and encoded).
  text.charCodeAt(0);
  kept[i] = keptRound(r, text);
  return text;
}

function roundText(r: Record<string, unknown>): string {
  return `{"outcome":${r.outcome === null ? "null" : outcome(r.outcome)},"round":${
    num(r.round)
  },"turns":${list(r.turns, turn)}}`;
}

/** A settled round's text, with the objects and the values it was written from. */
interface KeptRound {
  record: object;
  text: string;
  round: unknown;
  outcome: Record<string, unknown>;
  outcomeValues: unknown[];
  turns: unknown[];
  turnObjects: Record<string, unknown>[];
  turnValues: unknown[];
}

const OUTCOME_KEYS = ["preflipStag", "preflipSuccess", "publicStag", "publicSuccess"] as const;
const TURN_KEYS = [
  "agent",
  "confidence",
  "corrupted",
  "originalAction",
  "originalJustification",
  "position",
  "publicAction",
  "publicJustification",
] as const;

function keptRound(r: Record<string, unknown>, text: string): KeptRound {
  const o = r.outcome as Record<string, unknown>;
  const turns = r.turns as Record<string, unknown>[];
  const turnValues: unknown[] = [];
  for (const t of turns) for (const k of TURN_KEYS) turnValues.push(t[k]);
  return {
    record: r,
    text,
    round: r.round,
    outcome: o,
    outcomeValues: OUTCOME_KEYS.map((k) => o[k]),
    turns,
    turnObjects: turns.slice(),
    turnValues,
  };
}

/**
 * Whether a round holds what its kept text was written from: the same objects,
 * each with the same number of keys and, under the keys the text names, the
 * same values (`===`, so a string equal to the one written, a number of the
 * same text; `-0` and `0` are both written `0`).
 */
function unchanged(r: Record<string, unknown>, kept: KeptRound): boolean {
  if (r.round !== kept.round || r.outcome !== kept.outcome || r.turns !== kept.turns) return false;
  const o = fields(r.outcome, 4);
  for (let i = 0; i < OUTCOME_KEYS.length; i++) {
    if (o[OUTCOME_KEYS[i]] !== kept.outcomeValues[i]) return false;
  }
  const turns = kept.turns;
  const objects = kept.turnObjects;
  if (!Array.isArray(turns) || turns.length !== objects.length) return false;
  const values = kept.turnValues;
  let v = 0;
  for (let i = 0; i < objects.length; i++) {
    if (turns[i] !== objects[i]) return false;
    const t = fields(objects[i], 8);
    for (let k = 0; k < TURN_KEYS.length; k++) if (t[TURN_KEYS[k]] !== values[v++]) return false;
  }
  return true;
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

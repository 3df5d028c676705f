/**
 * The bank-run state's canonical JSON, written field by field (see
 * `../../core/state_json.ts`): the balance sheet, the depositors and their
 * histories, the disclosed snapshot, the last settlement and the parameters
 * are written directly; the mechanism profile, the inbox, pending reports and
 * a failure (empty or `null` in most rounds) by the generic writer. A state
 * of another shape gives `undefined`, and the checkpoint then uses the
 * generic writer.
 *
 * @module
 */
import { canonicalJson } from "../../core/canonical_json.ts";
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
import type { BankRunState } from "./state.ts";

/**
 * `canonicalJson(state)`, or `undefined` for a state of an unexpected shape.
 *
 * @example
 * ```ts
 * import { bankRunStateJson } from "./state_json.ts";
 * import { initialBankRunState } from "./state.ts";
 * import { parseBankRunParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * import { canonicalJson } from "../../core/canonical_json.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M0",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * if (bankRunStateJson(s) !== canonicalJson(s)) throw new Error();
 * if (bankRunStateJson({ ...s, extra: 1 } as never) !== undefined) throw new Error();
 * ```
 */
export function bankRunStateJson(state: BankRunState): string | undefined {
  return shapedJson(state, write);
}

/**
 * The state a checkpoint holds from `"lines-v4"` on (`Environment.checkpointState`):
 * `canonicalJson` of the state with each depositor's `history` left out (its
 * records are the round's decision events), written field by field, or by
 * the generic writer for a state of another shape:
 * {@linkcode bankRunCheckpointParts} joined.
 *
 * @example
 * ```ts
 * import { bankRunCheckpointJson } from "./state_json.ts";
 * import { initialBankRunState } from "./state.ts";
 * import { parseBankRunParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M0",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * s.depositors[0].history.push({ round: 1, reported: 5, realized: true, processed: 5 });
 * const text = bankRunCheckpointJson(s);
 * if (text.includes("history") || text !== bankRunCheckpointJson({ ...s, extra: 1 } as never).replace(',"extra":1', "")) {
 *   throw new Error(text);
 * }
 * ```
 */
export function bankRunCheckpointJson(state: BankRunState): string {
  return bankRunCheckpointParts(state).join(",");
}

/**
 * {@linkcode bankRunCheckpointJson}'s text in parts, joined by commas
 * (`CheckpointState.parts`): the balance sheet, each depositor (the first
 * after `"depositors":[`, the last before `]`), the disclosed snapshot, the
 * flags and the inbox, the last settlement, the mechanism profile, the
 * parameters, the pending reports and the round. A depositor, the flags,
 * the profile or the parameters whose values are those (`===`) they were
 * last written from are the same string again, so that the checkpoint's
 * delta skips them without reading them (most depositors, from a round to
 * the next). A state of another shape is one part, by the generic writer.
 * A fresh array each call.
 *
 * @example
 * ```ts
 * import { bankRunCheckpointParts } from "./state_json.ts";
 * import { initialBankRunState } from "./state.ts";
 * import { parseBankRunParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * import { canonicalJson } from "../../core/canonical_json.ts";
 * const s = initialBankRunState(parseBankRunParams({ depositors: 3 }), "M0",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * const parts = bankRunCheckpointParts(s);
 * const { depositors, ...rest } = s;
 * const expected = canonicalJson({ ...rest, depositors: depositors.map(({ history: _h, ...d }) => d) });
 * if (parts.length !== 11 || parts.join(",") !== expected) throw new Error(parts.join(","));
 * if (parts[1] !== '"depositors":[{"balance":' + s.depositors[0].balance + ',"id":"dep_01","initial":' +
 *   s.depositors[0].initial + ',"withdrawn":0}') throw new Error(parts[1]);
 * s.round = 2;
 * const next = bankRunCheckpointParts(s);
 * if (next[1] !== parts[1] || next[10] !== '"round":2}') throw new Error(next[10]);
 * ```
 */
export function bankRunCheckpointParts(state: BankRunState): string[] {
  try {
    return checkpointParts(state);
  } catch (err) {
    if (err !== NOT_THIS_SHAPE) throw err;
    return [canonicalJson(withoutHistories(state))];
  }
}

/** The parts of a state of the bank run's shape (see {@linkcode bankRunCheckpointParts}). */
function checkpointParts(state: BankRunState): string[] {
  const s = fields(state, 17);
  const out = [
    flat(
      `{"assets":${num(s.assets)},"assetsSold":${num(s.assetsSold)},"cash":${
        num(s.cash)
      },"cumulativeWithdrawn":${num(s.cumulativeWithdrawn)}`,
    ),
  ];
  depositorParts(s.depositors, out);
  out.push(
    flat(`"disclosed":${disclosed(s.disclosed)}`),
    flagsPart(s.done, nullOr(s.failure), emptyOr(s.inbox)),
    flat(`"last":${last(s.last)}`),
    profilePart(nullOr(s.m1), nullOr(s.m2), nullOr(s.m3), s.mechanism),
    paramsPart(s.params),
    flat(`"pending":${emptyOr(s.pending)}`),
    `"round":${num(s.round)}}`,
  );
  return out;
}

/**
 * A part as one flat string (a text that starts with no white space, as
 * every part does, is its own `trimStart()`, which the engine returns
 * flattened): joining flat parts is a copy of each, where a concatenation
 * of concatenations is walked piece by piece when it is first read.
 */
function flat(text: string): string {
  return text.trimStart();
}

/** `null`, or any JSON value by the generic writer. */
function nullOr(x: unknown): string {
  return x === null ? "null" : any(x);
}

/** `{}` or `[]` for an empty plain object or array, or any JSON value by the generic writer. */
function emptyOr(x: unknown): string {
  if (typeof x === "object" && x !== null) {
    if (Array.isArray(x)) {
      if (x.length === 0) return "[]";
    } else if (Object.getPrototypeOf(x) === Object.prototype) {
      let empty = true;
      for (const _ in x) {
        empty = false;
        break;
      }
      if (empty) return "{}";
    }
  }
  return any(x);
}

/** Values a part was last written from, and its text. */
interface LastPart {
  a: unknown;
  b: unknown;
  c: unknown;
  d: unknown;
  text: string;
}

const NO_PART: LastPart = { a: NaN, b: NaN, c: NaN, d: NaN, text: "" };
let lastFlags = NO_PART;
let lastProfile = NO_PART;
let lastParamsPart = { params: "", text: "" };

/** `"done":..,"failure":..,"inbox":..`, the same string as last for the same texts. */
function flagsPart(done: unknown, failure: string, inbox: string): string {
  const m = lastFlags;
  if (m.a === done && m.b === failure && m.c === inbox) return m.text;
  const text = flat(`"done":${bool(done)},"failure":${failure},"inbox":${inbox}`);
  lastFlags = { a: done, b: failure, c: inbox, d: undefined, text };
  return text;
}

/** `"m1":..,"m2":..,"m3":..,"mechanism":..`, the same string as last for the same texts. */
function profilePart(m1: string, m2: string, m3: string, mechanism: unknown): string {
  const m = lastProfile;
  if (m.a === m1 && m.b === m2 && m.c === m3 && m.d === mechanism) return m.text;
  const text = flat(`"m1":${m1},"m2":${m2},"m3":${m3},"mechanism":${str(mechanism)}`);
  lastProfile = { a: m1, b: m2, c: m3, d: mechanism, text };
  return text;
}

/** `"params":{...}`, the same string while the parameters' text is. */
function paramsPart(x: unknown): string {
  const p = params(x);
  if (p !== lastParamsPart.params) lastParamsPart = { params: p, text: flat(`"params":${p}`) };
  return lastParamsPart.text;
}

/**
 * The depositors' parts (without their histories), one a depositor, the
 * first after `"depositors":[` and the last before `]`. A depositor whose
 * four values are those (`===`) of the one written last at its place in
 * the list (most of them, from one checkpoint to the next) is that string
 * again, without its numbers' text being made again.
 */
function depositorParts(x: unknown, out: string[]): void {
  if (!Array.isArray(x)) throw NOT_THIS_SHAPE;
  const n = x.length;
  if (n === 0) {
    out.push('"depositors":[]');
    return;
  }
  for (let i = 0; i < n; i++) {
    const m = depositorText(x[i], i);
    if (n === 1) out.push(flat(`"depositors":[${m.text}]`));
    else if (i === 0) out.push(m.open ??= flat(`"depositors":[${m.text}`));
    else if (i === n - 1) out.push(m.close ??= flat(`${m.text}]`));
    else out.push(m.text);
  }
}

/** A depositor without its history, as written last at place `i` for the same values. */
function depositorText(x: unknown, i: number): LastDepositor {
  const d = fields(x, 5);
  // Its fifth member is the history left out: another one is written by the generic writer.
  if (!isEnumerable.call(d, "history")) throw NOT_THIS_SHAPE;
  const { balance, id, initial, withdrawn } = d;
  const m = lastDepositors[i];
  if (
    m !== undefined && m.balance === balance && m.withdrawn === withdrawn && m.id === id &&
    m.initial === initial
  ) {
    return m;
  }
  const next: LastDepositor = {
    balance,
    id,
    initial,
    withdrawn,
    text: flat(
      `{"balance":${num(balance)},"id":${str(id)},"initial":${num(initial)},"withdrawn":${
        num(withdrawn)
      }}`,
    ),
    open: undefined,
    close: undefined,
  };
  if (i < LAST_DEPOSITORS) lastDepositors[i] = next;
  return next;
}

/** The state with each depositor's `history` left out (a copy; the state is not changed). */
function withoutHistories(state: BankRunState): unknown {
  const depositors = (state as { depositors?: unknown }).depositors;
  if (!Array.isArray(depositors)) return state;
  return {
    ...state,
    depositors: depositors.map((d) => {
      if (typeof d !== "object" || d === null) return d;
      const { history: _h, ...rest } = d as Record<string, unknown>;
      return rest;
    }),
  };
}

function write(state: BankRunState): string {
  const s = fields(state, 17);
  return `{"assets":${num(s.assets)},"assetsSold":${num(s.assetsSold)},"cash":${num(s.cash)},` +
    `"cumulativeWithdrawn":${num(s.cumulativeWithdrawn)},"depositors":${
      list(s.depositors, depositor)
    },"disclosed":${disclosed(s.disclosed)},"done":${bool(s.done)},"failure":${any(s.failure)},` +
    `"inbox":${any(s.inbox)},"last":${last(s.last)},"m1":${any(s.m1)},"m2":${any(s.m2)},` +
    `"m3":${any(s.m3)},"mechanism":${str(s.mechanism)},"params":${params(s.params)},` +
    `"pending":${any(s.pending)},"round":${num(s.round)}}`;
}

function depositor(x: unknown): string {
  const d = fields(x, 5);
  return `{"balance":${num(d.balance)},"history":${list(d.history, decision)},"id":${str(d.id)},` +
    `"initial":${num(d.initial)},"withdrawn":${num(d.withdrawn)}}`;
}

/** A depositor's text as last written at one place of the list, and the values it was written from. */
interface LastDepositor {
  balance: unknown;
  id: unknown;
  initial: unknown;
  withdrawn: unknown;
  text: string;
  /** `"depositors":[` and the balance's part (the first depositor's), once made. */
  open: string | undefined;
  /** The withdrawn part and `]` (the last depositor's), once made. */
  close: string | undefined;
}

const isEnumerable = Object.prototype.propertyIsEnumerable;

/** The places of the list whose last depositor is kept (the rest are written each time). */
const LAST_DEPOSITORS = 1024;
const lastDepositors: (LastDepositor | undefined)[] = [];

function decision(x: unknown): string {
  const h = fields(x, 4);
  return `{"processed":${num(h.processed)},"realized":${bool(h.realized)},` +
    `"reported":${num(h.reported)},"round":${num(h.round)}}`;
}

function disclosed(x: unknown): string {
  const d = fields(x, 5);
  return `{"assets":${num(d.assets)},"cash":${num(d.cash)},` +
    `"depositsRemaining":${num(d.depositsRemaining)},"fractionRedeemed":${
      num(d.fractionRedeemed)
    },"outstandingCompensation":${num(d.outstandingCompensation)}}`;
}

function last(x: unknown): string {
  const l = fields(x, 5);
  return `{"depositsAtStart":${num(l.depositsAtStart)},"expired":${num(l.expired)},` +
    `"processed":${num(l.processed)},"requested":${num(l.requested)},"sold":${num(l.sold)}}`;
}

/**
 * The parameters, as written last when every value is the same (`===`): the
 * same values give the same text (they do not change within an episode).
 */
function params(x: unknown): string {
  const p = fields(x, 11);
  const values = lastParams.values;
  let same = values.length === 11;
  let i = 0;
  for (const k of PARAM_KEYS) {
    const v = p[k];
    if (same && values[i] !== v) same = false;
    scratchParams[i++] = v;
  }
  if (same) return lastParams.text;
  const text = paramsText(p);
  lastParams = { values: scratchParams.slice(), text };
  return text;
}

/** The parameters' names, in the order {@linkcode paramsText} writes them. */
const PARAM_KEYS = [
  "assetReturn",
  "capacity",
  "capacityRule",
  "depositSplit",
  "depositYield",
  "depositors",
  "earlySalePrice",
  "horizon",
  "initialCash",
  "longTermAssets",
  "totalDeposits",
] as const;
let lastParams: { values: unknown[]; text: string } = { values: [], text: "" };
const scratchParams: unknown[] = new Array(11);

function paramsText(p: Record<string, unknown>): string {
  return `{"assetReturn":${num(p.assetReturn)},"capacity":${num(p.capacity)},` +
    `"capacityRule":${str(p.capacityRule)},"depositSplit":${str(p.depositSplit)},` +
    `"depositYield":${num(p.depositYield)},"depositors":${num(p.depositors)},` +
    `"earlySalePrice":${num(p.earlySalePrice)},"horizon":${num(p.horizon)},` +
    `"initialCash":${num(p.initialCash)},"longTermAssets":${num(p.longTermAssets)},` +
    `"totalDeposits":${num(p.totalDeposits)}}`;
}

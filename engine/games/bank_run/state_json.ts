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
  return shapedJson(state, (s) => write(s, (x) => list(x, depositor)));
}

/**
 * The state a checkpoint holds from `"lines-v4"` on (`Environment.checkpointState`):
 * `canonicalJson` of the state with each depositor's `history` left out (its
 * records are the round's decision events), written field by field, or by
 * the generic writer for a state of another shape.
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
  return shapedJson(state, (s) => write(s, depositorsWithoutHistory)) ??
    canonicalJson(withoutHistories(state));
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

function write(state: BankRunState, depositors: (x: unknown) => string): string {
  const s = fields(state, 17);
  return `{"assets":${num(s.assets)},"assetsSold":${num(s.assetsSold)},"cash":${num(s.cash)},` +
    `"cumulativeWithdrawn":${num(s.cumulativeWithdrawn)},"depositors":${
      depositors(s.depositors)
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

/**
 * The depositors without their histories, as `list(x, ...)` writes them: a
 * depositor whose four values are those (`===`) of the one written last at
 * its place in the list (most of them, from one checkpoint to the next) gets
 * that text again, which the same values give, without their numbers'
 * text being made again.
 */
function depositorsWithoutHistory(x: unknown): string {
  if (!Array.isArray(x)) throw NOT_THIS_SHAPE;
  if (x.length === 0) return "[]";
  let out = "[";
  for (let i = 0; i < x.length; i++) {
    const d = fields(x[i], 5);
    // Its fifth member is the history left out: another one is written by the generic writer.
    if (!Object.prototype.propertyIsEnumerable.call(d, "history")) throw NOT_THIS_SHAPE;
    const { balance, id, initial, withdrawn } = d;
    let m = lastDepositors[i];
    if (
      m === undefined || m.balance !== balance || m.withdrawn !== withdrawn || m.id !== id ||
      m.initial !== initial
    ) {
      const text = `{"balance":${num(balance)},"id":${str(id)},` +
        `"initial":${num(initial)},"withdrawn":${num(withdrawn)}}`;
      m = { balance, id, initial, withdrawn, text };
      if (i < LAST_DEPOSITORS) lastDepositors[i] = m;
    }
    out += i === 0 ? m.text : "," + m.text;
  }
  return out + "]";
}

/** A depositor's text as last written at one place of the list, and the values it was written from. */
interface LastDepositor {
  balance: unknown;
  id: unknown;
  initial: unknown;
  withdrawn: unknown;
  text: string;
}

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

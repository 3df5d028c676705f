/**
 * Round-level measures of the minimum-effort game, for tables and charts of
 * effort and minimum by round: per round the minimum effort, the mean
 * effort, the modal effort, the mean payoff and how many players chose each
 * effort. Pure functions of efforts and payoffs, or of an episode's events.
 *
 * The environment writes them as the `metrics` of each round's `disclosure`
 * event, so the loader's `rounds` frame has them as columns (one row per
 * episode and round); {@linkcode roundMeasureRows} computes the same rows
 * again from the `round_outcome` events, which hold every effort and payoff.
 *
 * Choice: the modal effort of a round with several most frequent efforts is
 * the lowest of them.
 *
 * @module
 */
import type { EngineEvent } from "../../core/events.ts";

/** A measure column: its name (as in the `rounds` frame) and its display label. */
export interface RoundMeasureColumn {
  /** Column name, snake_case. */
  column: string;
  /** Display label. */
  label: string;
}

/**
 * The measures every round has, in display order (the per-effort counts
 * follow, see {@linkcode effortCountColumns}).
 *
 * @example
 * ```ts
 * import { ROUND_MEASURE_COLUMNS } from "./measures.ts";
 * if (ROUND_MEASURE_COLUMNS.map((c) => c.column).join() !== "minimum,mean_effort,modal_effort,mean_payoff") {
 *   throw new Error();
 * }
 * ```
 */
export const ROUND_MEASURE_COLUMNS: readonly RoundMeasureColumn[] = Object.freeze([
  { column: "minimum", label: "Minimum effort" },
  { column: "mean_effort", label: "Mean effort" },
  { column: "modal_effort", label: "Modal effort" },
  { column: "mean_payoff", label: "Mean payoff ($)" },
]);

/**
 * The per-effort count columns of a game whose highest effort is `efforts`:
 * `effort_1` ... `effort_E`, "Players at effort k".
 *
 * @example
 * ```ts
 * import { effortCountColumns } from "./measures.ts";
 * const c = effortCountColumns(7);
 * if (c.length !== 7 || c[6].column !== "effort_7" || c[0].label !== "Players at effort 1") throw new Error();
 * ```
 */
export function effortCountColumns(efforts: number): RoundMeasureColumn[] {
  return Array.from({ length: efforts }, (_, i) => ({
    column: `effort_${i + 1}`,
    label: `Players at effort ${i + 1}`,
  }));
}

/**
 * Every measure of one round, by column: the minimum, mean and modal
 * effort, the mean payoff, and the count at each effort 1..`efforts`.
 *
 * @param efforts The efforts played, one per player.
 * @param payoffs The payoffs of the round, one per player.
 * @param highest The game's highest effort E.
 * @returns The measures, in the order of {@linkcode ROUND_MEASURE_COLUMNS} then the counts.
 * @throws {RangeError} For no efforts, unequal lengths, or an effort outside 1..E.
 *
 * @example
 * ```ts
 * import { roundMeasures } from "./measures.ts";
 * const m = roundMeasures([7, 3, 3, 5], [0.2, 0.6, 0.6, 0.4], 7);
 * if (m.minimum !== 3 || m.mean_effort !== 4.5 || m.modal_effort !== 3 || m.effort_3 !== 2 || m.effort_1 !== 0) {
 *   throw new Error(JSON.stringify(m));
 * }
 * ```
 */
export function roundMeasures(
  efforts: readonly number[],
  payoffs: readonly number[],
  highest: number,
): Record<string, number> {
  if (efforts.length === 0) throw new RangeError("A round needs at least one effort");
  if (payoffs.length !== efforts.length) {
    throw new RangeError(
      `A round has ${efforts.length} efforts but ${payoffs.length} payoffs: one each per player`,
    );
  }
  const counts = new Array<number>(highest).fill(0);
  let minimum = Infinity;
  let effortSum = 0;
  for (const e of efforts) {
    if (!Number.isInteger(e) || e < 1 || e > highest) {
      throw new RangeError(`Effort ${e} is not an integer in 1..${highest}`);
    }
    counts[e - 1]++;
    if (e < minimum) minimum = e;
    effortSum += e;
  }
  let modal = 1;
  for (let k = 2; k <= highest; k++) if (counts[k - 1] > counts[modal - 1]) modal = k;
  let payoffSum = 0;
  for (const x of payoffs) payoffSum += x;
  const out: Record<string, number> = {
    minimum,
    mean_effort: effortSum / efforts.length,
    modal_effort: modal,
    mean_payoff: payoffSum / payoffs.length,
  };
  for (let k = 1; k <= highest; k++) out[`effort_${k}`] = counts[k - 1];
  return out;
}

/** One round's measures, with its number. */
export type RoundMeasureRow = { round: number } & Record<string, number>;

/**
 * The round measures of one minimum-effort episode, from its events: one
 * row per settled round (`transition` events of kind `round_outcome`), in
 * round order.
 *
 * @param events The episode's events (its log), `episode_start` included.
 * @returns One row per round: `round` and every measure column.
 * @throws {TypeError} If the events hold no `episode_start`, or one of another game.
 *
 * @example
 * ```ts
 * import { roundMeasureRows } from "./measures.ts";
 * const events = [
 *   { type: "episode_start", env: "min_effort", params: { efforts: 3 } },
 *   { type: "transition", kind: "round_outcome", round: 1, minimum: 2,
 *     efforts: { p01: 2, p02: 3 }, payoffs: { p01: 1, p02: 0.9 } },
 * ] as never;
 * const [row] = roundMeasureRows(events);
 * if (row.round !== 1 || row.minimum !== 2 || row.effort_3 !== 1 || row.mean_payoff !== 0.95) throw new Error();
 * ```
 */
export function roundMeasureRows(events: readonly EngineEvent[]): RoundMeasureRow[] {
  const start = events.find((e) => e.type === "episode_start");
  if (!start || start.type !== "episode_start") {
    throw new TypeError("Cannot measure rounds: the events hold no episode_start");
  }
  if (start.env !== "min_effort") {
    throw new TypeError(
      `Cannot measure rounds of a "${start.env}" episode as minimum-effort rounds`,
    );
  }
  const highest = (start.params as { efforts: number }).efforts;
  const rows: RoundMeasureRow[] = [];
  for (const e of events) {
    if (e.type !== "transition" || e.kind !== "round_outcome") continue;
    const efforts = Object.values(e.efforts as Record<string, number>);
    const payoffs = Object.values(e.payoffs as Record<string, number>);
    rows.push({ round: e.round, ...roundMeasures(efforts, payoffs, highest) } as RoundMeasureRow);
  }
  return rows.sort((x, y) => x.round - y.round);
}

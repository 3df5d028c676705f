/**
 * The kinds of per-episode measure the FRAIL environments' packages declare
 * (Table 9, Appendix H.2), as pure functions of an episode's disclosure
 * metrics and derived quantities:
 * - {@linkcode finalShare}: a cumulative metric's value in the last round
 *   that disclosed it, as a share of a derived quantity (the withdrawal and
 *   redemption rates: cumulative paid exits over the initial funding);
 * - {@linkcode firstRoundAtLeast}: the first round a metric reaches a level
 *   (crowdfunding's first-launch round); an episode that never reaches it
 *   has no value.
 *
 * @module
 */
import type { GameMeasure, MeasureInput } from "../core/game.ts";

/**
 * A measure: `metric` in the episode's last round that disclosed it (not
 * null), divided by the derived quantity `of`; no value when no round
 * disclosed the metric or `of` is not a number.
 *
 * @example
 * ```ts
 * import { finalShare } from "./measures.ts";
 * const rate = finalShare("withdrawal_rate", "cumulative_withdrawn", "funding");
 * const rounds = [{ round: 1, cumulative_withdrawn: 2 }, { round: 2, cumulative_withdrawn: 6 }];
 * if (rate.value({ derived: { funding: 15 }, rounds }) !== 0.4) throw new Error();
 * if (rate.value({ derived: { funding: 15 }, rounds: [] }) !== null) throw new Error();
 * ```
 */
export function finalShare(id: string, metric: string, of: string): GameMeasure {
  return {
    id,
    metrics: [metric],
    derived: [of],
    value({ derived, rounds }: MeasureInput): number | null {
      const denominator = derived[of];
      if (typeof denominator !== "number") return null;
      let last: Readonly<Record<string, unknown>> | undefined;
      for (const row of rounds) {
        if (row[metric] !== null && row[metric] !== undefined) last = row;
      }
      return last === undefined ? null : (last[metric] as number) / denominator;
    },
  };
}

/**
 * A measure: the first round whose `metric` is at least `level`; no value
 * when no round reaches it.
 *
 * @example
 * ```ts
 * import { firstRoundAtLeast } from "./measures.ts";
 * const launch = firstRoundAtLeast("first_launch_round", "launched", 1);
 * const rounds = [{ round: 1, launched: 0 }, { round: 2, launched: 1 }, { round: 3, launched: 1 }];
 * if (launch.value({ derived: {}, rounds }) !== 2) throw new Error();
 * if (launch.value({ derived: {}, rounds: [{ round: 1, launched: 0 }] }) !== null) throw new Error();
 * ```
 */
export function firstRoundAtLeast(id: string, metric: string, level: number): GameMeasure {
  return {
    id,
    metrics: [metric],
    derived: [],
    value({ rounds }: MeasureInput): number | null {
      let first: number | null = null;
      for (const row of rounds) {
        const v = row[metric];
        const round = row.round as number;
        if (typeof v === "number" && v >= level && (first === null || round < first)) first = round;
      }
      return first;
    },
  };
}

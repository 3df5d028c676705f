/**
 * The belief-rule plug-in interface (Section 3.1): a rule turns the history
 * available at a turn into an estimate q-hat of the probability that another
 * player publicly reports Stag, or `undefined` where it has none. Every
 * benchmark metric takes a list of rules, so a rule written in a notebook
 * flows through match rates, margins and charts like the paper's three.
 *
 * The benchmark action of a rule is Stag iff q-hat >= q* (Section 4.6).
 *
 * @module
 */
import type { StagHuntAction } from "../payoffs.ts";
import type { TurnHistory } from "../history.ts";

/** A belief rule. */
export interface BeliefRule {
  /** Unique id, used as the `rule` column of benchmark tables. */
  id: string;
  /** The estimate q-hat in [0, 1] at a turn, or `undefined`. Must not mutate the history. */
  estimate(history: TurnHistory): number | undefined;
}

/**
 * The benchmark action implied by an estimate and a cutoff.
 *
 * @example
 * ```ts
 * import { benchmarkAction } from "./rule.ts";
 * if (benchmarkAction(0.5, 0.5) !== "Stag" || benchmarkAction(0.4, 0.5) !== "Hare") throw new Error();
 * ```
 */
export function benchmarkAction(qHat: number, qStar: number): StagHuntAction {
  return qHat >= qStar ? "Stag" : "Hare";
}

/**
 * Checks a number option of a rule.
 *
 * @example
 * ```ts
 * import { checkUnit } from "./rule.ts";
 * if (checkUnit("lambda", undefined, 0.5) !== 0.5) throw new Error();
 * ```
 * @throws {RangeError} When the value is not in [0, 1].
 */
export function checkUnit(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!(typeof v === "number" && v >= 0 && v <= 1)) {
    throw new RangeError(`Belief rule option "${name}" must be in [0, 1], got ${v}`);
  }
  return v;
}

/**
 * Builds a rule id that names the options differing from the defaults.
 *
 * @example
 * ```ts
 * import { ruleId } from "./rule.ts";
 * if (ruleId("carryover", { lambda: 0.8, tau: 2 }, { lambda: 0.5, tau: 2 }) !== "carryover(lambda=0.8)") {
 *   throw new Error();
 * }
 * ```
 */
export function ruleId(
  base: string,
  values: Record<string, number>,
  defaults: Record<string, number>,
): string {
  const changed = Object.keys(values).filter((k) => values[k] !== defaults[k]);
  return changed.length ? `${base}(${changed.map((k) => `${k}=${values[k]}`).join(",")})` : base;
}

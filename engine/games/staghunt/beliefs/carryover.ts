/**
 * Carryover updating (Section 3.1): the prior
 * `q_prior^t = lambda q_post^(t-1) + (1 - lambda) q0` is pooled with the
 * reports seen this round, `q-hat = (tau q_prior + K) / (tau + n)`.
 *
 * Choices where the paper is open: `q_post^(t-1)` is the same pooling over
 * all N public reports of round t-1 (the posterior after the whole round, as
 * every player sees it at round t), with `q_post^0 = q0` so that
 * `q_prior^1 = q0`. The rule is defined whenever the history holds at least
 * one report, so the first speaker of round t >= 2 gets q-hat = q_prior^t;
 * it is undefined only for the very first turn of an episode. Common support
 * (all rules defined) still starts at the second speaker of a round, because
 * the naive rule is undefined for first speakers.
 *
 * @module
 */
import { checkTau, pooledEstimate } from "./_pooling.ts";
import { type BeliefRule, checkUnit, ruleId } from "./rule.ts";

/** Options of {@linkcode carryoverRule}. */
export interface CarryoverOptions {
  /** Carryover strength lambda in [0, 1]. Default 0.5. */
  lambda?: number;
  /** Baseline prior q0 in [0, 1]. Default 0.5. */
  q0?: number;
  /** Prior strength tau > 0 (pseudo-count). Default 2. */
  tau?: number;
  /** Rule id. Default `"carryover"`, with any non-default option appended, e.g. `"carryover(lambda=0.8)"`. */
  id?: string;
}

/**
 * The carryover rule.
 *
 * @example
 * ```ts
 * import { carryoverRule } from "./carryover.ts";
 * const r = (action: "Stag" | "Hare") => ({ agent: "x", position: 1, action, confidence: 1 });
 * // Round 1, one Stag seen: (2 x 0.5 + 1) / (2 + 1) = 2/3.
 * const q = carryoverRule().estimate({ past: [], current: [r("Stag")] } as never);
 * if (Math.abs(q! - 2 / 3) > 1e-15) throw new Error();
 * ```
 * @throws {RangeError} For an option out of range.
 */
export function carryoverRule(options: CarryoverOptions = {}): BeliefRule {
  const p = {
    lambda: checkUnit("lambda", options.lambda, 0.5),
    q0: checkUnit("q0", options.q0, 0.5),
    tau: checkTau(options.tau),
  };
  return {
    id: options.id ?? ruleId("carryover", p, { lambda: 0.5, q0: 0.5, tau: 2 }),
    estimate: (h) => pooledEstimate(h, p),
  };
}

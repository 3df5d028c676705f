/**
 * Per-agent outcome-alignment weighting (Section 3.1, Appendix A.1): the
 * carryover estimate with each report weighted by its speaker's weight
 * `rho_j^t = a_j^t / (a_j^t + b_j^t)`, where after every completed round
 * `a += z` and `b += 1 - z`, and `z_j^t = 1` iff j's report matched the round's
 * outcome on the history's layer (Stag when coordination succeeded, Hare when
 * it failed). Counts start at (a0, b0) = (1, 0), so every rho is 1 in round 1
 * and the rule equals carryover there.
 *
 * Choices where the paper is open: the weights of round t use the rounds
 * before t only (the same rho_j^t for every report of round t); the posterior
 * carried to the next round is the weighted pooling of all N reports of the
 * round with the round's weights; definedness as for carryover.
 *
 * @module
 */
import type { HistoryRound } from "../history.ts";
import { checkTau, pooledEstimate } from "./_pooling.ts";
import { type BeliefRule, checkUnit, ruleId } from "./rule.ts";

/** Options of {@linkcode outcomeAlignmentRule}. */
export interface OutcomeAlignmentOptions {
  /** Carryover strength lambda in [0, 1]. Default 0.5. */
  lambda?: number;
  /** Baseline prior q0 in [0, 1]. Default 0.5. */
  q0?: number;
  /** Prior strength tau > 0. Default 2. */
  tau?: number;
  /** Initial aligned count a0 >= 0. Default 1. */
  a0?: number;
  /** Initial misaligned count b0 >= 0 (a0 + b0 > 0). Default 0. */
  b0?: number;
  /** Rule id. Default `"outcome_alignment"`, with any non-default option appended. */
  id?: string;
}

/**
 * The outcome-alignment-weighted rule.
 *
 * @example
 * ```ts
 * import { outcomeAlignmentRule } from "./outcome_alignment.ts";
 * const r = (agent: string, action: "Stag" | "Hare") => ({ agent, position: 1, action, confidence: 1 });
 * // Round 1 failed; a Stag report was misaligned, so rho = 1/2 for "a" in round 2.
 * const h = { past: [{ round: 1, success: false, reports: [r("a", "Stag"), r("b", "Hare")] }],
 *   current: [r("a", "Stag")] };
 * const q = outcomeAlignmentRule().estimate(h as never)!;
 * // post1 = (2 x 0.5 + 1) / 4 = 0.5; prior2 = 0.5; q = (1 + 0.5) / (2 + 0.5) = 0.6
 * if (Math.abs(q - 0.6) > 1e-15) throw new Error(String(q));
 * ```
 * @throws {RangeError} For an option out of range.
 */
export function outcomeAlignmentRule(options: OutcomeAlignmentOptions = {}): BeliefRule {
  const p = {
    lambda: checkUnit("lambda", options.lambda, 0.5),
    q0: checkUnit("q0", options.q0, 0.5),
    tau: checkTau(options.tau),
  };
  const a0 = options.a0 ?? 1;
  const b0 = options.b0 ?? 0;
  if (!(a0 >= 0 && b0 >= 0 && a0 + b0 > 0 && Number.isFinite(a0 + b0))) {
    throw new RangeError(
      `Belief rule options "a0" and "b0" must be finite, >= 0 and not both 0, got (${a0}, ${b0})`,
    );
  }
  return {
    id: options.id ?? ruleId("outcome_alignment", { ...p, a0, b0 }, {
      lambda: 0.5,
      q0: 0.5,
      tau: 2,
      a0: 1,
      b0: 0,
    }),
    estimate(h) {
      const counts = new Map<string, { a: number; b: number }>();
      const get = (agent: string) => counts.get(agent) ?? { a: a0, b: b0 };
      return pooledEstimate(h, p, {
        of(agent) {
          const c = get(agent);
          return c.a / (c.a + c.b);
        },
        update(round: HistoryRound) {
          for (const r of round.reports) {
            const z = (r.action === "Stag") === round.success ? 1 : 0;
            const c = get(r.agent);
            counts.set(r.agent, { a: c.a + z, b: c.b + 1 - z });
          }
        },
      });
    },
  };
}

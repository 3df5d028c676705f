/**
 * Benchmark evaluation (Sections 4.6, 5.3): for every honest turn on common
 * support (every given rule defined; with the naive rule among them that is
 * at least one earlier public report in the round), each rule's estimate
 * q-hat, the cutoff q*, the margin q-hat - q*, the benchmark action (Stag iff
 * q-hat >= q*) and whether the original action matches it; and the match
 * rate per rule. Rules are plug-ins ({@linkcode BeliefRule}), so a new rule
 * flows through unchanged. `layer: "original"` runs the rules on the hidden
 * original-action history instead of the public one (Appendix Figure A2).
 *
 * @module
 */
import type { BeliefRule } from "../beliefs/rule.ts";
import { benchmarkAction } from "../beliefs/rule.ts";
import { paperRules } from "../beliefs/paper_rules.ts";
import { historiesOf } from "../history.ts";
import type { StagHuntAction } from "../payoffs.ts";
import { qStar, type QStarOptions } from "../q_star.ts";
import type { ActionLayer, StagHuntTurn } from "../turns.ts";

/** Options of {@linkcode benchmarkRows} and {@linkcode matchRates}. */
export interface BenchmarkOptions {
  /** The rules to evaluate. Default: the paper's three ({@linkcode paperRules}). */
  rules?: readonly BeliefRule[];
  /** History layer the rules read. Default `"public"`. */
  layer?: ActionLayer;
  /** How q* is computed (see `qStar`). Default `{}` (H = H_F). */
  qStar?: QStarOptions;
  /** Keep only turns where every rule is defined. Default `true`. */
  commonSupport?: boolean;
}

/** One (turn, rule) evaluation. */
export interface BenchmarkRow {
  /** Run id. */
  run: string;
  /** Episode id. */
  episode: string;
  /** Round. */
  round: number;
  /** Speaking position. */
  position: number;
  /** Speaker. */
  agent: string;
  /** Players N. */
  N: number;
  /** Threshold M. */
  M: number;
  /** Corrupted players F. */
  F: number;
  /** Rule id. */
  rule: string;
  /** History layer. */
  layer: ActionLayer;
  /** The rule's estimate. */
  qHat: number;
  /** The cutoff. */
  qStar: number;
  /** qHat - qStar. */
  margin: number;
  /** Benchmark action. */
  benchmark: StagHuntAction;
  /** The agent's original action. */
  original: StagHuntAction;
  /** Whether they match. */
  match: boolean;
}

function checkRules(rules: readonly BeliefRule[]): void {
  const ids = new Set<string>();
  for (const r of rules) {
    if (!r || typeof r.id !== "string" || typeof r.estimate !== "function") {
      throw new TypeError("A belief rule must be an object with an id and an estimate() function");
    }
    if (ids.has(r.id)) throw new RangeError(`Belief rule id "${r.id}" is used twice`);
    ids.add(r.id);
  }
}

/**
 * One row per honest turn and rule (turn order, then rule order).
 *
 * @example
 * ```ts
 * import { benchmarkRows } from "./benchmarks.ts";
 * import { naiveRule } from "../beliefs/naive.ts";
 * const t = (position: number, action: string) => ({ run: "r", episode: "e", N: 2, M: 2, T: 1, F: 0,
 *   corruption: "base", payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 }, round: 1, position,
 *   agent: `p0${position}`, corrupted: false, originalAction: action, publicAction: action,
 *   confidence: 1, originalJustification: "", publicJustification: "" });
 * const rows = benchmarkRows([t(1, "Stag"), t(2, "Stag")] as never[], { rules: [naiveRule()] });
 * // q-hat = 1 >= q* = 1/2: Stag, matching.
 * if (rows.length !== 1 || rows[0].margin !== 0.5 || !rows[0].match) throw new Error();
 * ```
 * @throws {TypeError} For a malformed rule. @throws {RangeError} For a duplicated rule id or an estimate outside [0, 1].
 */
export function benchmarkRows(
  turns: readonly StagHuntTurn[],
  options: BenchmarkOptions = {},
): BenchmarkRow[] {
  const rules = options.rules ?? paperRules();
  checkRules(rules);
  const layer = options.layer ?? "public";
  const common = options.commonSupport ?? true;
  const cutoffs = new Map<string, number>();
  const cutoff = (t: StagHuntTurn) => {
    const { RS, HS, RF, HF } = t.payoffs;
    const k = `${t.N}|${t.M}|${RS}|${HS}|${RF}|${HF}`;
    let q = cutoffs.get(k);
    if (q === undefined) cutoffs.set(k, q = qStar(t, options.qStar));
    return q;
  };
  const out: BenchmarkRow[] = [];
  for (const { turn, history } of historiesOf(turns, { layer })) {
    if (turn.corrupted) continue;
    const estimates = rules.map((r) => {
      const q = r.estimate(history);
      if (q !== undefined && !(q >= 0 && q <= 1)) {
        throw new RangeError(`Belief rule "${r.id}" returned ${q}, outside [0, 1]`);
      }
      return q;
    });
    if (common && estimates.some((q) => q === undefined)) continue;
    const qs = cutoff(turn);
    rules.forEach((r, i) => {
      const qHat = estimates[i];
      if (qHat === undefined) return;
      const benchmark = benchmarkAction(qHat, qs);
      out.push({
        run: turn.run,
        episode: turn.episode,
        round: turn.round,
        position: turn.position,
        agent: turn.agent,
        N: turn.N,
        M: turn.M,
        F: turn.F,
        rule: r.id,
        layer,
        qHat,
        qStar: qs,
        margin: qHat - qs,
        benchmark,
        original: turn.originalAction,
        match: benchmark === turn.originalAction,
      });
    });
  }
  return out;
}

/** Match rate of one rule. */
export interface MatchRate {
  /** Rule id. */
  rule: string;
  /** Eligible turns. */
  turns: number;
  /** Turns where the original action matched the benchmark action. */
  matches: number;
  /** matches / turns (NaN without turns). */
  rate: number;
}

/**
 * Benchmark match rates per rule on common-support honest turns (Table 1).
 *
 * @example
 * ```ts
 * import { matchRates } from "./benchmarks.ts";
 * import { naiveRule } from "../beliefs/naive.ts";
 * const t = (position: number, action: string) => ({ run: "r", episode: "e", N: 3, M: 3, T: 1, F: 0,
 *   corruption: "base", payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 }, round: 1, position,
 *   agent: `p0${position}`, corrupted: false, originalAction: action, publicAction: action,
 *   confidence: 1, originalJustification: "", publicJustification: "" });
 * // q* = 0.707: after one Stag (q-hat 1) Hare mismatches; after Stag, Hare (q-hat 0.5) Stag mismatches.
 * const [m] = matchRates([t(1, "Stag"), t(2, "Hare"), t(3, "Stag")] as never[], { rules: [naiveRule()] });
 * if (m.turns !== 2 || m.matches !== 0) throw new Error();
 * ```
 */
export function matchRates(
  turns: readonly StagHuntTurn[],
  options: BenchmarkOptions = {},
): MatchRate[] {
  const rules = options.rules ?? paperRules();
  const rows = benchmarkRows(turns, { ...options, rules });
  return rules.map((r) => {
    const mine = rows.filter((x) => x.rule === r.id);
    const matches = mine.filter((x) => x.match).length;
    return {
      rule: r.id,
      turns: mine.length,
      matches,
      rate: mine.length ? matches / mine.length : Number.NaN,
    };
  });
}

// Shared machinery of the carryover and outcome-alignment rules: the prior
// carried from the previous round's posterior, pooled with pseudo-count tau.
import type { HistoryReport, HistoryRound, TurnHistory } from "../history.ts";

export interface PoolingParams {
  lambda: number;
  q0: number;
  tau: number;
}

export interface Weights {
  /** rho_j for this round. */
  of(agent: string): number;
  /** Called once a round is complete, to update the weights. */
  update(round: HistoryRound): void;
}

function pooled(p: PoolingParams, prior: number, reports: readonly HistoryReport[], w?: Weights) {
  let num = p.tau * prior;
  let den = p.tau;
  for (const r of reports) {
    const rho = w ? w.of(r.agent) : 1;
    if (r.action === "Stag") num += rho;
    den += rho;
  }
  return num / den;
}

/**
 * q_prior^t = lambda q_post^(t-1) + (1 - lambda) q0 with q_post^0 = q0, and
 * q-hat = (tau q_prior + sum rho y) / (tau + sum rho) over the reports seen;
 * q_post^t pools all N reports of round t the same way.
 */
export function pooledEstimate(h: TurnHistory, p: PoolingParams, w?: Weights): number | undefined {
  if (h.past.length === 0 && h.current.length === 0) return undefined;
  let post = p.q0;
  for (const round of h.past) {
    post = pooled(p, p.lambda * post + (1 - p.lambda) * p.q0, round.reports, w);
    w?.update(round);
  }
  return pooled(p, p.lambda * post + (1 - p.lambda) * p.q0, h.current, w);
}

export function checkTau(tau: number | undefined): number {
  const v = tau ?? 2;
  if (!(typeof v === "number" && Number.isFinite(v) && v > 0)) {
    throw new RangeError(`Belief rule option "tau" must be a finite number > 0, got ${v}`);
  }
  return v;
}

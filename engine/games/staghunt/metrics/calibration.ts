/**
 * Confidence calibration (definitions at the paper's end): honest agents are
 * grouped by mean confidence into equal-width bins (8 by default) and the
 * Expected Calibration Error is the count-weighted mean gap
 * `sum_b (n_b / n) |mean confidence_b - mean outcome alignment_b|`, alignment
 * being the original action matching the realised public outcome.
 *
 * Unit: the paper groups "honest agents by mean confidence", so by default a
 * unit is one honest agent in one episode, carrying its mean confidence and
 * mean alignment over its turns; `unit: "turn"` gives the usual per-turn ECE.
 * Bin b holds confidences in [b/B, (b+1)/B), the last bin also holding 1.
 *
 * @module
 */
import { episodeKey, type StagHuntTurn } from "../turns.ts";
import { alignmentByTurn } from "./choices.ts";

/** Options of {@linkcode expectedCalibrationError}. */
export interface CalibrationOptions {
  /** Number of equal-width bins on [0, 1]. Default 8. */
  bins?: number;
  /** Calibration unit: `"agent"` (agent-episode means) or `"turn"`. Default `"agent"`. */
  unit?: "agent" | "turn";
}

/** One bin of a calibration table. */
export interface CalibrationBin {
  /** Lower edge. */
  lower: number;
  /** Upper edge. */
  upper: number;
  /** Units in the bin. */
  count: number;
  /** Mean confidence (NaN when empty). */
  confidence: number;
  /** Mean outcome alignment (NaN when empty). */
  alignment: number;
}

/** Expected calibration error with its bins. */
export interface Calibration {
  /** Units counted. */
  units: number;
  /** ECE (NaN without units). */
  ece: number;
  /** The bins, lowest first. */
  bins: CalibrationBin[];
}

/**
 * Expected calibration error of honest agents' confidence against outcome alignment.
 *
 * @example
 * ```ts
 * import { expectedCalibrationError } from "./calibration.ts";
 * const t = (episode: string, confidence: number, originalAction: string) => ({ run: "r", episode,
 *   N: 1, M: 1, F: 0, round: 1, position: 1, agent: "p01", corrupted: false, confidence,
 *   originalAction, publicAction: originalAction });
 * // Both are aligned (a lone Stag meets M = 1, a lone Hare misses it) at confidence 0.9.
 * const c = expectedCalibrationError([t("a", 0.9, "Stag"), t("b", 0.9, "Hare")] as never[]);
 * if (Math.abs(c.ece - 0.1) > 1e-12) throw new Error(String(c.ece));
 * ```
 * @throws {RangeError} For a bin count that is not a positive integer, or an unknown unit.
 */
export function expectedCalibrationError(
  turns: readonly StagHuntTurn[],
  options: CalibrationOptions = {},
): Calibration {
  const B = options.bins ?? 8;
  if (!Number.isInteger(B) || B < 1) {
    throw new RangeError(`Option "bins" must be a positive integer, got ${B}`);
  }
  const unit = options.unit ?? "agent";
  if (unit !== "agent" && unit !== "turn") {
    throw new RangeError(`Option "unit" must be "agent" or "turn", got "${unit}"`);
  }
  const rows = alignmentByTurn(turns);
  let units: { confidence: number; alignment: number }[];
  if (unit === "turn") {
    units = rows.map((r) => ({ confidence: r.turn.confidence, alignment: r.aligned ? 1 : 0 }));
  } else {
    const byAgent = new Map<string, { c: number; a: number; n: number }>();
    for (const r of rows) {
      const k = `${episodeKey(r.turn)}\u0000${r.turn.agent}`;
      const u = byAgent.get(k) ?? { c: 0, a: 0, n: 0 };
      byAgent.set(k, { c: u.c + r.turn.confidence, a: u.a + (r.aligned ? 1 : 0), n: u.n + 1 });
    }
    units = [...byAgent.values()].map((u) => ({ confidence: u.c / u.n, alignment: u.a / u.n }));
  }
  const sums = Array.from({ length: B }, () => ({ n: 0, c: 0, a: 0 }));
  for (const u of units) {
    const b = Math.min(B - 1, Math.max(0, Math.floor(u.confidence * B)));
    sums[b].n++;
    sums[b].c += u.confidence;
    sums[b].a += u.alignment;
  }
  const n = units.length;
  let ece = 0;
  const bins = sums.map((s, b) => {
    if (s.n) ece += (s.n / n) * Math.abs(s.c / s.n - s.a / s.n);
    return {
      lower: b / B,
      upper: (b + 1) / B,
      count: s.n,
      confidence: s.n ? s.c / s.n : Number.NaN,
      alignment: s.n ? s.a / s.n : Number.NaN,
    };
  });
  return { units: n, ece: n ? ece : Number.NaN, bins };
}

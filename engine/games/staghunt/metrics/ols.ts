/**
 * Ordinary least squares with an intercept and 95% confidence intervals, for
 * the linear-probability models of Section 5.2.
 *
 * Standard errors: `"hc1"` (default; heteroskedasticity-robust, as a linear
 * probability model's errors are heteroskedastic by construction),
 * `"classical"` (s^2 (X'X)^-1), or `"cluster"` (CR1, clustered by the given
 * labels, e.g. episodes, whose turns share a history). The paper prints CIs
 * without naming its errors; intervals here are estimate +- 1.959964 SE (the
 * large-sample normal interval; the paper's sample has 2,852 turns).
 *
 * @module
 */

/** Two-sided 95% normal critical value. */
export const Z95 = 1.959963984540054;

/** Data of an OLS fit. */
export interface OlsData {
  /** Responses, one per observation. */
  y: readonly number[];
  /** Regressors, one row per observation (the intercept is added). */
  x: readonly (readonly number[])[];
  /** Names of the regressors, in column order. */
  terms: readonly string[];
  /** Cluster labels, one per observation (needed for `se: "cluster"`). */
  clusters?: readonly string[];
}

/** Options of {@linkcode ols}. */
export interface OlsOptions {
  /** Standard errors: `"hc1"`, `"classical"` or `"cluster"`. Default `"hc1"`. */
  se?: "hc1" | "classical" | "cluster";
}

/** One coefficient. */
export interface Coefficient {
  /** `"(intercept)"` or the regressor's name. */
  term: string;
  /** Estimate. */
  estimate: number;
  /** Standard error. */
  se: number;
  /** Lower end of the 95% CI. */
  lower: number;
  /** Upper end of the 95% CI. */
  upper: number;
}

/** An OLS fit. */
export interface OlsFit {
  /** Observations. */
  n: number;
  /** Which standard errors. */
  se: "hc1" | "classical" | "cluster";
  /** Coefficients, intercept first. */
  coefficients: Coefficient[];
}

function invert(a: number[][]): number[][] {
  const k = a.length;
  const m = a.map((row, i) => [...row, ...Array.from({ length: k }, (_, j) => (i === j ? 1 : 0))]);
  const scale = Math.max(...a.map((r, i) => Math.abs(r[i])), 1e-300);
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    if (Math.abs(m[p][c]) <= 1e-12 * scale) {
      throw new RangeError(
        "Cannot fit: the design matrix is singular (a regressor is constant or collinear)",
      );
    }
    [m[c], m[p]] = [m[p], m[c]];
    const piv = m[c][c];
    for (let j = 0; j < 2 * k; j++) m[c][j] /= piv;
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = m[r][c];
      if (f !== 0) { for (let j = 0; j < 2 * k; j++) m[r][j] -= f * m[c][j]; }
    }
  }
  return m.map((row) => row.slice(k));
}

function sandwich(bread: number[][], meat: number[][], factor: number): number[][] {
  const k = bread.length;
  const bm = bread.map((r) => meat[0].map((_, j) => r.reduce((s, v, l) => s + v * meat[l][j], 0)));
  return bm.map((r) =>
    Array.from({ length: k }, (_, j) => factor * r.reduce((s, v, l) => s + v * bread[l][j], 0))
  );
}

/**
 * Fits y = b0 + b x by least squares.
 *
 * @example
 * ```ts
 * import { ols } from "./ols.ts";
 * const fit = ols({ y: [1, 3, 5, 7], x: [[0], [1], [2], [3]], terms: ["x"] }, { se: "classical" });
 * if (fit.coefficients[1].estimate !== 2 || fit.coefficients[1].se !== 0) throw new Error();
 * ```
 * @throws {RangeError} For mismatched lengths, too few observations, missing clusters, or a singular design.
 */
export function ols(data: OlsData, options: OlsOptions = {}): OlsFit {
  const se = options.se ?? "hc1";
  if (se !== "hc1" && se !== "classical" && se !== "cluster") {
    throw new RangeError(`Option "se" must be "hc1", "classical" or "cluster", got "${se}"`);
  }
  const n = data.y.length;
  const k = data.terms.length + 1;
  if (data.x.length !== n || data.x.some((r) => r.length !== k - 1)) {
    throw new RangeError(
      `OLS data must have one row of ${k - 1} regressors per response (${n} responses)`,
    );
  }
  if (n <= k) {
    throw new RangeError(`OLS needs more observations than coefficients (${n} <= ${k})`);
  }
  if (se === "cluster" && data.clusters?.length !== n) {
    throw new RangeError('Standard errors "cluster" need one cluster label per observation');
  }
  const X = data.x.map((r) => [1, ...r]);
  const xtx = Array.from(
    { length: k },
    (_, i) => Array.from({ length: k }, (_, j) => X.reduce((s, r) => s + r[i] * r[j], 0)),
  );
  const bread = invert(xtx);
  const xty = Array.from({ length: k }, (_, i) => X.reduce((s, r, o) => s + r[i] * data.y[o], 0));
  const beta = bread.map((r) => r.reduce((s, v, j) => s + v * xty[j], 0));
  const resid = X.map((r, o) => data.y[o] - r.reduce((s, v, j) => s + v * beta[j], 0));
  let cov: number[][];
  if (se === "classical") {
    const s2 = resid.reduce((s, e) => s + e * e, 0) / (n - k);
    cov = bread.map((r) => r.map((v) => v * s2));
  } else if (se === "hc1") {
    const meat = Array.from(
      { length: k },
      (_, i) =>
        Array.from(
          { length: k },
          (_, j) => X.reduce((s, r, o) => s + resid[o] ** 2 * r[i] * r[j], 0),
        ),
    );
    cov = sandwich(bread, meat, n / (n - k));
  } else {
    const scores = new Map<string, number[]>();
    X.forEach((r, o) => {
      const g = data.clusters![o];
      const u = scores.get(g) ?? Array(k).fill(0);
      scores.set(g, u.map((v, j) => v + resid[o] * r[j]));
    });
    const G = scores.size;
    if (G < 2) throw new RangeError('Standard errors "cluster" need at least 2 clusters');
    const meat = Array.from({ length: k }, (_, i) =>
      Array.from(
        { length: k },
        (_, j) => [...scores.values()].reduce((s, u) => s + u[i] * u[j], 0),
      ));
    cov = sandwich(bread, meat, (G / (G - 1)) * ((n - 1) / (n - k)));
  }
  const terms = ["(intercept)", ...data.terms];
  return {
    n,
    se,
    coefficients: beta.map((b, i) => {
      const s = Math.sqrt(Math.max(0, cov[i][i]));
      return { term: terms[i], estimate: b, se: s, lower: b - Z95 * s, upper: b + Z95 * s };
    }),
  };
}

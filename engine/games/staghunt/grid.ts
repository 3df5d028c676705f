/**
 * The paper's experimental grid as data (Section 4.4 and the ablation
 * paragraph at its end): base points N in {2, 3, 5}, T in {1, 2, 4},
 * M in 1..N, and F per the realised support (N = 2: F in {0, 1}; N = 3:
 * F in {1, 2}; N = 5: F in {1, 2, 3, 4}), all with base corruption and h1;
 * that is 30 (N, M, F) cells times 3 horizons = 90 base points. The
 * ablations (b3, h2, h3) run on a subset of base points drawn reproducibly
 * from a seed (a seeded shuffle of the base points in grid order, first
 * `ablationPoints` taken, 50 by default as in the paper), the same subset
 * for every ablation so comparisons are matched.
 *
 * @module
 */
import { openStream, shuffled } from "../../core/rng.ts";
import type { HeterogeneityId } from "./heterogeneity.ts";
import type { CorruptionMode } from "./params.ts";

/**
 * The paper's grid conditions (the one list of them): the base condition and
 * the ablations b3 (random public actions), h2 and h3 (model heterogeneity).
 *
 * @example
 * ```ts
 * import { GRID_CONDITIONS } from "./grid.ts";
 * if (GRID_CONDITIONS.join() !== "base,b3,h2,h3") throw new Error();
 * ```
 */
export const GRID_CONDITIONS = ["base", "b3", "h2", "h3"] as const;

/** Grid conditions: the base condition and the ablations. */
export type GridCondition = (typeof GRID_CONDITIONS)[number];

/** One grid point. */
export interface StagHuntGridCell {
  /** Point id, e.g. `"N5_M3_T4_F2_base"`. */
  id: string;
  /** Condition. */
  condition: GridCondition;
  /** Id of the base point it derives from, e.g. `"N5_M3_T4_F2"`. */
  point: string;
  /** Players. */
  N: number;
  /** Threshold. */
  M: number;
  /** Rounds. */
  T: number;
  /** Corrupted players. */
  F: number;
  /** Corruption mode. */
  corruption: CorruptionMode;
  /** Heterogeneity. */
  heterogeneity: HeterogeneityId;
}

/** Corrupted-player counts of the paper's realised support, by N. */
export const REALISED_F: Readonly<Record<number, readonly number[]>> = Object.freeze({
  2: [0, 1],
  3: [1, 2],
  5: [1, 2, 3, 4],
});

/** Options of {@linkcode stagHuntGrid}. */
export interface StagHuntGridOptions {
  /** Seed of the ablation subset. Default 0. */
  seed?: number;
  /** Base points in the ablation subset. Default 50. */
  ablationPoints?: number;
  /** Ablations to list. Default `["b3", "h2", "h3"]`. */
  ablations?: readonly Exclude<GridCondition, "base">[];
  /** Player counts. Default `[2, 3, 5]`. */
  N?: readonly number[];
  /** Horizons. Default `[1, 2, 4]`. */
  T?: readonly number[];
  /** Corrupted counts per N. Default {@linkcode REALISED_F} (N without an entry: 1..N-1). */
  F?: Readonly<Record<number, readonly number[]>>;
}

/**
 * The grid: every base point, then each ablation on the seeded subset.
 *
 * @example
 * ```ts
 * import { stagHuntGrid } from "./grid.ts";
 * const grid = stagHuntGrid();
 * if (grid.filter((c) => c.condition === "base").length !== 90) throw new Error();
 * if (grid.filter((c) => c.condition === "b3").length !== 50) throw new Error();
 * ```
 * @throws {RangeError} For a bad option.
 */
export function stagHuntGrid(options: StagHuntGridOptions = {}): StagHuntGridCell[] {
  const seed = options.seed ?? 0;
  const Ns = options.N ?? [2, 3, 5];
  const Ts = options.T ?? [1, 2, 4];
  const Fs = options.F ?? REALISED_F;
  const ablations = options.ablations ??
    (GRID_CONDITIONS.slice(1) as Exclude<GridCondition, "base">[]);
  const known: readonly string[] = GRID_CONDITIONS.slice(1);
  for (const a of ablations) {
    if (!known.includes(a)) {
      throw new RangeError(
        `Unknown ablation "${a}": expected one of ${known.map((k) => `"${k}"`).join(", ")}`,
      );
    }
  }
  const base: StagHuntGridCell[] = [];
  for (const N of Ns) {
    if (!Number.isInteger(N) || N < 1) {
      throw new RangeError(`Grid N must be integers >= 1, got ${N}`);
    }
    const fs = Fs[N] ?? Array.from({ length: Math.max(0, N - 1) }, (_, i) => i + 1);
    for (let M = 1; M <= N; M++) {
      for (const F of fs) {
        if (!Number.isInteger(F) || F < 0 || F > N) {
          throw new RangeError(`Grid F for N = ${N} must be integers in 0..${N}, got ${F}`);
        }
        for (const T of Ts) {
          if (!Number.isInteger(T) || T < 1) {
            throw new RangeError(`Grid T must be integers >= 1, got ${T}`);
          }
          const point = `N${N}_M${M}_T${T}_F${F}`;
          base.push({
            id: `${point}_base`,
            condition: "base",
            point,
            N,
            M,
            T,
            F,
            corruption: "base",
            heterogeneity: "h1",
          });
        }
      }
    }
  }
  const k = options.ablationPoints ?? 50;
  if (!Number.isInteger(k) || k < 0) {
    throw new RangeError(`Option "ablationPoints" must be an integer >= 0, got ${k}`);
  }
  const stream = openStream({ seed, round: 0, agent: "grid", purpose: "ablation_subset" });
  const subset = new Set(shuffled(stream, base.map((c) => c.point)).slice(0, k));
  const chosen = base.filter((c) => subset.has(c.point));
  const out = [...base];
  for (const a of ablations) {
    for (const c of chosen) {
      out.push({
        ...c,
        id: `${c.point}_${a}`,
        condition: a,
        corruption: a === "b3" ? "b3" : "base",
        heterogeneity: a === "b3" ? "h1" : a,
      });
    }
  }
  return out;
}

/**
 * The turn-level linear-probability regressions of Section 5.2 (Figure 2):
 * an honest turn's original Stag choice (1/0) on the prior public Stag share,
 * on prior corruption exposure, and on both jointly.
 *
 * Definitions (open in the paper, chosen here): a turn is eligible when it is
 * honest and has at least one prior public report in the window; the prior
 * public Stag share is the Stag share of those reports (in the default
 * `"round"` window this is the naive q-hat); prior corruption exposure is the
 * share of those reports made by designated corrupted speakers (under b3 a
 * corrupted speaker's report counts even when the draw kept its action).
 * `window: "episode"` uses every earlier report of the episode instead.
 *
 * @module
 */
import { historiesOf } from "../history.ts";
import { episodeKey, type StagHuntTurn } from "../turns.ts";
import { ols, type OlsFit, type OlsOptions } from "./ols.ts";

/** Options of {@linkcode stagShareRegressions}. */
export interface StagShareOptions extends OlsOptions {
  /** Which earlier reports count as prior: `"round"` or `"episode"`. Default `"round"`. */
  window?: "round" | "episode";
}

/** One eligible turn of the regressions. */
export interface StagShareRow {
  /** The turn. */
  turn: StagHuntTurn;
  /** 1 if the original action is Stag. */
  stag: number;
  /** Prior public Stag share. */
  share: number;
  /** Prior corruption exposure. */
  exposure: number;
}

/**
 * The eligible turns with their regressors.
 *
 * @example
 * ```ts
 * import { stagShareRows } from "./regression.ts";
 * const t = (position: number, corrupted: boolean, publicAction: string) => ({ run: "r", episode: "e",
 *   N: 3, M: 2, round: 1, position, agent: `p0${position}`, corrupted, originalAction: "Stag",
 *   publicAction, confidence: 1 });
 * const rows = stagShareRows([t(1, true, "Hare"), t(2, false, "Stag"), t(3, false, "Stag")] as never[]);
 * if (rows.length !== 2 || rows[1].share !== 0.5 || rows[1].exposure !== 0.5) throw new Error();
 * ```
 */
export function stagShareRows(
  turns: readonly StagHuntTurn[],
  options: StagShareOptions = {},
): StagShareRow[] {
  const window = options.window ?? "round";
  if (window !== "round" && window !== "episode") {
    throw new RangeError(`Option "window" must be "round" or "episode", got "${window}"`);
  }
  const corrupted = new Map<string, Set<string>>();
  for (const t of turns) {
    const k = episodeKey(t);
    if (!corrupted.has(k)) corrupted.set(k, new Set());
    if (t.corrupted) corrupted.get(k)!.add(t.agent);
  }
  const rows: StagShareRow[] = [];
  for (const { turn, history } of historiesOf(turns)) {
    if (turn.corrupted) continue;
    const prior = window === "round"
      ? history.current
      : [...history.past.flatMap((r) => r.reports), ...history.current];
    if (prior.length === 0) continue;
    const bad = corrupted.get(episodeKey(turn))!;
    rows.push({
      turn,
      stag: turn.originalAction === "Stag" ? 1 : 0,
      share: prior.filter((r) => r.action === "Stag").length / prior.length,
      exposure: prior.filter((r) => bad.has(r.agent)).length / prior.length,
    });
  }
  return rows;
}

/** The three specifications. */
export interface StagShareRegressions {
  /** Stag on prior public Stag share alone. */
  share: OlsFit;
  /** Stag on prior corruption exposure alone. */
  exposure: OlsFit;
  /** Stag on both. */
  joint: OlsFit;
}

/**
 * Fits the three linear-probability models (errors clustered by episode when
 * `se: "cluster"`).
 *
 * @example
 * ```ts
 * import { stagShareRegressions } from "./regression.ts";
 * const turns: Record<string, unknown>[] = [];
 * for (let e = 0; e < 4; e++) {
 *   const acts = [["Stag", "Stag", "Stag"], ["Hare", "Hare", "Hare"], ["Stag", "Hare", "Hare"],
 *     ["Hare", "Stag", "Stag"]][e];
 *   acts.forEach((a, i) => turns.push({ run: "r", episode: `e${e}`, N: 3, M: 2, round: 1,
 *     position: i + 1, agent: `p0${i + 1}`, corrupted: i === 0 && e > 1, originalAction: a,
 *     publicAction: a, confidence: 1 }));
 * }
 * const fit = stagShareRegressions(turns as never[], { se: "classical" });
 * if (fit.share.n !== 8) throw new Error();
 * ```
 * @throws {RangeError} When a specification cannot be fitted (e.g. a constant regressor).
 */
export function stagShareRegressions(
  turns: readonly StagHuntTurn[],
  options: StagShareOptions = {},
): StagShareRegressions {
  const rows = stagShareRows(turns, options);
  const y = rows.map((r) => r.stag);
  const clusters = rows.map((r) => episodeKey(r.turn));
  const fit = (terms: ("share" | "exposure")[]) =>
    ols({ y, x: rows.map((r) => terms.map((t) => r[t])), terms, clusters }, options);
  return { share: fit(["share"]), exposure: fit(["exposure"]), joint: fit(["share", "exposure"]) };
}

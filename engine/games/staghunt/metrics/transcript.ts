/**
 * Transcript metrics (definitions at the paper's end):
 *
 * - Downstream report alignment: for the speaker at position k, the fraction
 *   of the later speakers of the same round whose public report matches the
 *   speaker's public report; averaged per position over (round, speaker)
 *   units. The last speaker has no later speakers and is not counted. All
 *   speakers count by default (a report is a report, corrupted or not);
 *   `speakers: "honest"` keeps honest speakers only.
 * - Consensus entropy: `H^t = -sum_a p_a log2 p_a` over the public reports
 *   of all N players of round t (0 when unanimous, 1 at an even split);
 *   reported per round and as the mean over rounds.
 *
 * @module
 */
import { type ActionLayer, actionOn, groupRounds, type StagHuntTurn } from "../turns.ts";

/** Options of {@linkcode downstreamAlignment}. */
export interface DownstreamOptions {
  /** Which speakers' reports are scored: `"all"` or `"honest"`. Default `"all"`. */
  speakers?: "all" | "honest";
}

/** Downstream alignment at one speaking position. */
export interface DownstreamRow {
  /** Speaking position. */
  position: number;
  /** (round, speaker) units counted. */
  speakers: number;
  /** Mean fraction of later speakers with the same public report. */
  alignment: number;
}

/**
 * Downstream report alignment by speaking position.
 *
 * @example
 * ```ts
 * import { downstreamAlignment } from "./transcript.ts";
 * const t = (position: number, publicAction: string) => ({ run: "r", episode: "e", round: 1,
 *   position, corrupted: false, publicAction });
 * const rows = downstreamAlignment([t(1, "Stag"), t(2, "Stag"), t(3, "Hare")] as never[]);
 * if (rows[0].alignment !== 0.5 || rows[1].alignment !== 0) throw new Error();
 * ```
 */
export function downstreamAlignment(
  turns: readonly StagHuntTurn[],
  options: DownstreamOptions = {},
): DownstreamRow[] {
  const who = options.speakers ?? "all";
  if (who !== "all" && who !== "honest") {
    throw new RangeError(`Option "speakers" must be "all" or "honest", got "${who}"`);
  }
  const acc = new Map<number, { sum: number; n: number }>();
  for (const round of groupRounds(turns)) {
    round.forEach((t, i) => {
      const later = round.slice(i + 1);
      if (later.length === 0 || (who === "honest" && t.corrupted)) return;
      const same = later.filter((x) => x.publicAction === t.publicAction).length;
      const a = acc.get(t.position) ?? { sum: 0, n: 0 };
      acc.set(t.position, { sum: a.sum + same / later.length, n: a.n + 1 });
    });
  }
  return [...acc.entries()].sort(([a], [b]) => a - b).map(([position, a]) => ({
    position,
    speakers: a.n,
    alignment: a.sum / a.n,
  }));
}

/** Options of {@linkcode consensusEntropy}. */
export interface EntropyOptions {
  /** Which action layer to read. Default `"public"` (the paper's definition). */
  layer?: ActionLayer;
}

/** Consensus entropy per round and overall. */
export interface ConsensusEntropy {
  /** Mean entropy over rounds (NaN without rounds). */
  mean: number;
  /** Entropy of each round. */
  rounds: { run: string; episode: string; round: number; entropy: number }[];
}

/**
 * Binary entropy in bits of a share p (0 at p = 0 or 1).
 *
 * @example
 * ```ts
 * import { entropyBits } from "./transcript.ts";
 * if (entropyBits(0.5) !== 1 || entropyBits(1) !== 0) throw new Error();
 * ```
 */
export function entropyBits(p: number): number {
  const h = (x: number) => (x > 0 ? -x * Math.log2(x) : 0);
  return h(p) + h(1 - p);
}

/**
 * Consensus entropy of the public reports of each round.
 *
 * @example
 * ```ts
 * import { consensusEntropy } from "./transcript.ts";
 * const t = (position: number, publicAction: string) => ({ run: "r", episode: "e", round: 1,
 *   position, publicAction, originalAction: "Stag" });
 * const e = consensusEntropy([t(1, "Stag"), t(2, "Hare"), t(3, "Stag"), t(4, "Hare")] as never[]);
 * if (e.mean !== 1) throw new Error();
 * ```
 */
export function consensusEntropy(
  turns: readonly StagHuntTurn[],
  options: EntropyOptions = {},
): ConsensusEntropy {
  const layer = options.layer ?? "public";
  const rounds = groupRounds(turns).map((round) => {
    const t = round[0];
    const stag = round.filter((x) => actionOn(x, layer) === "Stag").length;
    return {
      run: t.run,
      episode: t.episode,
      round: t.round,
      entropy: entropyBits(stag / round.length),
    };
  });
  const mean = rounds.length
    ? rounds.reduce((a, r) => a + r.entropy, 0) / rounds.length
    : Number.NaN;
  return { mean, rounds };
}

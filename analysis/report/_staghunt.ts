// The Stag Hunt paper's tables and figures, each with the run's values beside
// the published ones (data/reference/), for reproductionReport().

import pl from "npm:nodejs-polars@0.25.2";
import {
  matchRateChart,
  payoffGapChart,
  stagByMarginChart,
  successByCorruptionChart,
} from "../charts/staghunt_charts.ts";
import {
  matchRateTable,
  payoffGap,
  stagByMargin,
  successByCorruption,
} from "../staghunt/figures.ts";
import { type ModelTurn, stagHuntTurnRecords } from "../staghunt/turn_records.ts";
import { wilson, Z_95 } from "../stats.ts";
import { paperVsRunChart } from "./paper_vs_run_chart.ts";
import { published, type ReportSection, section, withCell } from "./_section.ts";

/** The run's frames a Stag Hunt report reads. */
export interface StagHuntFrames {
  episodes: pl.DataFrame;
  turns: pl.DataFrame;
}

const isFocal = (t: ModelTurn) => t.N === 5 && t.M === 3;

/** Public success per (episode, round): at least M public Stags. */
function roundSuccesses(
  records: readonly ModelTurn[],
): Map<string, { round: number; ok: boolean }> {
  const stags = new Map<string, { round: number; stags: number; M: number }>();
  for (const t of records) {
    const key = `${t.run}\u0000${t.episode}\u0000${t.round}`;
    const cell = stags.get(key) ?? { round: t.round, stags: 0, M: t.M };
    if (t.publicAction === "Stag") cell.stags++;
    stags.set(key, cell);
  }
  return new Map([...stags].map(([k, v]) => [k, { round: v.round, ok: v.stags >= v.M }]));
}

/** Table A1's run side: public success by round per condition, on the matched ablation points. */
function ablationTable(all: readonly ModelTurn[]): pl.DataFrame {
  const point = (t: ModelTurn) => `N${t.N}_M${t.M}_T${t.T}_F${t.F}`;
  const condition = (t: ModelTurn) =>
    t.heterogeneity !== "h1" ? t.heterogeneity : t.corruption === "b3" ? "b3" : "base";
  const ablated = new Set(all.filter((t) => condition(t) !== "base").map(point));
  const rows: Record<string, unknown>[] = [];
  for (const c of ["base", "b3", "h2", "h3"]) {
    const mine = all.filter((t) => condition(t) === c && ablated.has(point(t)));
    const byRound = new Map<number, { k: number; n: number }>();
    for (const { round, ok } of roundSuccesses(mine).values()) {
      const cell = byRound.get(round) ?? { k: 0, n: 0 };
      cell.n++;
      if (ok) cell.k++;
      byRound.set(round, cell);
    }
    for (const round of [...byRound.keys()].sort((a, b) => a - b)) {
      const { k, n } = byRound.get(round)!;
      const w = wilson(k, n);
      rows.push({ condition: c, round, rounds: n, public: k / n, lower: w.lower, upper: w.upper });
    }
  }
  return rows.length > 0 ? pl.DataFrame(rows) : pl.DataFrame({
    condition: [] as string[],
    round: [] as number[],
    rounds: [] as number[],
    public: [] as number[],
    lower: [] as number[],
    upper: [] as number[],
  });
}

/** Adds 95% Wilson intervals of Figure 1's two rates (`rounds` rounds each). */
function withSuccessIntervals(table: pl.DataFrame): pl.DataFrame {
  const n = table.getColumn("rounds").toArray() as number[];
  const ends = ["preflip", "public"].flatMap((m) => {
    const rates = table.getColumn(m).toArray() as number[];
    const w = rates.map((rate, i) => wilson(Math.round(rate * n[i]), n[i]));
    return [
      pl.Series(`${m}_lower`, w.map((x) => x.lower), pl.Float64),
      pl.Series(`${m}_upper`, w.map((x) => x.upper), pl.Float64),
    ];
  });
  return table.withColumns(...ends);
}

/** Every Stag Hunt section. */
export function stagHuntSections(frames: StagHuntFrames, label: string): ReportSection[] {
  const all = stagHuntTurnRecords(frames.turns, frames.episodes);
  const base = all.filter((t) => t.corruption === "base" && t.heterogeneity === "h1");
  const focal = base.filter(isFocal);
  const named = (t: string) => `${t} (run: ${label})`;
  const out: ReportSection[] = [];

  // Figure 1.
  const success = withSuccessIntervals(successByCorruption(focal, { pool: ["T"] }));
  const figure1 = ["preflip", "public"].map((m) =>
    published(success, "staghunt_figure1", {
      keys: ["F"],
      values: [m],
      runInterval: [`${m}_lower`, `${m}_upper`],
    })
  );
  out.push(section({
    id: "figure1",
    title: "Figure 1: pre-flip versus public success",
    source: "Stag Hunt paper §5.1 prints 4 values; data/reference/staghunt_figure1.csv",
    notes: [
      "Focal setting N = 5, M = 3, base corruption, homogeneous groups, horizons pooled. The run's " +
      "interval is the 95% Wilson interval over its rounds; the paper prints none. The paper " +
      "prints the values at 20% and 80% corruption only.",
    ],
    tables: [
      { caption: named("Figure 1 (focal)"), frame: success },
      { caption: named("Figure 1 beside the paper's printed values"), frame: pl.concat(figure1) },
    ],
    charts: [
      {
        caption: named("Figure 1"),
        spec: successByCorruptionChart(successByCorruption(focal, { pool: ["T"] }), {
          title: `Figure 1: pre-flip vs public success, N = 5, M = 3 (${label})`,
        }),
      },
      {
        caption: named("Figure 1's printed values beside the run"),
        spec: paperVsRunChart(pl.concat(figure1), {
          x: "F",
          column: "column",
          runLabel: label,
          title: "Figure 1: run and paper (F of N = 5 corrupted)",
          yTitle: "success rate",
        }),
      },
    ],
    cells: figure1,
  }));

  // Table 1.
  const rates = matchRateTable(base).rename({ rate: "match_rate" });
  const table1 = published(rates, "staghunt_table1", {
    keys: ["rule"],
    values: ["match_rate"],
    runInterval: ["lower", "upper"],
  });
  out.push(section({
    id: "table1",
    title: "Table 1: benchmark match rates",
    source: "Stag Hunt paper §5.3, Table 1; data/reference/staghunt_table1.csv",
    notes: [
      "Honest turns with common support, every base setting pooled. The run's interval is the 95% " +
      "Wilson interval over its turns; the paper prints none (2,852 turns).",
    ],
    tables: [
      { caption: named("Table 1"), frame: rates },
      { caption: named("Table 1 beside the paper"), frame: table1 },
    ],
    charts: [
      {
        caption: named("Table 1"),
        spec: matchRateChart(rates.rename({ match_rate: "rate" }), {
          title: `Table 1: benchmark match rates (${label})`,
        }),
      },
      {
        caption: named("Table 1 beside the paper"),
        spec: paperVsRunChart(table1, {
          x: "rule",
          runLabel: label,
          title: "Table 1: run and paper",
          yTitle: "match rate",
        }),
      },
    ],
    cells: [table1],
  }));

  // Figure 3.
  const margins = stagByMargin(base);
  out.push(section({
    id: "figure3",
    title: "Figure 3: P(Stag) against the benchmark margin",
    source: "Stag Hunt paper §5.3, Figure 3",
    notes: ["The paper prints no values of this figure: the run's figure is shown alone."],
    tables: [{ caption: named("Figure 3"), frame: margins }],
    charts: [{
      caption: named("Figure 3"),
      spec: stagByMarginChart(margins, { title: `Figure 3: P(Stag) by margin (${label})` }),
    }],
    cells: null,
  }));

  // Figure A5.
  const gap = payoffGap(focal, { pool: ["T"] });
  // The run's 95% interval of each mean: ± 1.96 episode-clustered SE (none with one episode).
  const gapCi = gap.withColumns(
    ...["realised", "truthful"].flatMap((m) => [
      pl.col(m).minus(pl.col(`${m}_se`).mul(Z_95)).alias(`${m}_lower`),
      pl.col(m).plus(pl.col(`${m}_se`).mul(Z_95)).alias(`${m}_upper`),
    ]),
  );
  const a5 = ["realised", "truthful"].map((m) =>
    published(gapCi, "staghunt_figure_a5", {
      keys: ["F"],
      values: [m],
      runInterval: [`${m}_lower`, `${m}_upper`],
    })
  );
  out.push(section({
    id: "figure_a5",
    title: "Figure A5: realised versus truthful-implementation payoff",
    source: "Stag Hunt paper §5.4 prints 4 values; data/reference/staghunt_figure_a5.csv",
    notes: [
      "The text names 60% and 80% corruption (N = 5) but no threshold: compared with the focal " +
      "N = 5, M = 3, horizons pooled. The run's interval is its mean ± 1.96 SE clustered by " +
      "episode (a cell of one episode has none); the paper prints none.",
    ],
    tables: [
      { caption: named("Figure A5 (focal)"), frame: gap },
      { caption: named("Figure A5 beside the paper's printed values"), frame: pl.concat(a5) },
    ],
    charts: [
      {
        caption: named("Figure A5"),
        spec: payoffGapChart(gap, { title: `Figure A5: payoff per honest turn (${label})` }),
      },
      {
        caption: named("Figure A5's printed values beside the run"),
        spec: paperVsRunChart(pl.concat(a5), {
          x: "F",
          column: "column",
          runLabel: label,
          title: "Figure A5: run and paper (F of N = 5 corrupted)",
          yTitle: "payoff per honest turn",
        }),
      },
    ],
    cells: a5,
  }));

  // Table A1.
  const ablations = ablationTable(all);
  out.push(section({
    id: "table_a1",
    title: "Table A1: ablations (b3, h2, h3)",
    source: "Stag Hunt paper Appendix D, Table A1",
    notes: [
      "The paper's text prints no value of Table A1, so nothing is compared. The run's side: " +
      "public success by round per condition on the ablation points, base restricted to the " +
      "same points, with 95% Wilson intervals.",
      ...(ablations.height === 0 ? ["The run has no ablation episodes."] : []),
    ],
    tables: [{ caption: named("Table A1: public success by round"), frame: ablations }],
    charts: ablations.height === 0 ? [] : [{
      caption: named("Table A1"),
      spec: paperVsRunChart(
        withCell(
          ablations.select(
            "condition",
            "round",
            pl.lit("public").alias("column"),
            pl.col("public").alias("run"),
            pl.col("lower").alias("run_lower"),
            pl.col("upper").alias("run_upper"),
            pl.lit(null).cast(pl.Float64).alias("paper"),
          ),
          ["round"],
        ),
        {
          x: "cell",
          column: "condition",
          runLabel: label,
          title: "Table A1: public success by round (no published values)",
          yTitle: "public success",
        },
      ),
    }],
    cells: null,
  }));
  return out;
}

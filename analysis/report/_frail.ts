// The FRAIL paper's tables and figures, each with the run's values beside the
// published ones (data/reference/), for reproductionReport().

import pl from "npm:nodejs-polars@0.25.2";
import { earlyCommitmentChart, regimeChart, welfareBarsChart } from "../charts/frail_estimates.ts";
import { trajectoriesChart } from "../charts/trajectories_chart.ts";
import { countedEpisodes } from "../conditions.ts";
import { actionMeasuresTable } from "../frail/action_measures.ts";
import { earlyCommitment, earlyCommitmentBins } from "../frail/early_commitment.ts";
import { regimeTable } from "../frail/regime_table.ts";
import { scorecard } from "../frail/scorecard.ts";
import { successTable } from "../frail/success_table.ts";
import { trajectories, trajectoryReferences } from "../frail/trajectories.ts";
import { welfareAverage, welfareTable, welfareTableDisplay } from "../frail/welfare_table.ts";
import { compareWithReference, loadReference, withSeInterval } from "../reference.ts";
import { ciAggregations } from "../stats.ts";
import { paperVsRunChart } from "./paper_vs_run_chart.ts";
import { paperModelNames, published, type ReportSection, section, withCell } from "./_section.ts";

/** The run's frames a FRAIL report reads. */
export interface FrailFrames {
  episodes: pl.DataFrame;
  rounds: pl.DataFrame;
  decisions: pl.DataFrame;
}

const regime = (frame: pl.DataFrame, r: string) => frame.filter(pl.col("regime").eq(pl.lit(r)));

/** Per-model mean welfare realization with its 95% interval over the model's episodes. */
function perModelWelfare(episodes: pl.DataFrame, names: readonly string[]): pl.DataFrame {
  const counted = countedEpisodes(episodes, { game: "frail" })
    .filter(pl.col("welfare_realization").isNotNull());
  const keys = ["env", "regime", "overrides_id", "mechanism", "model"];
  return paperModelNames(
    counted.groupBy(keys).agg(...ciAggregations("welfare_realization")).sort(keys),
    names,
  );
}

const SE_PAPER = { into: ["paper_lo", "paper_hi"] as [string, string] };

/** Every FRAIL section. */
export function frailSections(frames: FrailFrames, label: string): ReportSection[] {
  const { episodes, rounds, decisions } = frames;
  const stable = regime(episodes, "stable");
  const named = (t: string) => `${t} (run: ${label})`;
  const out: ReportSection[] = [];
  const models2 = [
    ...new Set(loadReference("frail_table2").getColumn("model").toArray().map(String)),
  ];

  // Table 2 and Figure 3a.
  const cells = welfareTable(stable);
  const average = withSeInterval(welfareAverage(cells));
  const avgCells = published(
    average,
    withSeInterval(loadReference("frail_table2_average"), SE_PAPER),
    {
      keys: ["env", "regime", "mechanism"],
      values: ["mean"],
      runInterval: ["lower", "upper"],
      paperInterval: ["paper_lo", "paper_hi"],
    },
  );
  const perModel = published(perModelWelfare(stable, models2), "frail_table2", {
    keys: ["env", "regime", "mechanism", "model"],
    values: [["mean", "welfare"]],
    runInterval: ["lower", "upper"],
  });
  out.push(section({
    id: "table2",
    title: "Table 2: welfare realization W~ under M0-M3",
    source: "FRAIL §4.1, Table 2 (pp. 6-7); data/reference/frail_table2*.csv",
    notes: [
      "Per model: the run's 95% interval is its mean ± 1.96 SE over the model's episodes; the paper " +
      "prints no interval per model. Run models are matched to the paper's by name, case aside.",
      "Average: mean ± 1.96 SE across model means on both sides (a run of one model has no SE, " +
      "so no run interval).",
    ],
    tables: [
      { caption: named("Table 2 layout"), frame: welfareTableDisplay(cells) },
      { caption: named("Average W~ beside the paper"), frame: avgCells },
      { caption: named("Per-model W~ beside the paper"), frame: perModel },
    ],
    charts: [{
      caption: named("Average W~ beside FRAIL Table 2"),
      spec: paperVsRunChart(avgCells, {
        x: "mechanism",
        column: "env",
        runLabel: label,
        title: "Table 2, Average W~: run and paper",
        yTitle: "welfare realization W~",
      }),
    }],
    cells: [avgCells, perModel],
  }));
  out.push(section({
    id: "figure3a",
    title: "Figure 3a: welfare realization by environment",
    source: "FRAIL §4.1, Figure 3a (p. 7): the bars are Table 2's Average column",
    notes: [
      "The figure's published values are Table 2's Average column: their verdicts are counted " +
      "there, not again here.",
    ],
    tables: [],
    charts: [
      {
        caption: named("Figure 3a"),
        spec: welfareBarsChart(welfareAverage(cells), {
          title: `Figure 3a: welfare realization by environment (${label})`,
        }),
      },
      {
        caption: named("Figure 3a beside the paper's bars"),
        spec: paperVsRunChart(avgCells, {
          x: "mechanism",
          column: "env",
          runLabel: label,
          title: "Figure 3a: run and paper",
          yTitle: "welfare realization W~",
        }),
      },
    ],
    cells: null,
  }));

  // Table 8.
  const success = paperModelNames(successTable(stable), models2);
  const table8 = published(success, "frail_table8", {
    keys: ["env", "regime", "mechanism", "model"],
    values: ["rate"],
    runInterval: ["lower", "upper"],
    paperInterval: ["lower", "upper"],
    decimals: 2,
  });
  out.push(section({
    id: "table8",
    title: "Table 8: success rates with 95% Wilson intervals",
    source: "FRAIL Appendix H.1, Table 8 (p. 22); data/reference/frail_table8.csv",
    notes: ["Both sides' intervals are 95% Wilson score intervals; the paper prints 2 decimals."],
    tables: [
      { caption: named("Table 8"), frame: success },
      { caption: named("Table 8 beside the paper"), frame: table8 },
    ],
    charts: [{
      caption: named("Success rates beside FRAIL Table 8"),
      spec: paperVsRunChart(
        compareWithReference(success, loadReference("frail_table8"), {
          keys: ["env", "regime", "mechanism", "model"],
          values: ["rate"],
          runInterval: ["lower", "upper"],
          paperInterval: ["lower", "upper"],
          decimals: 2,
        }),
        {
          x: "model",
          column: "mechanism",
          row: "env",
          runLabel: label,
          title: "Table 8: success rate, run and paper",
          yTitle: "success rate",
        },
      ),
    }],
    cells: [table8],
  }));

  // Table 9.
  const measures = withSeInterval(actionMeasuresTable(stable, rounds));
  const table9 = published(measures, withSeInterval(loadReference("frail_table9"), SE_PAPER), {
    keys: ["measure", "env", "regime", "mechanism"],
    values: ["mean"],
    runInterval: ["lower", "upper"],
    paperInterval: ["paper_lo", "paper_hi"],
  });
  out.push(section({
    id: "table9",
    title: "Table 9: action-level measures",
    source: "FRAIL Appendix H.2, Table 9 (pp. 22-23); data/reference/frail_table9.csv",
    notes: ["Mean ± 1.96 SE across model means on both sides."],
    tables: [
      { caption: named("Table 9"), frame: measures },
      { caption: named("Table 9 beside the paper"), frame: table9 },
    ],
    charts: [{
      caption: named("Action measures beside FRAIL Table 9"),
      spec: paperVsRunChart(table9, {
        x: "mechanism",
        column: "measure",
        runLabel: label,
        title: "Table 9: run and paper",
        independentY: true,
      }),
    }],
    cells: [table9],
  }));

  // Figure 3b.
  const card = scorecard(stable, rounds);
  const figure3b = published(card, "frail_figure3b", {
    keys: ["regime", "dimension", "mechanism"],
    values: ["value"],
  });
  out.push(section({
    id: "figure3b",
    title: "Figure 3b: the mechanism scorecard",
    source:
      "FRAIL §4.1 Finding 3 (p. 7) prints 7 of the 24 values; data/reference/frail_figure3b.csv",
    notes: [
      "The paper prints the central-player welfare of M0-M3 and the early participation of " +
      "M1-M3 only; the other dimensions have no printed values. Neither side has an interval, so " +
      "a cell matches only at the printed precision.",
    ],
    tables: [
      { caption: named("Figure 3b scorecard"), frame: card },
      { caption: named("Figure 3b beside the paper's printed values"), frame: figure3b },
    ],
    charts: [{
      caption: named("Scorecard beside the printed values"),
      spec: paperVsRunChart(
        compareWithReference(card, loadReference("frail_figure3b"), {
          keys: ["regime", "dimension", "mechanism"],
          values: ["value"],
        }),
        {
          x: "mechanism",
          column: "dimension",
          runLabel: label,
          title: "Figure 3b: scorecard, run and paper",
        },
      ),
    }],
    cells: [figure3b],
  }));

  // Figure 4.
  const paths = trajectories(stable, rounds, decisions);
  const figure4 = published(paths, "frail_figure4", {
    keys: ["env", "regime", "mechanism", "panel", "round"],
    values: ["mean"],
    runInterval: ["lower", "upper"],
  });
  out.push(section({
    id: "figure4",
    title: "Figure 4: round-by-round dynamics",
    source: "FRAIL §4.2 (p. 8) prints 2 of the figure's values; data/reference/frail_figure4.csv",
    notes: [
      "The paper prints two values read off the figure (bank run M3 committed in round 1; the " +
      "crowdfunding M0 pool after round 1); the run's interval is its 95% band across episodes. " +
      "The other lines have no printed values.",
    ],
    tables: [{ caption: named("Figure 4 beside the paper's printed values"), frame: figure4 }],
    charts: [
      {
        caption: named("Figure 4"),
        spec: trajectoriesChart(paths, {
          references: trajectoryReferences(stable),
          title: `Figure 4: round-by-round dynamics (${label})`,
        }),
      },
      {
        caption: named("Figure 4's printed values beside the run"),
        spec: paperVsRunChart(withCell(figure4, ["env", "mechanism", "panel", "round"]), {
          x: "cell",
          runLabel: label,
          title: "Figure 4: printed values, run and paper",
        }),
      },
    ],
    cells: [figure4],
  }));

  // Figure 6.
  const early = earlyCommitment(stable, rounds);
  const bins = earlyCommitmentBins(early, { by: [] });
  const bankM1M3 = earlyCommitmentBins(
    early.filter(pl.col("env").eq(pl.lit("bank_run"))),
    { includeBaseline: false },
  );
  const figure6 = published(bankM1M3, "frail_figure6", {
    keys: ["env", "regime", "bin"],
    values: ["mean"],
    runInterval: ["lower", "upper"],
  });
  out.push(section({
    id: "figure6",
    title: "Figure 6: early committed share and outcomes",
    source: "FRAIL Appendix I.1 (p. 24) prints 2 values; data/reference/frail_figure6.csv",
    notes: [
      "The paper prints the bank-run success rate of M1-M3 episodes in the lowest and the highest " +
      "bin; the run's interval is its 95% interval across the bin's episodes. The figure's " +
      "other points have no printed values.",
    ],
    tables: [
      { caption: named("Figure 6 bins"), frame: bins },
      { caption: named("Figure 6 (bank run, M1-M3) beside the paper"), frame: figure6 },
    ],
    charts: [
      {
        caption: named("Figure 6"),
        spec: earlyCommitmentChart(bins, {
          title: `Figure 6: early committed share and outcomes (${label})`,
        }),
      },
      {
        caption: named("Figure 6's printed values beside the run"),
        spec: paperVsRunChart(figure6, {
          x: "bin",
          runLabel: label,
          title: "Figure 6, bank run M1-M3: run and paper",
          yTitle: "success rate",
        }),
      },
    ],
    cells: [figure6],
  }));

  // Tables 10-12.
  const regimes = episodes.filter(pl.col("regime").neq(pl.lit("stable")));
  if (regimes.height > 0) {
    // Table 10's stable column is the four-model subset that also played the other regimes.
    const subset = [...new Set(regimes.getColumn("model").toArray().map(String))];
    const four = pl.concat([
      stable.filter(pl.col("model").isIn(subset)),
      regimes,
    ]);
    const byRegime = withSeInterval(regimeTable(four));
    const table10 = published(byRegime, withSeInterval(loadReference("frail_table10"), SE_PAPER), {
      keys: ["env", "mechanism", "regime"],
      values: ["mean"],
      runInterval: ["lower", "upper"],
      paperInterval: ["paper_lo", "paper_hi"],
    });
    out.push(section({
      id: "table10",
      title: "Table 10: welfare realization across regimes",
      source: "FRAIL Appendix I.2, Table 10 (p. 25); data/reference/frail_table10.csv",
      notes: [
        "The stable column uses the run's models that also played expansion and contraction " +
        "(the paper's four-model subset). Mean ± 1.96 SE across model means on both sides; the " +
        "averages of Tables 11 and 12 are this table's expansion and contraction columns and are " +
        "counted here.",
      ],
      tables: [
        { caption: named("Table 10"), frame: byRegime },
        { caption: named("Table 10 beside the paper"), frame: table10 },
      ],
      charts: [
        {
          caption: named("Table 10"),
          spec: regimeChart(byRegime, { title: `Table 10: welfare across regimes (${label})` }),
        },
        {
          caption: named("Table 10 beside the paper"),
          spec: paperVsRunChart(table10, {
            x: "mechanism",
            column: "regime",
            row: "env",
            runLabel: label,
            title: "Table 10: run and paper",
            yTitle: "welfare realization W~",
          }),
        },
      ],
      cells: [table10],
    }));
    const models11 = [
      ...new Set(loadReference("frail_table11").getColumn("model").toArray().map(String)),
    ];
    for (
      const [id, r, name] of [["table11", "expansion", "frail_table11"], [
        "table12",
        "contraction",
        "frail_table12",
      ]] as const
    ) {
      const mine = regime(episodes, r);
      const perModelR = published(perModelWelfare(mine, models11), name, {
        keys: ["env", "regime", "mechanism", "model"],
        values: [["mean", "welfare"]],
        runInterval: ["lower", "upper"],
      });
      out.push(section({
        id,
        title: `Table ${id.slice(5)}: per model, ${r} regime`,
        source: `FRAIL Appendix I.2, Table ${id.slice(5)} (p. 25); data/reference/${name}.csv`,
        notes: [
          "Per model: the run's 95% interval is its mean ± 1.96 SE over the model's episodes. " +
          "The Average column is Table 10's " + r + " column, counted there.",
        ],
        tables: [
          {
            caption: named(`Table ${id.slice(5)} layout`),
            frame: mine.height > 0 ? welfareTableDisplay(welfareTable(mine)) : pl.DataFrame({}),
          },
          { caption: named(`Table ${id.slice(5)} beside the paper`), frame: perModelR },
        ],
        charts: [],
        cells: [perModelR],
      }));
    }
  } else {
    for (const [id, t] of [["table10", "10"], ["table11", "11"], ["table12", "12"]]) {
      out.push(section({
        id,
        title: `Table ${t}: regimes`,
        source: `FRAIL Appendix I.2, Table ${t} (p. 25)`,
        notes: ["The run has no expansion or contraction episodes: nothing to compare."],
        tables: [],
        charts: [],
        cells: null,
      }));
    }
  }
  return out;
}

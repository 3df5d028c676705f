/**
 * A paper's every table and figure recomputed from a run's logs, each with
 * the published values (`data/reference/`) on the same chart or in the same
 * table, and a verdict per published cell (`referenceVerdict()`: inside the
 * run's 95% interval, inside the published one, equal at the printed
 * precision, or outside), counted per section and in all.
 *
 * A notebook cell calls {@linkcode reproductionReport} on `loadRuns()`'s
 * frames and displays one section (`displayTable(section.cells)`,
 * `displayChart(section.charts[0].spec)`); `deno task reproduce` writes the
 * whole report as `report.html` and `report.md` (`render.ts`).
 *
 * @module
 */

import type pl from "npm:nodejs-polars@0.25.2";
import { frailSections } from "./_frail.ts";
import {
  addCounts,
  agentsOf,
  noCounts,
  type ReportSection,
  type VerdictCounts,
} from "./_section.ts";
import { stagHuntSections } from "./_staghunt.ts";

export type { ReportChart, ReportSection, ReportTable, VerdictCounts } from "./_section.ts";

/** The papers a report reproduces. */
export const REPORT_PAPERS = ["frail", "staghunt"] as const;

/** A paper a report reproduces: `"frail"` or `"staghunt"`. */
export type ReportPaper = (typeof REPORT_PAPERS)[number];

/** Titles of the papers. */
export const PAPER_TITLES: Readonly<Record<ReportPaper, string>> = {
  frail: "Financial Fragility in Societies of LLM Agents (FRAIL)",
  staghunt: "Be Careful Who You Trust: Coordination Dynamics under Corrupted Communication",
};

/** The frames a report reads (those of `loadRuns()`). */
export interface ReportFrames {
  /** One row per episode. */
  episodes: pl.DataFrame;
  /** FRAIL: one row per round. */
  rounds?: pl.DataFrame;
  /** FRAIL: one row per decision. */
  decisions?: pl.DataFrame;
  /** Stag Hunt: one row per turn (`loadRuns(dir, { frames: ["turns"] })`). */
  turns?: pl.DataFrame;
}

/** What reproducing one paper takes: its family of games, the frames it reads, its sections. */
interface PaperReport {
  /** The family of games its episodes belong to (`episode_start.game`). */
  game: string;
  /** The frames it needs besides `episodes`. */
  frames: readonly ("rounds" | "decisions" | "turns")[];
  /** Its sections, from frames holding those it needs. */
  sections(frames: ReportFrames, agents: string): ReportSection[];
}

/** Each paper's report; the paper-specific code lives in `_frail.ts` and `_staghunt.ts`. */
const PAPER_REPORTS: Readonly<Record<ReportPaper, PaperReport>> = {
  frail: {
    game: "frail",
    frames: ["rounds", "decisions"],
    sections: (f, agents) =>
      frailSections({ episodes: f.episodes, rounds: f.rounds!, decisions: f.decisions! }, agents),
  },
  staghunt: {
    game: "staghunt",
    frames: ["turns"],
    sections: (f, agents) => stagHuntSections({ episodes: f.episodes, turns: f.turns! }, agents),
  },
};

/**
 * The frames a paper's report reads (`loadRuns(dir, { frames })`).
 *
 * @example
 * ```ts
 * import { reportFrames } from "./reproduction.ts";
 * if (reportFrames("staghunt").join() !== "turns") throw new Error();
 * ```
 */
export function reportFrames(paper: ReportPaper): readonly ("rounds" | "decisions" | "turns")[] {
  return PAPER_REPORTS[paper].frames;
}

/** Options for {@linkcode reproductionReport}. */
export interface ReproductionReportOptions {
  /** The paper. */
  paper: ReportPaper;
}

/** A reproduction report. */
export interface ReproductionReport {
  /** The paper. */
  paper: ReportPaper;
  /** Its title. */
  title: string;
  /** What played the run, on every page and chart: `"mock agents"` or `"LLM agents"`. */
  agents: string;
  /** Whether every episode was played by mock agents. */
  mock: boolean;
  /** The models (or mock policies) of the run's episodes, sorted. */
  models: string[];
  /** Episodes in the run. */
  episodes: number;
  /** The sections, in the paper's order. */
  sections: ReportSection[];
  /** The verdicts of every published cell, summed over the sections. */
  counts: VerdictCounts;
}

/**
 * Builds a paper's reproduction report from a run's frames.
 *
 * FRAIL: Tables 2, 8, 9, 10, 11, 12 and Figures 3a, 3b, 4 and 6 (from the
 * episodes, rounds and decisions frames). The Stag Hunt: Figure 1, Table 1,
 * Figure 3, Figure A5 and Table A1 (from the episodes and turns frames).
 * Where the paper prints no value of a figure, its section says so and
 * compares nothing.
 *
 * @param frames The run's frames, from `loadRuns()`.
 * @param options The paper.
 * @returns The report: sections with tables, charts and verdicts.
 * @throws {RangeError} For an unknown paper, a frame the paper needs that is
 * missing, or a run of another game.
 *
 * @example
 * ```ts
 * import { loadRuns } from "../load/load_runs.ts";
 * import { runGrid } from "../../engine/grid/run_grid.ts";
 * import { reproductionReport } from "./reproduction.ts";
 *
 * const dir = await Deno.makeTempDir();
 * await runGrid({ name: "r", episodes: 1, blocks: [{ game: "staghunt", N: [5], M: [3], T: [2], F: [1, 4],
 *   agents: [{ mock: { players: "threshold", rule: "carryover" } }] }] }, { out: dir, progress: false, workers: 0 });
 * const report = reproductionReport(await loadRuns(dir, { frames: ["turns"] }), { paper: "staghunt" });
 * if (report.agents !== "mock agents") throw new Error("labelled mock");
 * const figure1 = report.sections.find((s) => s.id === "figure1")!;
 * if (figure1.cells!.height !== 4) throw new Error("four printed cells");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function reproductionReport(
  frames: ReportFrames,
  options: ReproductionReportOptions,
): ReproductionReport {
  const { paper } = options;
  if (!REPORT_PAPERS.includes(paper)) {
    throw new RangeError(
      `Unknown paper "${paper}": expected one of ${REPORT_PAPERS.map((p) => `"${p}"`).join(", ")}`,
    );
  }
  const report = PAPER_REPORTS[paper];
  const game = report.game;
  const games = [...new Set(frames.episodes.getColumn("game").toArray().map(String))];
  const others = games.filter((g) => g !== game);
  if (others.length > 0) {
    throw new RangeError(
      `reproductionReport(): the ${paper} report reads ${game} episodes, but the run holds ` +
        `${others.join(", ")} episodes; load the ${game} run alone`,
    );
  }
  const need = report.frames;
  for (const name of need) {
    if (frames[name] === undefined) {
      throw new RangeError(
        `reproductionReport(): the ${paper} report needs the "${name}" frame; load it with ` +
          `loadRuns(dir, { frames: [${need.map((n) => `"${n}"`).join(", ")}] })`,
      );
    }
  }
  const who = agentsOf(frames.episodes);
  const sections = report.sections(frames, who.label);
  return {
    paper,
    title: PAPER_TITLES[paper],
    agents: who.label,
    mock: who.mock,
    models: who.models,
    episodes: frames.episodes.height,
    sections,
    counts: sections.reduce((total, s) => addCounts(total, s.counts), noCounts()),
  };
}

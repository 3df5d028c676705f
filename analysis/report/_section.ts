// Shared pieces of the report's sections: the section type, verdict counts,
// the run's agents label, and comparing a run table with a published one.

import pl from "npm:nodejs-polars@0.25.2";
import type { VegaLiteSpec } from "../charts/spec.ts";
import {
  compareWithReference,
  type CompareWithReferenceOptions,
  loadReference,
  type ReferenceName,
  type ReferenceVerdict,
} from "../reference.ts";

/** A table of a report section. */
export interface ReportTable {
  /** Caption, naming the run's agents. */
  caption: string;
  /** The table. */
  frame: pl.DataFrame;
}

/** A chart of a report section. */
export interface ReportChart {
  /** Caption under the chart. */
  caption: string;
  /** The Vega-Lite spec (its title names the run's agents). */
  spec: VegaLiteSpec;
}

/** The published cells' verdicts, counted (cells only in the run are not counted). */
export type VerdictCounts = Record<Exclude<ReferenceVerdict, "no_paper">, number>;

/** One table or figure of the paper, with the run's values beside the published ones. */
export interface ReportSection {
  /** Short id, e.g. `"table2"`. */
  id: string;
  /** Title, e.g. `"Table 2: welfare realization"`. */
  title: string;
  /** Where the published values are printed, e.g. `"FRAIL §4.1, Table 2 (pp. 6-7)"`. */
  source: string;
  /** Sentences about the section: what was compared, what the paper does not print. */
  notes: string[];
  /** The run's tables and the comparisons. */
  tables: ReportTable[];
  /** The charts. */
  charts: ReportChart[];
  /**
   * Every published cell compared (`compareWithReference()` rows with a
   * published value, verdict included), or `null` when the paper prints no
   * value for it.
   */
  cells: pl.DataFrame | null;
  /** The verdicts of `cells`, counted. */
  counts: VerdictCounts;
}

/** Zero counts. */
export function noCounts(): VerdictCounts {
  return { run: 0, paper: 0, printed: 0, outside: 0, no_run: 0 };
}

/** Adds counts into a total. */
export function addCounts(total: VerdictCounts, more: VerdictCounts): VerdictCounts {
  const out = { ...total };
  for (const key of Object.keys(out) as (keyof VerdictCounts)[]) out[key] += more[key];
  return out;
}

/** Counts the verdicts of the published cells of comparison frames. */
export function countVerdicts(cells: pl.DataFrame | null): VerdictCounts {
  const counts = noCounts();
  if (cells === null) return counts;
  for (const v of cells.getColumn("verdict").toArray() as ReferenceVerdict[]) {
    if (v !== "no_paper") counts[v]++;
  }
  return counts;
}

/** What played a run: `"mock agents"` when every model of its episodes is a mock, else `"LLM agents"`. */
export function agentsOf(
  episodes: pl.DataFrame,
): { label: string; mock: boolean; models: string[] } {
  const models = [...new Set(episodes.getColumn("model").toArray().map(String))].sort();
  const mock = models.length > 0 && models.every((m) => m.startsWith("mock"));
  return { label: mock ? "mock agents" : "LLM agents", mock, models };
}

/**
 * Renames the run's models to the paper's names where they are the same
 * but for case (`gpt-sol` is Table 2's `GPT-sol`); others stay.
 */
export function paperModelNames(run: pl.DataFrame, names: readonly string[]): pl.DataFrame {
  if (!run.columns.includes("model")) return run;
  const byLower = new Map(names.map((n) => [n.toLowerCase(), n]));
  const mapped = (run.getColumn("model").toArray() as string[]).map((m) =>
    byLower.get(String(m).toLowerCase()) ?? m
  );
  return run.withColumns(pl.Series("model", mapped, pl.Utf8));
}

/** Compares a run table with a published one and keeps the published cells. */
export function published(
  run: pl.DataFrame,
  paper: ReferenceName | pl.DataFrame,
  options: CompareWithReferenceOptions,
): pl.DataFrame {
  const table = typeof paper === "string" ? loadReference(paper) : paper;
  return compareWithReference(run, table, options).filter(pl.col("paper").isNotNull());
}

/** A section from its parts, its counts computed. */
export function section(
  parts: Omit<ReportSection, "counts" | "cells"> & { cells: pl.DataFrame[] | null },
): ReportSection {
  const cells = parts.cells === null
    ? null
    : parts.cells.length === 1
    ? parts.cells[0]
    : pl.concat(parts.cells, { how: "diagonal" });
  return { ...parts, cells, counts: countVerdicts(cells) };
}

/** Adds a `cell` column naming each row by its keys, for a chart's x axis. */
export function withCell(frame: pl.DataFrame, keys: readonly string[]): pl.DataFrame {
  const labels = frame.toRecords().map((r) => keys.map((k) => `${k} ${r[k]}`).join(", "));
  return frame.withColumns(pl.Series("cell", labels, pl.Utf8));
}

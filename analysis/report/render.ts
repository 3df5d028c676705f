/**
 * A reproduction report as files: `report.html` (static and offline: inline
 * SVG charts from `renderSvg`, inline CSS, no script, no external request)
 * and `report.md` (the same tables and verdicts as Markdown; its charts are
 * in `report.html`). Both are functions of the report alone: the same run
 * gives the same bytes.
 *
 * @module
 */

import { join } from "node:path";
import type pl from "npm:nodejs-polars@0.25.2";
import { escapeHtml } from "../_html.ts";
import { cellText } from "../_table_format.ts";
import { renderSvg } from "../charts/render.ts";
import type { ReferenceVerdict } from "../reference.ts";
import type { ReproductionReport, VerdictCounts } from "./reproduction.ts";

/** How each verdict reads in a report. */
export const VERDICT_TEXT: Readonly<Record<ReferenceVerdict, string>> = {
  run: "within the run's 95% interval",
  paper: "within the published 95% interval",
  printed: "equal at the printed precision",
  outside: "outside",
  no_run: "not in the run",
  no_paper: "not in the paper",
};

const ORDER: (keyof VerdictCounts)[] = ["run", "paper", "printed", "outside", "no_run"];

/** The counts as one sentence. */
export function countsText(counts: VerdictCounts): string {
  const total = ORDER.reduce((sum, key) => sum + counts[key], 0);
  return `${total} published cells: ` +
    ORDER.map((key) => `${counts[key]} ${VERDICT_TEXT[key]}`).join(", ");
}

function banner(report: ReproductionReport): string {
  return report.mock
    ? "Played by mock agents (rule-based, not LLMs): compare shapes, not values."
    : `Played by LLM agents: ${report.models.join(", ")}.`;
}

function rowsOf(frame: pl.DataFrame): string[][] {
  return frame.rows().map((row) => row.map((cell) => cellText(cell, 3)));
}

function htmlTable(caption: string, frame: pl.DataFrame): string {
  const head = frame.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join("");
  const verdictAt = frame.columns.indexOf("verdict");
  const body = rowsOf(frame).map((row) =>
    `<tr${verdictAt >= 0 ? ` class="v-${escapeHtml(row[verdictAt])}"` : ""}>${
      row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join("")
    }</tr>`
  ).join("\n");
  return `<table><caption>${escapeHtml(caption)}</caption>\n<thead><tr>${head}</tr></thead>\n` +
    `<tbody>\n${body}\n</tbody></table>`;
}

const STYLE = `body{font-family:sans-serif;max-width:72rem;margin:1rem auto;padding:0 1rem}
.banner{background:#fff3cd;border:1px solid #e0c36c;padding:.5rem 1rem}
table{border-collapse:collapse;margin:.75rem 0;font-size:.85rem}caption{text-align:left;font-weight:bold}
td,th{border:1px solid #ccc;padding:.15rem .4rem;text-align:right}
tr.v-run td,tr.v-paper td,tr.v-printed td{background:#e6f4ea}tr.v-outside td{background:#fce8e6}
tr.v-no_run td{background:#f1f3f4}figure{margin:.75rem 0}figcaption{font-size:.85rem}
figure svg{max-width:100%;height:auto}`;

/**
 * The report as one static HTML page: a banner naming what played the run,
 * the verdict counts, then every section with its notes, tables (published
 * cells coloured by verdict) and charts as inline SVG. Every text from the
 * run is escaped; the page loads nothing.
 *
 * @param report From `reproductionReport()`.
 * @returns The page.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { reportHtml } from "./render.ts";
 *
 * const html = await reportHtml({
 *   paper: "staghunt", title: "T", agents: "mock agents", mock: true, models: ["mock:threshold"],
 *   episodes: 1, counts: { run: 1, paper: 0, printed: 0, outside: 0, no_run: 0 },
 *   sections: [{ id: "s", title: "S <1>", source: "p. 1", notes: [], charts: [],
 *     tables: [{ caption: "c", frame: pl.DataFrame({ verdict: ["run"] }) }], cells: null,
 *     counts: { run: 1, paper: 0, printed: 0, outside: 0, no_run: 0 } }],
 * });
 * if (!html.includes("S &lt;1&gt; (run: mock agents)")) throw new Error("escaped, labelled");
 * if (/<script|https?:/.test(html)) throw new Error("offline");
 * ```
 */
export async function reportHtml(report: ReproductionReport): Promise<string> {
  const parts: string[] = [];
  for (const s of report.sections) {
    const charts: string[] = [];
    for (const chart of s.charts) {
      // Vega's SVG carries its namespace URL as an attribute; nothing is fetched from it.
      charts.push(
        `<figure>${await renderSvg(chart.spec)}<figcaption>${
          escapeHtml(chart.caption)
        }</figcaption></figure>`,
      );
    }
    parts.push(
      `<section id="${escapeHtml(s.id)}">\n<h2>${
        escapeHtml(`${s.title} (run: ${report.agents})`)
      }</h2>\n` +
        `<p><em>Published values: ${escapeHtml(s.source)}</em></p>\n` +
        (s.cells === null
          ? "<p>No published cell compared.</p>\n"
          : `<p><strong>${escapeHtml(countsText(s.counts))}</strong></p>\n`) +
        s.notes.map((n) => `<p>${escapeHtml(n)}</p>\n`).join("") +
        s.tables.map((t) => htmlTable(t.caption, t.frame)).join("\n") + "\n" +
        charts.join("\n") + "\n</section>",
    );
  }
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n` +
    `<title>${escapeHtml(`Reproduction: ${report.title} (${report.agents})`)}</title>\n` +
    `<style>${STYLE}</style></head><body>\n` +
    `<h1>${escapeHtml(`Reproduction: ${report.title}`)}</h1>\n` +
    `<p class="banner"><strong>${escapeHtml(banner(report))}</strong></p>\n` +
    `<p>${report.episodes} episodes. <strong>${
      escapeHtml(countsText(report.counts))
    }</strong>.</p>\n` +
    `<p>${escapeHtml(RULE)}</p>\n` +
    parts.join("\n") + "\n</body></html>\n";
}

const RULE = "Verdict per published cell, first that holds: the published value lies inside " +
  "the run's 95% interval; the run's value lies inside the published 95% interval (a printed " +
  "interval, or mean ± 1.96 SE); the run's value rounds to the published one at the printed " +
  "precision; otherwise outside. A cell the run lacks is 'not in the run'.";

function mdCell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ")
    .replace(/[<>]/g, (c) => (c === "<" ? "&lt;" : "&gt;"));
}

function mdTable(caption: string, frame: pl.DataFrame): string {
  const head = `| ${frame.columns.map(mdCell).join(" | ")} |`;
  const rule = `| ${frame.columns.map(() => "---").join(" | ")} |`;
  const body = rowsOf(frame).map((row) => `| ${row.map(mdCell).join(" | ")} |`);
  return [`**${mdCell(caption)}**`, "", head, rule, ...body].join("\n");
}

/**
 * The report as Markdown: the same banner, counts, notes and tables as
 * {@linkcode reportHtml}; charts are named, and drawn in `report.html`.
 *
 * @param report From `reproductionReport()`.
 * @returns The Markdown text.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { reportMarkdown } from "./render.ts";
 *
 * const md = reportMarkdown({
 *   paper: "frail", title: "T", agents: "mock agents", mock: true, models: ["mock:defensive"],
 *   episodes: 1, counts: { run: 0, paper: 0, printed: 0, outside: 1, no_run: 0 },
 *   sections: [{ id: "s", title: "S", source: "p. 1", notes: [], charts: [], cells: null,
 *     tables: [{ caption: "c", frame: pl.DataFrame({ a: ["x|y"] }) }],
 *     counts: { run: 0, paper: 0, printed: 0, outside: 1, no_run: 0 } }],
 * });
 * if (!md.includes("| x\\|y |")) throw new Error("pipes escaped");
 * if (!md.includes("1 published cells: 0 within the run's 95% interval")) throw new Error("counts");
 * ```
 */
export function reportMarkdown(report: ReproductionReport): string {
  const out = [
    `# Reproduction: ${mdCell(report.title)}`,
    "",
    `**${mdCell(banner(report))}**`,
    "",
    `${report.episodes} episodes. **${countsText(report.counts)}**.`,
    "",
    RULE,
  ];
  for (const s of report.sections) {
    out.push(
      "",
      `## ${mdCell(`${s.title} (run: ${report.agents})`)}`,
      "",
      `*Published values: ${mdCell(s.source)}*`,
      "",
      s.cells === null ? "No published cell compared." : `**${countsText(s.counts)}**`,
    );
    for (const n of s.notes) out.push("", mdCell(n));
    for (const t of s.tables) out.push("", mdTable(t.caption, t.frame));
    if (s.charts.length > 0) {
      out.push(
        "",
        `Charts (in report.html): ${s.charts.map((c) => mdCell(c.caption)).join("; ")}.`,
      );
    }
  }
  return out.join("\n") + "\n";
}

/**
 * Writes `report.html` and `report.md` into a folder (created if need be).
 *
 * @param report From `reproductionReport()`.
 * @param dir The folder.
 * @returns The two files' paths.
 *
 * @example
 * ```ts
 * import { writeReport } from "./render.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const counts = { run: 0, paper: 0, printed: 0, outside: 0, no_run: 0 };
 * const files = await writeReport({ paper: "frail", title: "T", agents: "mock agents", mock: true,
 *   models: [], episodes: 0, counts, sections: [] }, dir);
 * if (!(await Deno.readTextFile(files.md)).startsWith("# Reproduction: T")) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeReport(
  report: ReproductionReport,
  dir: string,
): Promise<{ html: string; md: string }> {
  await Deno.mkdir(dir, { recursive: true });
  const html = join(dir, "report.html");
  const md = join(dir, "report.md");
  await Deno.writeTextFile(html, await reportHtml(report));
  await Deno.writeTextFile(md, reportMarkdown(report));
  return { html, md };
}

// The diff page: two episodes side by side, aligned by round (from
// `diffEpisodes`), the first divergence highlighted and anchored
// (`#first-divergence`), with links to both episode pages and, for a branch,
// which one is the parent. Like episode pages it runs no script; every value
// from a log (ids, reports, model replies) is escaped.

import type { EpisodeDiff, RoundDiff } from "../../engine/core/episode_diff.ts";
import type { EngineEvent } from "../../engine/core/events.ts";
import { esc, valueText } from "./_format.ts";
import { VIEWER_CSS } from "./_style.ts";

/** Links and labels around a diff. */
export interface DiffHtmlParts {
  /** Page of episode `a`, if there is one. */
  hrefA?: string;
  /** Page of episode `b`, if there is one. */
  hrefB?: string;
  /** The run index, in a run site. */
  index?: string;
  /** Plain-text notes under the header. */
  notes?: readonly string[];
}

const DIFF_CSS = `
.cl table.diff td.a,.cl table.diff td.b{width:40%;word-break:break-word}
.cl table.diff td.p{white-space:nowrap;color:var(--muted);font:12px ui-monospace,Menlo,Consolas,monospace}
.cl details.round.same>summary{opacity:.75}
.cl details.round.first{border:2px solid var(--bad)}
.cl details.round.first>summary{background:var(--bad-bg)}
.cl .side{display:grid;grid-template-columns:1fr 1fr;gap:12px;margin:8px 0}
.cl .side>div{border:1px solid var(--line);border-radius:6px;padding:6px 10px}
.cl .banner.okb{background:var(--ok-bg);color:var(--ok);border-color:var(--ok)}
`;

/** The page head and body of a diff, as a whole page (no script). */
export function diffPage(
  diff: EpisodeDiff,
  a: readonly EngineEvent[],
  b: readonly EngineEvent[],
  parts: DiffHtmlParts = {},
): string {
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>diff ${esc(diff.a)} · ${esc(diff.b)}</title>`,
    `<style>body{margin:0;background:#fff}${VIEWER_CSS}${DIFF_CSS}</style></head>`,
    `<body><main class="cl cl-diff">${diffBody(diff, a, b, parts)}</main></body></html>\n`,
  ].join("");
}

/** The diff as an HTML fragment with its own scoped <style>, for a notebook. */
export function diffFragment(
  diff: EpisodeDiff,
  a: readonly EngineEvent[],
  b: readonly EngineEvent[],
  parts: DiffHtmlParts = {},
): string {
  return `<div class="cl cl-diff"><style>${VIEWER_CSS}${DIFF_CSS}</style>${
    diffBody(diff, a, b, parts)
  }</div>`;
}

function diffBody(
  diff: EpisodeDiff,
  a: readonly EngineEvent[],
  b: readonly EngineEvent[],
  parts: DiffHtmlParts,
): string {
  const out: string[] = [];
  if (parts.index !== undefined) {
    out.push(`<nav class="crumbs"><a href="${esc(parts.index)}">← run index</a></nav>`);
  }
  out.push(`<h1>Diff of two episodes</h1>`);
  const role = (side: "a" | "b") =>
    diff.branch === null ? "" : diff.branch.child === side ? " (branch)" : " (parent)";
  const link = (id: string, href: string | undefined) =>
    href === undefined ? `<b>${esc(id)}</b>` : `<a href="${esc(href)}"><b>${esc(id)}</b></a>`;
  out.push(
    `<div class="side"><div data-side="a">left${role("a")}: ${link(diff.a, parts.hrefA)}${
      summary(a)
    }</div><div data-side="b">right${role("b")}: ${link(diff.b, parts.hrefB)}${
      summary(b)
    }</div></div>`,
  );
  if (diff.branch !== null) {
    const child = diff.branch.child === "a" ? diff.a : diff.b;
    out.push(
      `<p class="meta">${esc(child)} is a branch of the other from round ${diff.branch.round}: ` +
        `rounds before it are its parent's, every draw its change does not touch is the parent's.</p>`,
    );
  }
  for (const note of parts.notes ?? []) out.push(`<div class="banner warn">${esc(note)}</div>`);
  out.push(
    diff.firstRound === null
      ? `<div class="banner okb" data-first="none">No round differs: every state hash, report and game event is the same.</div>`
      : `<div class="banner bad" data-first="${diff.firstRound}">First divergence: ` +
        `<a href="#first-divergence">round ${diff.firstRound}</a></div>`,
  );
  out.push(`<h2>Rounds</h2>`);
  for (const r of diff.rounds) out.push(roundHtml(r, r.round === diff.firstRound));
  return out.join("");
}

/** The condition and outcome of one side. */
function summary(events: readonly EngineEvent[]): string {
  const start = events.find((e) => e.type === "episode_start");
  const end = events.find((e) => e.type === "episode_end");
  const bits: string[] = [];
  if (start?.type === "episode_start") bits.push(esc(start.condition_id));
  if (end?.type === "episode_end" && end.outcome) {
    const o = end.outcome;
    bits.push(
      `${o.success ? "success" : `failure${o.failure ? ` (${esc(o.failure)})` : ""}`}`,
      `W ${esc(valueText(o.welfare))}`,
      `${o.rounds} rounds`,
    );
  } else if (end?.type === "episode_end") bits.push(esc(end.status));
  return `<div class="meta">${bits.join(" · ")}</div>`;
}

function roundHtml(r: RoundDiff, first: boolean): string {
  const cls = ["round", r.same ? "same" : "differs", first ? "first" : ""].filter(Boolean).join(
    " ",
  );
  const pill = r.same
    ? `<span class="pill ok">same</span>`
    : r.missing
    ? `<span class="pill warn">only ${r.missing === "a" ? "right" : "left"}</span>`
    : `<span class="pill bad">differs</span>`;
  const counts = r.same
    ? ""
    : `<span class="sub">${r.state.length} state fields, ${r.agents.length} agents</span>`;
  const id = first ? ` id="first-divergence"` : "";
  const hashes = `<div class="hash">state ${esc(short(r.hashes[0]))} · ${
    esc(short(r.hashes[1]))
  }</div>`;
  const body: string[] = [];
  if (r.state.length > 0) {
    body.push(`<h3>State</h3>`, rows(r.state.map((d) => [d.path, d.a, d.b])));
  }
  for (const agent of r.agents) {
    const list: [string, unknown, unknown][] = [
      ...agent.reports.map((d): [string, unknown, unknown] => [`report ${d.path}`, d.a, d.b]),
      ...agent.decisions.map((d): [string, unknown, unknown] => [d.path, d.a, d.b]),
      ...agent.replies.map((d): [string, unknown, unknown] => [`reply ${d.path}`, d.a, d.b]),
    ];
    body.push(`<h3 data-agent="${esc(agent.agent)}">${esc(agent.agent)}</h3>`, rows(list));
  }
  return `<details class="${cls}"${id}${r.same ? "" : " open"} data-round="${r.round}">` +
    `<summary><strong>Round ${r.round}</strong>${pill}${counts}</summary>` +
    `<div class="body">${hashes}${body.join("")}</div></details>`;
}

function rows(list: readonly [string, unknown, unknown][]): string {
  const tr = list.map(([p, a, b]) =>
    `<tr><td class="p">${esc(p)}</td><td class="a">${cell(a)}</td><td class="b">${
      cell(b)
    }</td></tr>`
  );
  return `<table class="diff"><thead><tr><th>field</th><th>left</th><th>right</th></tr></thead>` +
    `<tbody>${tr.join("")}</tbody></table>`;
}

function cell(value: unknown): string {
  if (value === undefined) return `<del>absent</del>`;
  if (typeof value === "object" && value !== null) {
    return `<pre>${esc(JSON.stringify(value, null, 1))}</pre>`;
  }
  return esc(valueText(value));
}

function short(hash: string | null): string {
  return hash === null ? "not played" : hash.slice(0, 12);
}

/** The diff page of a branch whose parent cannot be shown. */
export function missingParentPage(
  entry: { run: string; episode: string },
  why: string,
  href: string,
  index: string,
): string {
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<title>diff ${esc(entry.run)}/${esc(entry.episode)}</title>`,
    `<style>body{margin:0;background:#fff}${VIEWER_CSS}</style></head>`,
    `<body><main class="cl cl-diff"><nav class="crumbs"><a href="${
      esc(index)
    }">← run index</a></nav>`,
    `<h1>Diff of ${esc(entry.episode)}</h1><div class="banner warn">${esc(why)}</div>`,
    `<p><a href="${esc(href)}">The branch's page</a></p></main></body></html>\n`,
  ].join("");
}

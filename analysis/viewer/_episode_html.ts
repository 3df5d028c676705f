// HTML of one episode: a header (condition, status, outcome, W, W~,
// bounds, derived quantities, players, the chart) and one collapsible
// <details> per round. No JavaScript: the markup works in untrusted
// notebooks and exported HTML. Every logged string is escaped.

import type { GameView } from "../../engine/core/game.ts";
import type { CallTranscript } from "../_transcript.ts";
import { isRecord } from "./_condition.ts";
import type { AgentCall, EpisodeModel, RoundEntry, TurnEntry } from "./_episode_model.ts";
import {
  BASE_FIELDS,
  clip,
  esc,
  fieldsHtml,
  humanKey,
  isPercentField,
  kvTable,
  numHtml,
  paramsText,
  percentHtml,
  plural,
  probabilityHtml,
  table,
  valueHtml,
  valueText,
} from "./_format.ts";
import { gameView } from "./_game_view.ts";
import type { LogEvent } from "./_log_source.ts";
import { VIEWER_CSS } from "./_style.ts";
import { type CostCurrency, money, UNRECORDED_CURRENCY } from "./_currency.ts";

/** Links of an episode page inside a run site (relative paths the site writer made). */
export interface SiteNav {
  /** The run index. */
  index: string;
  /** Further links (a branch's parent and its diff page). */
  links?: readonly { href: string; label: string }[];
}

/** What goes around the episode itself. */
export interface EpisodeHtmlParts {
  /** Ready HTML of the chart (an <img> or <svg>), or nothing. */
  chart?: string;
  /** Caption under the chart (plain text). */
  chartCaption?: string;
  /** Plain-text notes shown under the header (skipped lines, repeated blocks). */
  notes?: readonly string[];
  /** Navigation links, in a run site. */
  nav?: SiteNav;
  /** How the episode's game is shown (default: the registry's view of it). */
  view?: GameView;
  /**
   * The currency of the episode's costs (its run manifest's); default not
   * recorded: costs are bare numbers, and the page says why.
   */
  currency?: CostCurrency;
}

/**
 * The currency of the page being written. Pages are written synchronously,
 * one at a time, so {@linkcode episodeBody} sets it for the call tables deep
 * in the rounds instead of passing it through every game view.
 */
let pageCurrency: CostCurrency = UNRECORDED_CURRENCY;

/** Report fields shown as text under the report rather than in its row. */
const TEXT_FIELD = /reason|justif|explan|message|note|thought/i;

/** The episode as an HTML fragment with its own scoped <style>, for a notebook. */
export function episodeFragment(model: EpisodeModel, parts: EpisodeHtmlParts = {}): string {
  return `<div class="cl cl-episode"><style>${VIEWER_CSS}</style>${
    episodeBody(model, parts)
  }</div>`;
}

/** The episode as a complete HTML page that runs no script and loads nothing. */
export function episodePage(model: EpisodeModel, parts: EpisodeHtmlParts = {}): string {
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${esc(model.episode)} · ${esc(model.run)}</title>`,
    `<style>body{margin:0;background:#fff}${VIEWER_CSS}</style></head>`,
    `<body><main class="cl cl-episode">${episodeBody(model, parts)}</main></body></html>\n`,
  ].join("");
}

function episodeBody(model: EpisodeModel, parts: EpisodeHtmlParts): string {
  const view = parts.view ?? gameView(model.header?.env ?? null, model.header?.game ?? null);
  const outer = pageCurrency;
  pageCurrency = parts.currency ?? UNRECORDED_CURRENCY;
  try {
    const rounds = model.rounds.map((round, i) => roundHtml(round, i === 0, view));
    const setup = sectionHtml(model.setup, "Before round 1", view);
    const final = sectionHtml(model.final, "After the last round", view);
    return [
      headerHtml(model, parts, view),
      `<h2>Rounds</h2>`,
      setup,
      ...rounds,
      model.rounds.length === 0 ? `<p class="meta">The log has no rounds.</p>` : "",
      final,
    ].join("");
  } finally {
    pageCurrency = outer;
  }
}

// ---------------------------------------------------------------- header

function headerHtml(model: EpisodeModel, parts: EpisodeHtmlParts, view: GameView): string {
  const h = model.header;
  const out: string[] = [];
  if (parts.nav !== undefined) out.push(navHtml(parts.nav));
  out.push(`<div class="meta">run <b>${esc(model.run)}</b> · ${esc(view.familyLabel)}</div>`);
  out.push(`<h1>${esc(model.episode)} ${statusPills(model)}</h1>`);
  out.push(statusBanner(model));
  for (const note of parts.notes ?? []) out.push(`<div class="banner warn">${esc(note)}</div>`);
  const unverified = model.counts.unverifiedPrompts;
  if (unverified > 0) {
    out.push(
      `<div class="banner bad">${
        plural(unverified, "model call")
      }: the logged messages are incomplete or do not match what was sent (prompt_hash); see the calls marked "messages not verified".</div>`,
    );
  }
  const left: string[] = [];
  if (h !== null) {
    left.push(`<div class="cond">${conditionChips(h.condition, h.conditionId).join("")}</div>`);
  }
  left.push(statsHtml(model, view));
  if (h !== null) {
    const derived = derivedChips(h.derived, parts.chart !== undefined);
    if (derived.length > 0) left.push(`<div class="cond">${derived.join("")}</div>`);
    left.push(`<div class="meta">${metaLine(model)}</div>`);
    left.push(`<div class="meta">${playersLine(h.agents)}</div>`);
  }
  const payoffs = model.outcome === null ? null : kvTable(model.outcome.payoffs);
  if (payoffs !== null) {
    left.push(
      `<details class="why"><summary>Payoffs by player</summary>${payoffs}</details>`,
    );
  }
  const chart = parts.chart === undefined
    ? ""
    : `<figure class="chart">${parts.chart}${
      parts.chartCaption === undefined ? "" : `<figcaption>${esc(parts.chartCaption)}</figcaption>`
    }</figure>`;
  out.push(`<div class="top"><div>${left.join("")}</div>${chart}</div>`);
  return `<header>${out.join("")}</header>`;
}

const chip = (label: string, html: string) => `<span><b>${esc(label)}</b>${html}</span>`;

/**
 * The condition, key by key, in words. Parameter overrides read as
 * "changed parameters: horizon 2" (none when there are none); their id is
 * left out, as the condition label holds it.
 */
function conditionChips(condition: Record<string, unknown>, id: string | null): string[] {
  const chips: string[] = [];
  for (const [key, value] of Object.entries(condition)) {
    if (key === "overrides_id") continue;
    if (key === "overrides" && isRecord(value)) {
      if (Object.keys(value).length > 0) chips.push(chip(humanKey(key), esc(paramsText(value))));
      continue;
    }
    chips.push(chip(humanKey(key), isRecord(value) ? esc(paramsText(value)) : valueHtml(value)));
  }
  if (id !== null) chips.push(chip("condition", esc(id)));
  return chips;
}

/**
 * Derived quantities in words. The chart's reference line (`reference`:
 * axis, metric, label, value) is drawn on the chart; without one it reads
 * as a sentence.
 */
function derivedChips(derived: Record<string, unknown>, charted: boolean): string[] {
  const chips: string[] = [];
  for (const [key, value] of Object.entries(derived)) {
    if (key === "bounds") continue;
    if (key === "reference" && isRecord(value) && typeof value.metric === "string") {
      if (charted) continue;
      chips.push(
        chip(
          "reference line",
          `${esc(valueText(value.label ?? value.metric))} at ${valueHtml(value.value)} of ${
            esc(humanKey(value.metric))
          }`,
        ),
      );
      continue;
    }
    chips.push(chip(humanKey(key), isRecord(value) ? esc(paramsText(value)) : valueHtml(value)));
  }
  return chips;
}

function navHtml(nav: SiteNav): string {
  const links = (nav.links ?? []).map((l) => `<a href="${esc(l.href)}">${esc(l.label)}</a>`);
  return `<nav class="crumbs"><a href="${esc(nav.index)}">← run index</a>${links.join("")}</nav>`;
}

function statusPills(model: EpisodeModel): string {
  const status = model.status;
  const cls = status === "ok" ? "ok" : status === "error" ? "bad" : "warn";
  const pills = [`<span class="pill ${cls}" data-status="${esc(status)}">${esc(status)}</span>`];
  const success = model.outcome?.success;
  if (success === true) pills.push(`<span class="pill ok">success</span>`);
  if (success === false) {
    pills.push(
      `<span class="pill bad">failure${
        model.outcome?.failure ? `: ${esc(model.outcome.failure)}` : ""
      }</span>`,
    );
  }
  return pills.join(" ");
}

function statusBanner(model: EpisodeModel): string {
  const end = model.end;
  if (model.status === "ok") return "";
  if (end === null) {
    return `<div class="banner warn">Incomplete: the log has no episode_end (the episode was interrupted or is still running).</div>`;
  }
  const cls = model.status === "error" ? "bad" : "warn";
  const extra = Object.entries(end).filter(([k]) =>
    !BASE_FIELDS.has(k) && k !== "status" && k !== "outcome" && k !== "events_hash"
  );
  const detail = extra.length === 0 ? "" : `<pre>${
    esc(
      extra.map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`).join("\n"),
    )
  }</pre>`;
  return `<div class="banner ${cls}">Status: ${esc(model.status)}${detail}</div>`;
}

function statsHtml(model: EpisodeModel, view: GameView): string {
  const o = model.outcome;
  const bounds = o?.bounds ?? model.header?.bounds ?? null;
  const stat = (label: string, value: string) =>
    `<div class="stat"><small>${esc(label)}</small><b>${value}</b></div>`;
  const c = model.counts;
  const stats = [
    stat("W (welfare)", o?.welfare == null ? "–" : numHtml(o.welfare)),
    stat("W~ (realization)", o?.realization == null ? "–" : numHtml(o.realization)),
    stat(
      "bounds [worst, best]",
      bounds === null ? "–" : `${numHtml(bounds.worst)}, ${numHtml(bounds.best)}`,
    ),
    stat("rounds", o?.rounds == null ? String(model.rounds.length) : String(o.rounds)),
  ];
  if (view.flips || c.flips > 0) stats.push(stat("flips", String(c.flips)));
  stats.push(stat("corrections", String(c.corrections)));
  if (c.overrides > 0) stats.push(stat("overrides", String(c.overrides)));
  if (c.agentErrors > 0) stats.push(stat("agent errors", String(c.agentErrors)));
  if (c.llmCalls > 0) {
    stats.push(stat("model calls", String(c.llmCalls)));
    stats.push(stat("tokens", c.tokens.toLocaleString("en-US")));
    stats.push(stat("cost", c.cost === null ? "no price" : esc(money(c.cost, pageCurrency.code))));
  }
  const note = c.llmCalls > 0 && pageCurrency.note !== null
    ? `<p class="sub" id="currency">${esc(pageCurrency.note)}</p>`
    : "";
  return `<div class="stats">${stats.join("")}</div>${note}`;
}

function metaLine(model: EpisodeModel): string {
  const h = model.header!;
  const bits: string[] = [];
  if (h.model !== null) bits.push(`model <b>${esc(h.model)}</b>`);
  if (h.seed !== null) bits.push(`seed ${esc(String(h.seed))}`);
  if (h.rng !== null) bits.push(`rng ${esc(valueText(h.rng))}`);
  bits.push(`event schema ${h.schema}`);
  if (h.toolkit !== null) bits.push(esc(h.toolkit));
  return bits.join(" · ");
}

function playersLine(agents: readonly { id: string; role: string; policy: string }[]): string {
  const groups = new Map<string, number>();
  for (const a of agents) {
    const key = `${a.role}\u0000${a.policy}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const parts = [...groups].map(([key, n]) => {
    const [role, policy] = key.split("\u0000");
    return `${n} × ${esc(role)} <span class="sub">(${esc(policy)})</span>`;
  });
  return parts.length === 0 ? "" : `players: ${parts.join(", ")}`;
}

// ---------------------------------------------------------------- rounds

function roundHtml(round: RoundEntry, first: boolean, view: GameView): string {
  const open = first || round.failures.length > 0 ||
    round.calls.some((c) => c.errors.length > 0) ||
    allCalls(round).some((c) => c.prompts.some(unverified));
  return `<details class="round" id="round-${round.round}"${
    open ? " open" : ""
  }><summary><strong>Round ${round.round}</strong>${
    roundSummary(round, view)
  }</summary><div class="body">${roundBody(round, view)}</div></details>`;
}

/** Setup or end-of-episode events, as a round-like section (nothing when empty). */
function sectionHtml(entry: RoundEntry, title: string, view: GameView): string {
  const body = roundBody(entry, view);
  if (body === "") return "";
  return `<details class="round" open><summary><strong>${
    esc(title)
  }</strong></summary><div class="body">${body}</div></details>`;
}

function roundSummary(round: RoundEntry, view: GameView): string {
  const pills: string[] = [];
  for (const pill of view.roundPills) {
    const t = round.transitions.find((t) => t.kind === pill.transition);
    if (t === undefined) continue;
    const label = `${esc(pill.label)} ${valueHtml(t[pill.field])}`;
    if (pill.success === null) {
      pills.push(`<span class="pill">${label}</span>`);
      continue;
    }
    const ok = t[pill.success] === true;
    pills.push(
      `<span class="pill ${ok ? "ok" : "bad"}">${label}${ok ? " · success" : " · failure"}</span>`,
    );
  }
  const flips = round.turns.filter((t) => t.flipped).length;
  if (flips > 0) pills.push(`<span class="pill flip">${plural(flips, "flip")}</span>`);
  const calls = round.calls.length + round.turns.reduce((n, t) => n + t.calls.length, 0);
  if (calls > 0 && view.countsCalls) {
    pills.push(`<span class="pill">${plural(calls, "call")}</span>`);
  }
  const realized = new Map<string, number>();
  for (const call of round.calls) {
    if (call.decision?.realized === true) {
      const action = String(call.decision.action);
      realized.set(action, (realized.get(action) ?? 0) + 1);
    }
  }
  for (const [action, n] of realized) {
    pills.push(`<span class="pill">${n} ${esc(action)} realized</span>`);
  }
  const overrides = round.calls.filter((c) => c.override !== null).length;
  if (overrides > 0) pills.push(`<span class="pill warn">${plural(overrides, "override")}</span>`);
  const corrections = allCalls(round).reduce((n, c) => n + c.corrections.length, 0);
  if (corrections > 0) {
    pills.push(`<span class="pill warn">${plural(corrections, "correction")}</span>`);
  }
  const errors = allCalls(round).reduce((n, c) => n + c.errors.length, 0);
  if (errors > 0) pills.push(`<span class="pill bad">${plural(errors, "agent error")}</span>`);
  if (round.mechanisms.length > 0) {
    pills.push(`<span class="pill">${plural(round.mechanisms.length, "mechanism event")}</span>`);
  }
  for (const f of round.failures) {
    pills.push(`<span class="pill bad">failure: ${esc(String(f.kind))}</span>`);
  }
  const shown = round.disclosure === null
    ? ""
    : Object.entries(round.disclosure.public as Record<string, unknown> ?? {})
      .filter(([, v]) => typeof v === "number").slice(0, 3)
      .map(([k, v]) => `${esc(humanKey(k))} ${numHtml(v)}`).join(" · ");
  return pills.join("") + (shown === "" ? "" : `<span class="sub">${shown}</span>`);
}

function allCalls(round: RoundEntry): AgentCall[] {
  return [...round.calls, ...round.turns.flatMap((t) => t.calls)];
}

function roundBody(round: RoundEntry, view: GameView): string {
  const out: string[] = [];
  for (const f of round.failures) {
    out.push(
      `<div class="fail">Failure: ${esc(String(f.kind))} — ${esc(valueText(f.detail))}</div>`,
    );
  }
  if (round.turns.length > 0) out.push(`<h3>Speaking order</h3>`, turnsTable(round.turns));
  if (round.calls.length > 0) {
    out.push(`<h3>${esc(view.callsHeading)}</h3>`, callsTable(round.calls));
  }
  if (round.mechanisms.length > 0) {
    out.push(
      `<h3>Mechanism</h3>`,
      table(
        ["step", "action", "agent", "details"],
        round.mechanisms.map((e) => [
          `<span class="sub">${esc(String(e.step))}</span>`,
          `<span class="act">${esc(String(e.action))}</span>`,
          esc(String(e.agent ?? "")),
          fieldsHtml(e, ["action", "agent"]),
        ]),
        "mech",
      ),
    );
  }
  if (round.messages.length > 0) {
    out.push(
      `<h3>Certified messages</h3>`,
      table(
        ["from", "to", "kind", "content"],
        round.messages.map((e) => [
          esc(String(e.from)),
          esc(Array.isArray(e.to) ? e.to.join(", ") : String(e.to)),
          `<span class="act">${esc(String(e.kind))}</span>`,
          valueHtml(e.content),
        ]),
        "msg",
      ),
    );
  }
  if (round.transitions.length > 0) {
    out.push(
      `<h3>Transitions</h3>`,
      table(
        ["step", "kind", "details"],
        round.transitions.map((e) => [
          `<span class="sub">${esc(String(e.step))}</span>`,
          `<span class="act">${esc(String(e.kind))}</span>`,
          fieldsHtml(e, ["kind"]),
        ]),
        "trans",
      ),
    );
  }
  if (round.disclosure !== null) {
    const pub = kvTable(asRecord(round.disclosure.public), humanKey);
    const metrics = kvTable(asRecord(round.disclosure.metrics), humanKey);
    out.push(
      `<h3>Disclosed at the end of the round</h3><div class="cols">`,
      pub === null ? "" : `<div><div class="sub">public (what agents see next)</div>${pub}</div>`,
      metrics === null
        ? ""
        : `<div><div class="sub">engine metrics (never shown to agents)</div>${metrics}</div>`,
      `</div>`,
    );
  }
  if (round.other.length > 0) {
    out.push(
      `<h3>Other events</h3>`,
      table(
        ["type", "step", "details"],
        round.other.map((
          e,
        ) => [esc(e.type), `<span class="sub">${esc(String(e.step))}</span>`, fieldsHtml(e)]),
      ),
    );
  }
  // An episode played without hashes (`hashes: false`) has checkpoints without them.
  const { state_hash, events_hash } = (round.checkpoint ?? {}) as Record<string, unknown>;
  if (state_hash !== undefined || events_hash !== undefined) {
    out.push(
      `<div class="hash">state hash ${esc(String(state_hash ?? "none"))} · events hash ${
        esc(String(events_hash ?? "none"))
      }</div>`,
    );
  }
  return out.join("");
}

function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

// ---------------------------------------------------------------- calls

/** Agent calls, one table per run of consecutive calls of the same step. */
function callsTable(calls: readonly AgentCall[]): string {
  const groups: AgentCall[][] = [];
  for (const call of calls) {
    const last = groups[groups.length - 1];
    if (last !== undefined && last[0].step === call.step) last.push(call);
    else groups.push([call]);
  }
  return groups.map((group) => {
    const names = [...new Set(group.map((c) => c.call))];
    const roles = [...new Set(group.map((c) => c.role))];
    const results = group.map(resultHtml);
    const whys = group.map((call) => whyHtml(call));
    const columns: [string, (call: AgentCall, i: number) => string][] = [
      [
        "agent",
        (c) =>
          `${esc(c.agent)}${roles.length > 1 ? ` <span class="sub">${esc(c.role)}</span>` : ""}`,
      ],
    ];
    if (names.length > 1) columns.push(["call", (c) => esc(c.call)]);
    columns.push(["report", reportHtml]);
    if (results.some((r) => r !== "")) columns.push(["result", (_c, i) => results[i]]);
    if (whys.some((w) => w !== "")) columns.push(["reasoning", (_c, i) => whys[i]]);
    const calledAs = names.length === 1 && names[0] === group[0].step
      ? ""
      : ` · ${esc(names.join(", "))}`;
    const title = `<div class="step"><b>${esc(group[0].step)}</b>${calledAs} · ${
      plural(group.length, roles.length === 1 ? roles[0] : "agent")
    }</div>`;
    return title + table(
      columns.map(([name]) => name),
      group.map((call, i) => columns.map(([, cell]) => cell(call, i))),
      "calls",
    );
  }).join("");
}

function reportHtml(call: AgentCall): string {
  const fields = Object.entries(call.report ?? {}).filter(([key, value]) => !isText(key, value));
  const lines = fields.map(([key, value]) =>
    `<span class="f"><i>${esc(humanKey(key))}</i> ${
      isPercentField(key) ? percentHtml(value) : valueHtml(value)
    }</span>`
  );
  if (call.report === null) lines.push(`<span class="sub">no report logged</span>`);
  return [...lines, ...problemNotes(call)].join("<br>");
}

/** Corrections (with the raw value) and agent errors of a call, as notes. */
function problemNotes(call: AgentCall): string[] {
  return [
    ...call.corrections.map((c) =>
      `<span class="note warn">corrected <b>${esc(humanKey(String(c.field)))}</b>: raw ${
        esc(clip(JSON.stringify(c.raw) ?? "undefined", 160))
      } → ${esc(clip(JSON.stringify(c.applied) ?? "undefined", 80))} (${
        esc(String(c.reason))
      })</span>`
    ),
    ...call.errors.map((e) =>
      `<span class="note bad">agent error: ${esc(String(e.message))}</span>`
    ),
    ...call.prompts.filter(unverified).map((t) =>
      `<span class="note bad">messages not verified: ${esc(t.problem ?? "")}</span>`
    ),
  ];
}

function resultHtml(call: AgentCall): string {
  const out: string[] = [];
  const o = call.override;
  if (o !== null) {
    const shown = isPercentField(String(o.field)) ? percentHtml : valueHtml;
    out.push(
      `<span class="note warn">override <b>${esc(humanKey(String(o.field)))}</b> ${
        shown(o.from)
      } → ${shown(o.to)} (${esc(String(o.reason))})</span>`,
    );
  }
  const d = call.decision;
  if (d !== null) {
    const happened = d.realized === true ? String(d.action) : String(d.alternative);
    out.push(
      `<span class="f"><i>probability</i> ${
        probabilityHtml(d.probability)
      }</span><span class="f"><i>draw</i> ${numHtml(d.draw, 3)}</span> → <span class="act">${
        esc(happened)
      }</span>${d.committed === true ? ` <span class="pill">committed</span>` : ""}`,
    );
  }
  return out.join("");
}

function isText(key: string, value: unknown): boolean {
  return typeof value === "string" && (TEXT_FIELD.test(key) || value.length > 80);
}

function whyHtml(call: AgentCall, label = "", shown: readonly unknown[] = []): string {
  const texts = Object.entries(call.report ?? {}).filter(([k, v]) =>
    isText(k, v) && !shown.includes(v)
  ) as [string, string][];
  const llm = call.llmCalls;
  if (texts.length === 0 && llm.length === 0) return "";
  if (llm.length === 0 && texts.length === 1 && clip(texts[0][1], 90) === texts[0][1]) {
    return `${label === "" ? "" : `<span class="sub">${esc(label)}:</span> `}${esc(texts[0][1])}`;
  }
  const preview = texts[0]?.[1] ?? llm.find((c) => typeof c.reasoning === "string")?.reasoning ??
    "";
  const summary = [
    label === "" ? "" : `${label}: `,
    clip(String(preview), 80),
    llm.length > 0 ? ` · ${plural(llm.length, "model call")}, ${tokens(llm)} tokens` : "",
  ].join("");
  const body: string[] = texts.map(([k, v]) =>
    `<div class="sub">${esc(k)}</div><pre>${esc(v)}</pre>`
  );
  llm.forEach((c, i) => body.push(llmCallHtml(c, call.prompts[i])));
  return `<details class="why"><summary>${esc(summary)}</summary>${body.join("")}</details>`;
}

function tokens(calls: readonly LogEvent[]): string {
  const total = calls.reduce(
    (n, c) => n + (Number(c.tokens_in) || 0) + (Number(c.tokens_out) || 0),
    0,
  );
  return total.toLocaleString("en-US");
}

function llmCallHtml(c: LogEvent, prompt: CallTranscript | undefined): string {
  const stats: Record<string, unknown> = {
    model: c.model,
    provider: `${valueText(c.provider)} / ${valueText(c.provider_model)}`,
    status: c.status,
    cache: c.cache,
    attempts: c.attempts,
    "latency ms": c.latency_ms,
    "wall ms": c.wall_ms,
    tokens: `${valueText(c.tokens_in)} in, ${valueText(c.tokens_out)} out, ${
      valueText(c.tokens_reasoning)
    } reasoning`,
    // A call without a price has an unknown cost, not 0; a cache hit costs nothing.
    cost: typeof c.cost === "number"
      ? money(c.cost, pageCurrency.code)
      : c.cache === "hit"
      ? money(0, pageCurrency.code)
      : "no price",
    "finish reason": c.finish_reason,
  };
  if (c.error !== null && c.error !== undefined) stats.error = c.error;
  const failures = Array.isArray(c.failures) && c.failures.length > 0
    ? `<div class="sub">failed attempts</div>${
      table(
        ["attempt", "kind", "status", "message", "wait ms"],
        c.failures.map((f: Record<string, unknown>) => [
          valueHtml(f.attempt),
          esc(valueText(f.kind)),
          valueHtml(f.status),
          esc(valueText(f.message)),
          valueHtml(f.wait_ms),
        ]),
      )
    }`
    : "";
  const reasoning = typeof c.reasoning === "string" && c.reasoning !== ""
    ? `<div class="sub">model reasoning</div><pre>${esc(c.reasoning)}</pre>`
    : "";
  const content = typeof c.content === "string"
    ? `<div class="sub">reply</div><pre>${esc(c.content)}</pre>`
    : "";
  // The run index's transcript search links here (`#call-<seq>`).
  const anchor = typeof c.seq === "number" ? ` id="call-${c.seq}"` : "";
  return `<div class="sub"${anchor}>model call</div>${kvTable(stats) ?? ""}${failures}${
    prompt === undefined ? "" : promptHtml(prompt)
  }${reasoning}${content}`;
}

/** Whether a call's logged messages were logged but cannot be trusted as what was sent. */
function unverified(prompt: CallTranscript): boolean {
  return !prompt.verified && prompt.messages !== null;
}

/** The messages a call sent, collapsed, with the reason when they are not verified. */
function promptHtml(prompt: CallTranscript): string {
  if (prompt.messages === null) {
    return `<div class="sub">messages sent: ${esc(prompt.problem ?? "not in the log")}</div>`;
  }
  const sizes = prompt.messages.map((m) =>
    `${m.role} ${
      m.content === null ? "missing" : `${m.content.length.toLocaleString("en-US")} chars`
    }`
  );
  const messages = prompt.messages.map((m) =>
    `<div class="sub">[${esc(m.role)}]</div>${
      m.content === null
        ? `<span class="note bad">not in the log</span>`
        : `<pre>${esc(m.content)}</pre>`
    }`
  );
  const problem = prompt.problem === null
    ? ""
    : `<span class="note bad">messages not verified: ${esc(prompt.problem)}</span>`;
  return `<details class="prompt"${
    prompt.verified ? "" : ` data-unverified=""`
  }><summary>messages sent · ${esc(sizes.join(", "))}${
    prompt.verified ? "" : " · not verified"
  }</summary>${messages.join("")}</details>${problem}`;
}

// ---------------------------------------------------------------- Stag Hunt turns

function turnsTable(turns: readonly TurnEntry[]): string {
  const rows = turns.map(({ turn, flipped, calls }) => {
    const pub = flipped
      ? `<mark>${esc(String(turn.public_action))}</mark> <span class="pill flip">flipped</span>`
      : esc(String(turn.public_action));
    const own = flipped
      ? `<del>${esc(String(turn.original_action))}</del>`
      : esc(String(turn.original_action));
    const rejust = flipped || turn.public_justification !== turn.original_justification
      ? esc(String(turn.public_justification))
      : `<span class="sub">same</span>`;
    const shown = [turn.original_justification, turn.public_justification];
    const why = calls.map((call) => whyHtml(call, call.call, shown)).join("");
    const notes = calls.flatMap(problemNotes).join("");
    return {
      flipped,
      cells: [
        esc(String(turn.position)),
        `${esc(String(turn.agent))}${
          turn.corrupted === true ? ` <span class="pill warn">corrupted</span>` : ""
        }`,
        own,
        pub,
        numHtml(turn.confidence, 2),
        `${esc(String(turn.original_justification))}${notes}`,
        rejust,
        why,
      ],
    };
  });
  const headers = [
    "#",
    "speaker",
    "own action",
    "public action",
    "confidence",
    "own justification",
    "public justification",
    "model calls",
  ];
  const width = rows.some((r) => r.cells[7] !== "") ? 8 : 7;
  const head = headers.slice(0, width).map((h) => `<th>${esc(h)}</th>`).join("");
  const body = rows.map((r) =>
    `<tr${r.flipped ? ` class="flip"` : ""}>${
      r.cells.slice(0, width).map((c) => `<td>${c}</td>`).join("")
    }</tr>`
  ).join("");
  return `<table class="turns"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

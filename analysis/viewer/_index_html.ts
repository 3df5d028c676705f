// The run index page: every episode with its condition columns and outcome,
// filterable and sortable offline. The rows are embedded as JSON in a
// <script type="application/json"> element (with `<` escaped, so no value
// can close it) and a small inline script draws 100 rows at a time with
// `textContent` (never as HTML). A Content-Security-Policy lets only that
// script run, by its hash.

import { createHash } from "node:crypto";
import { scriptJson } from "../_html.ts";
import { esc, fmtNumber, plural } from "./_format.ts";
import { type CostCurrency, money } from "./_currency.ts";
import { type CallUsage, costText } from "./_usage.ts";
import type { SpendTotals } from "../../engine/agents/llm/accounting.ts";
import type { MalformedLine } from "./_log_source.ts";
import { VIEWER_CSS } from "./_style.ts";

/** A column of the index. */
export interface IndexColumn {
  /** Key used in filters (`key:value`). */
  key: string;
  /** Header text. */
  label: string;
  /**
   * How values are compared and shown: `count` is a number shown with
   * thousands separators, `cost` a number shown in the index's `currency`
   * (or a text such as `no price`).
   */
  kind: "text" | "num" | "link" | "count" | "cost";
  /** Whether the column gets a filter menu of its values. */
  facet: boolean;
}

/** The index: columns and one array of values per episode, its page path first. */
export interface IndexData {
  /** Run label shown in the title. */
  title: string;
  /** Values the same for every episode, as (label, value), shown above the table. */
  constants: [string, string][];
  /** Columns, in order. */
  columns: IndexColumn[];
  /** Rows: `[page, ...values]`, values aligned with `columns`. */
  rows: (string | number | boolean | null)[][];
  /**
   * Transcript search shards (`src`, relative to the index), each holding the
   * model-call texts of one log file, whose entries are the rows from `first` on.
   */
  search: { shard: number; first: number; src: string }[];
  /** The costs' currency (ISO 4217), or `null` when not recorded or mixed (bare numbers). */
  currency: string | null;
}

/** Model-call totals of a run: all calls, and per model id. */
export interface RunUsage {
  /** Every call of the run. */
  total: CallUsage;
  /** Per model id, in name order. */
  models: [string, CallUsage][];
}

/** Notes shown above the table. */
export interface IndexNotes {
  /** Lines skipped while reading the logs. */
  malformed: readonly MalformedLine[];
  /** Number of log files read. */
  files: number;
  /** Episodes per status, in order of first appearance. */
  statuses: [string, number][];
  /** Model-call totals, or `null` when no episode called a model. */
  usage: RunUsage | null;
  /**
   * What the run folders' spend ledgers say was billed, every session
   * (abandoned episodes included), or `null` when no folder holds one.
   */
  ledger?: { folders: number; total: SpendTotals; torn: number } | null;
  /** The currency of the costs shown, from the run manifests. */
  currency: CostCurrency;
  /** Whether the search index holds prompt messages (logs that store them). */
  prompts?: boolean;
}

const SCRIPT = `"use strict";
(function () {
  var data = JSON.parse(document.getElementById("index-data").textContent);
  var cols = data.columns, rows = data.rows, PER_PAGE = 100;
  var $ = function (id) { return document.getElementById(id); };
  var state = { q: "", sort: -1, desc: false, page: 0, f: {} };
  var lower = rows.map(function (r) {
    return r.slice(1).map(function (v) { return v === null ? "" : String(v); }).join("\\u0001").toLowerCase();
  });
  var colIndex = {};
  cols.forEach(function (c, i) { colIndex[c.key.toLowerCase()] = i; colIndex[c.label.toLowerCase()] = i; });
  function show(v, c) {
    if (v === null || v === undefined) return "";
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (typeof v === "number" && c.kind === "count") return v.toLocaleString("en-US");
    if (typeof v === "number" && c.kind === "cost") return money(v);
    if (typeof v === "number" && c.kind === "num" && !Number.isInteger(v)) return String(Number(v.toFixed(3)));
    return String(v);
  }
  function readHash() {
    var params = new URLSearchParams(location.hash.slice(1));
    state.q = params.get("q") || "";
    search.term = params.get("s") || "";
    var sort = params.get("sort");
    state.sort = sort !== null && colIndex[sort] !== undefined ? colIndex[sort] : -1;
    state.desc = params.get("desc") === "1";
    state.page = Math.max(0, (parseInt(params.get("page") || "1", 10) || 1) - 1);
    state.f = {};
    params.forEach(function (value, key) {
      if (key.indexOf("f.") === 0 && colIndex[key.slice(2)] !== undefined) state.f[colIndex[key.slice(2)]] = value;
    });
  }
  function writeHash() {
    var params = new URLSearchParams();
    if (state.q) params.set("q", state.q);
    if (search.term) params.set("s", search.term);
    if (state.sort >= 0) params.set("sort", cols[state.sort].key);
    if (state.desc) params.set("desc", "1");
    Object.keys(state.f).forEach(function (i) { params.set("f." + cols[i].key, state.f[i]); });
    if (state.page > 0) params.set("page", String(state.page + 1));
    var hash = params.toString();
    history.replaceState(null, "", hash ? "#" + hash : location.pathname + location.search);
  }
  function parseQuery(q) {
    var tests = [], bad = [];
    q.trim().split(/\\s+/).filter(Boolean).forEach(function (token) {
      var m = /^([^:=<>]+)(:|=|<=|>=|<|>)(.*)$/.exec(token);
      if (!m) { var t = token.toLowerCase(); tests.push(function (r, i) { return lower[i].indexOf(t) >= 0; }); return; }
      var col = colIndex[m[1].toLowerCase()];
      if (col === undefined) { bad.push(m[1]); return; }
      var op = m[2], want = m[3].toLowerCase(), num = Number(m[3]);
      tests.push(function (r) {
        var v = r[col + 1], s = show(v, cols[col]).toLowerCase();
        if (op === ":") return s.indexOf(want) >= 0;
        if (op === "=") return s === want || String(v).toLowerCase() === want;
        if (typeof v !== "number" || m[3] === "" || isNaN(num)) return false;
        return op === "<" ? v < num : op === ">" ? v > num : op === "<=" ? v <= num : v >= num;
      });
    });
    return { tests: tests, bad: bad };
  }
  function money(v) {
    var n = v === 0 ? "0" : Math.abs(v) < 0.0001 ? v.toPrecision(2) : String(Number(v.toFixed(4)));
    var c = data.currency;
    return c === "USD" ? "$" + n : c === null ? n : n + " " + c;
  }
  function compare(a, b) {
    if (a === b) return 0;
    if (a === null) return 1;
    if (b === null) return -1;
    if (typeof a === "number" && typeof b === "number") return a - b;
    if (typeof a === "number") return -1;
    if (typeof b === "number") return 1;
    return String(a).localeCompare(String(b), undefined, { numeric: true });
  }
  function selected() {
    var query = parseQuery(state.q), out = [];
    var filters = Object.keys(state.f).map(function (i) { return [Number(i) + 1, state.f[i]]; });
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i], ok = true;
      for (var k = 0; ok && k < filters.length; k++) ok = show(r[filters[k][0]], cols[filters[k][0] - 1]) === filters[k][1];
      for (var t = 0; ok && t < query.tests.length; t++) ok = query.tests[t](r, i);
      if (ok && search.rows !== null) ok = search.rows[i] === true;
      if (ok) out.push(i);
    }
    if (state.sort >= 0) {
      var s = state.sort + 1, sign = state.desc ? -1 : 1;
      out.sort(function (x, y) {
        var a = rows[x][s], b = rows[y][s];
        // Empty cells, and texts in a number column ("no price"), go last either way.
        if (a === null || b === null || typeof a !== typeof b) return compare(a, b);
        return sign * compare(a, b) || x - y;
      });
    }
    return { rows: out, bad: query.bad };
  }
  function render() {
    var sel = selected(), list = sel.rows;
    var pages = Math.max(1, Math.ceil(list.length / PER_PAGE));
    if (state.page >= pages) state.page = pages - 1;
    var first = state.page * PER_PAGE, shown = list.slice(first, first + PER_PAGE);
    var body = document.createElement("tbody");
    shown.forEach(function (i) {
      var r = rows[i], tr = document.createElement("tr");
      cols.forEach(function (c, j) {
        var td = document.createElement("td"), v = r[j + 1];
        // Text may wrap when the table needs the room (ids after an underscore).
        if (c.kind === "link") td.className = "wrap id";
        else if (c.kind === "text" && c.key !== "log") td.className = c.key === "model" ? "wrap any" : "wrap";
        if (c.kind === "link") {
          var a = document.createElement("a");
          a.setAttribute("href", r[0]);
          // Ids break after an underscore (a <wbr>), never inside a word.
          show(v, c).split(/(?<=_)/).forEach(function (part, k) {
            if (k > 0) a.appendChild(document.createElement("wbr"));
            a.appendChild(document.createTextNode(part));
          });
          td.appendChild(a);
        } else if ((c.key === "seed" || c.key === "log") && show(v, c).length > (c.key === "seed" ? 9 : 12)) {
          // Long seeds and log names are cut (the whole value in the tooltip) so the table fits;
          // a log name keeps its end, which tells segment files apart (right-to-left box, the
          // text itself held left-to-right by two marks).
          var clip = document.createElement("span");
          clip.className = c.key === "seed" ? "clip" : "clip wide end";
          clip.textContent = c.key === "seed" ? show(v, c) : "\u200e" + show(v, c) + "\u200e";
          clip.title = show(v, c);
          td.appendChild(clip);
        } else td.textContent = show(v, c);
        if (c.kind === "num" || c.kind === "count" || c.kind === "cost") td.className = "n";
        if (c.kind === "cost" && typeof v === "number") td.title = String(v);
        if (c.kind === "cost" && typeof v === "string") td.className = "n sub";
        if (c.key === "status" && v !== "ok") td.className = "bad";
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    var table = $("episodes");
    table.replaceChild(body, table.tBodies[0]);
    cols.forEach(function (c, j) {
      var th = table.tHead.rows[0].cells[j];
      if (j === state.sort) th.setAttribute("aria-sort", state.desc ? "descending" : "ascending");
      else th.removeAttribute("aria-sort");
    });
    var ok = 0, wsum = 0, wn = 0, sIdx = colIndex["success"], wIdx = colIndex["w~"];
    list.forEach(function (i) {
      if (sIdx !== undefined && rows[i][sIdx + 1] === true) ok++;
      if (wIdx !== undefined && typeof rows[i][wIdx + 1] === "number") { wsum += rows[i][wIdx + 1]; wn++; }
    });
    var summary = list.length + " of " + rows.length + " episodes";
    if (list.length > 0 && sIdx !== undefined) summary += " · success " + (100 * ok / list.length).toFixed(1) + "%";
    if (wn > 0) summary += " · mean W~ " + (wsum / wn).toFixed(3);
    $("summary").textContent = summary;
    $("range").textContent = list.length === 0 ? "no rows" : (first + 1) + "–" + (first + shown.length) + " · page " + (state.page + 1) + " of " + pages;
    $("prev").disabled = state.page === 0;
    $("next").disabled = state.page >= pages - 1;
    $("bad").textContent = sel.bad.length ? "unknown column: " + sel.bad.join(", ") : "";
    renderHits(sel.rows);
    writeHash();
  }
  // ---- transcript search: shards of [position, seq, round, agent, call, kind, text]
  var search = { term: "", rows: null, hits: [], loaded: false, loading: false, texts: [], error: "" };
  var shardFirst = {};
  data.search.forEach(function (s) { shardFirst[s.shard] = s.first; });
  window.coordlabSearch = function (shard, items) {
    var first = shardFirst[shard];
    if (first === undefined) return;
    items.forEach(function (it) {
      search.texts.push({ row: first + it[0], seq: it[1], round: it[2], agent: it[3], call: it[4], kind: it[5], text: it[6] });
    });
  };
  function loadShards(done) {
    if (search.loaded) { done(); return; }
    if (search.loading) return;
    search.loading = true;
    var left = data.search.length;
    if (left === 0) { search.loaded = true; done(); return; }
    data.search.forEach(function (s) {
      var el = document.createElement("script");
      el.src = s.src;
      el.onload = function () { if (--left === 0) { search.loaded = true; done(); } };
      el.onerror = function () {
        search.error = "the search file " + s.src + " could not be read";
        if (--left === 0) { search.loaded = true; done(); }
      };
      document.head.appendChild(el);
    });
  }
  function runSearch() {
    var term = search.term.trim();
    search.hits = []; search.rows = null;
    if (term !== "") {
      // Literal and case-insensitive; positions are in the text itself, for the snippet.
      var re = new RegExp(term.replace(/[.*+?^\${}()|[\\]\\\\]/g, "\\\\$&"), "i");
      search.rows = {};
      var seen = {};
      search.texts.forEach(function (t) {
        var call = t.row + ":" + t.seq;
        if (seen[call]) return;
        var m = re.exec(t.text);
        if (m === null) return;
        seen[call] = true; // one hit per model call: its first matching text
        search.hits.push({ t: t, at: m.index, length: m[0].length }); search.rows[t.row] = true;
      });
    }
    state.page = 0; render();
    document.body.setAttribute("data-searched", search.term);
  }
  function snippet(text, at, length) {
    var from = Math.max(0, at - 70), to = Math.min(text.length, at + length + 70);
    var box = document.createElement("span");
    box.className = "snip";
    box.appendChild(document.createTextNode((from > 0 ? "…" : "") + text.slice(from, at)));
    var mark = document.createElement("mark");
    mark.textContent = text.slice(at, at + length);
    box.appendChild(mark);
    box.appendChild(document.createTextNode(text.slice(at + length, to) + (to < text.length ? "…" : "")));
    return box;
  }
  function renderHits(selectedRows) {
    var list = $("hits"), note = $("hitcount");
    while (list.firstChild) list.removeChild(list.firstChild);
    if (search.rows === null) { note.textContent = search.error; list.hidden = true; return; }
    var keep = {};
    selectedRows.forEach(function (i) { keep[i] = true; });
    var hits = search.hits.filter(function (h) { return keep[h.t.row]; });
    var episodes = {};
    hits.forEach(function (h) { episodes[h.t.row] = true; });
    var n = Object.keys(episodes).length, term = search.term.trim();
    note.textContent = (hits.length === 1 ? "1 model call" : hits.length + " model calls") + " in " + (n === 1 ? "1 episode" : n + " episodes") +
      " mention \u201c" + term + "\u201d" + (hits.length > 50 ? " (first 50 listed)" : "") + (search.error ? " · " + search.error : "");
    hits.slice(0, 50).forEach(function (h) {
      var li = document.createElement("li"), a = document.createElement("a"), t = h.t, r = rows[t.row];
      a.setAttribute("href", r[0] + (t.seq >= 0 ? "#call-" + t.seq : ""));
      a.textContent = r[1 + colIndex["episode"]];
      li.appendChild(a);
      var where = document.createElement("span");
      where.className = "sub";
      where.textContent = " round " + t.round + " · " + t.agent + " · " + t.call + " · " + t.kind + " ";
      li.appendChild(where);
      li.appendChild(snippet(t.text, h.at, h.length));
      list.appendChild(li);
    });
    list.hidden = hits.length === 0;
  }
  function buildFilters() {
    var box = $("filters");
    cols.forEach(function (c, j) {
      if (!c.facet) return;
      var seen = {}, n = 0;
      for (var i = 0; i < rows.length && n <= 40; i++) {
        var s = show(rows[i][j + 1], c);
        if (!(s in seen)) { seen[s] = true; n++; }
      }
      if (n < 2 || n > 40) return;
      var select = document.createElement("select");
      select.setAttribute("data-col", c.key);
      select.setAttribute("aria-label", "filter " + c.label);
      var all = document.createElement("option");
      all.value = ""; all.textContent = c.label + ": all";
      select.appendChild(all);
      Object.keys(seen).sort(function (a, b) { return a.localeCompare(b, undefined, { numeric: true }); }).forEach(function (s) {
        var o = document.createElement("option");
        o.value = s; o.textContent = c.label + ": " + (s === "" ? "(empty)" : s);
        select.appendChild(o);
      });
      select.selectedIndex = 0;
      for (var k = 1; k < select.options.length; k++) if (select.options[k].value === state.f[j]) select.selectedIndex = k;
      select.addEventListener("change", function () {
        if (select.selectedIndex === 0) delete state.f[j]; else state.f[j] = select.value;
        state.page = 0; render();
      });
      box.appendChild(select);
    });
  }
  readHash();
  var head = document.createElement("tr");
  cols.forEach(function (c, j) {
    var th = document.createElement("th");
    // Long words may break (a soft hyphen after their sixth letter), so headers stay narrow.
    th.textContent = c.label.replace(/[A-Za-z]{10,}/g, function (w) { return w.slice(0, 6) + "\u00ad" + w.slice(6); });
    th.setAttribute("data-key", c.key);
    th.title = "sort by " + c.label;
    th.addEventListener("click", function () {
      if (state.sort === j) state.desc = !state.desc; else { state.sort = j; state.desc = false; }
      state.page = 0; render();
    });
    head.appendChild(th);
  });
  $("episodes").tHead.appendChild(head);
  var q = $("q");
  q.value = state.q;
  q.addEventListener("input", function () { state.q = q.value; state.page = 0; render(); });
  $("prev").addEventListener("click", function () { state.page--; render(); });
  $("next").addEventListener("click", function () { state.page++; render(); });
  var tq = $("tq"), timer = 0;
  if (tq !== null) {
    tq.value = search.term;
    tq.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { search.term = tq.value; loadShards(runSearch); }, 120);
    });
  }
  $("clear").addEventListener("click", function () {
    state.q = ""; q.value = ""; state.f = {}; state.sort = -1; state.page = 0;
    search.term = ""; search.rows = null; search.hits = [];
    if (tq !== null) tq.value = "";
    Array.prototype.forEach.call(document.querySelectorAll("#filters select"), function (s) { s.selectedIndex = 0; });
    render();
  });
  buildFilters();
  render();
  document.body.setAttribute("data-ready", "1");
  if (search.term !== "") loadShards(runSearch);
})();
`;

const SCRIPT_HASH = createHash("sha256").update(SCRIPT).digest("base64");

/** The run's model-call totals and per-model summary, as a static table. */
function usageHtml(usage: RunUsage, currency: CostCurrency): string {
  const n = (value: number) => value.toLocaleString("en-US");
  const row = (label: string, u: CallUsage, total = false) => {
    // Costs in different currencies are not added up.
    const mixed = currency.mixed.length > 0 && u.pricedCalls > 0;
    const cost = mixed ? "mixed currencies" : costText(u, currency.code);
    const exact = !mixed && (u.unpricedCalls === 0 || u.pricedCalls > 0)
      ? ` title="${u.cost}"`
      : "";
    const cells = [
      esc(label),
      n(u.calls),
      n(u.cacheHits),
      n(u.failedCalls),
      n(u.tokensIn),
      n(u.tokensOut),
      n(u.tokensReasoning),
      `<span${exact}>${esc(cost)}</span>`,
    ];
    return `<tr${total ? ` class="total"` : ""}>${
      cells.map((c, i) => i === 0 ? `<th>${c}</th>` : `<td class="n">${c}</td>`).join("")
    }</tr>`;
  };
  const head = [
    "model",
    "calls",
    "cache hits",
    "failed calls",
    "tokens in",
    "tokens out",
    "reasoning tokens",
    "cost",
  ].map((h) => `<th>${h}</th>`).join("");
  const rows = usage.models.map(([model, u]) => row(model, u));
  if (usage.models.length > 1) rows.push(row("all models", usage.total, true));
  const unreadable = usage.total.unreadableCalls === 0
    ? ""
    : `<div class="banner warn">${
      esc(plural(usage.total.unreadableCalls, "model call"))
    } logged token counts that are not non-negative integers; they count as 0 here.</div>`;
  return `<h2>Model calls</h2><table class="usage" id="usage"><thead><tr>${head}</tr></thead><tbody>${
    rows.join("")
  }</tbody></table>${unreadable}<p class="sub">Tokens count every call, cache hits included; cost counts the calls sent to a provider (a cache hit costs nothing), at the prices in the run's models file. A model without a price says <i>no price</i>: its cost is unknown, not zero.${
    currency.note === null ? "" : ` ${esc(currency.note)}`
  }</p>`;
}

/** The billed spend of the run's ledgers, beside the logged calls' table. */
function ledgerHtml(ledger: NonNullable<IndexNotes["ledger"]>, currency: CostCurrency): string {
  const t = ledger.total;
  const n = (value: number) => value.toLocaleString("en-US");
  const sum = currency.mixed.length > 0
    ? `cost not summed (the folders' prices are in ${currency.mixed.join(", ")})`
    : money(t.cost, currency.code);
  const cost = t.unpriced === 0 ? sum : `${sum} + ${n(t.unpriced)} unpriced requests`;
  const notes = [
    t.unknown ? `${n(t.unknown)} of unknown billing counted at their reservation` : "",
    ledger.torn ? `${plural(ledger.torn, "ledger")} ended in a torn line (cut when read)` : "",
  ].filter(Boolean);
  return `<p class="sub" id="ledger"><b>Billed, every session</b> (the spend ledger${
    ledger.folders > 1 ? `s of ${ledger.folders} folders` : ""
  }): ${n(t.requests)} requests, ${n(t.tokens)} tokens, ${esc(cost)}${
    notes.length ? ` (${esc(notes.join("; "))})` : ""
  }. This counts every request a provider was sent, also those of episodes abandoned when a run stopped (replayed from the cache on resume when the run has one, else paid again), so it can exceed the table, which counts the calls in the logs.</p>`;
}

/** The index page of a run site. */
export function indexPage(data: IndexData, notes: IndexNotes): string {
  const pills = notes.statuses.map(([status, n]) =>
    `<span class="pill ${status === "ok" ? "ok" : status === "error" ? "bad" : "warn"}">${n} ${
      esc(status)
    }</span>`
  ).join(" ");
  const skipped = notes.malformed.length === 0
    ? ""
    : `<div class="banner warn">${
      esc(plural(notes.malformed.length, "malformed line"))
    } skipped while reading the logs:<pre>${
      esc(notes.malformed.slice(0, 20).map((m) => `${m.file}:${m.line}: ${m.message}`).join("\n"))
    }${notes.malformed.length > 20 ? "\n..." : ""}</pre></div>`;
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8">`,
    // 'self': the transcript search shards, scripts beside the page.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}' 'self'">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${esc(data.title)} · coordlab run</title>`,
    `<style>body{margin:0;background:#fff}${VIEWER_CSS}</style></head>`,
    `<body><main class="cl grid-index">`,
    `<div class="meta">coordlab run</div>`,
    `<h1>${esc(data.title)}</h1>`,
    `<div class="meta">${esc(plural(data.rows.length, "episode"))} from ${
      esc(plural(notes.files, "log file"))
    } ${pills}</div>`,
    data.constants.length === 0
      ? ""
      : `<div class="cond"><span class="sub">every episode:</span>${
        data.constants.map(([k, v]) => `<span><b>${esc(k)}</b>${esc(v)}</span>`).join("")
      }</div>`,
    skipped,
    notes.usage === null ? "" : usageHtml(notes.usage, notes.currency),
    notes.ledger ? ledgerHtml(notes.ledger, notes.currency) : "",
    `<noscript><div class="banner warn">The table needs JavaScript; every episode page opens without it.</div></noscript>`,
    `<div class="toolbar"><input type="search" id="q" placeholder="filter: text, or mechanism:M3 status=error W~<0.5" aria-label="filter episodes">`,
    data.search.length === 0
      ? ""
      : `<input type="search" id="tq" placeholder="search transcripts: replies, reasoning${
        notes.prompts ? ", prompts" : ""
      }" aria-label="search model-call transcripts">`,
    `<button type="button" id="clear">clear</button><span class="sub" id="bad"></span></div>`,
    `<div class="hits"><div class="sub" id="hitcount"></div><ol id="hits" hidden></ol></div>`,
    `<div class="toolbar" id="filters"></div>`,
    `<div class="toolbar"><b id="summary"></b><span class="sub" id="range"></span>`,
    `<button type="button" id="prev">‹ previous</button><button type="button" id="next">next ›</button></div>`,
    `<div class="scroll"><table class="index" id="episodes"><thead></thead><tbody></tbody></table></div>`,
    `<p class="sub">Click a header to sort (again to reverse). ${
      esc(fmtNumber(data.rows.length))
    } rows, 100 per page. The filter and sort are kept in the address, so the back button returns here.</p>`,
    `</main><script type="application/json" id="index-data">${scriptJson(data)}</script>`,
    `<script>${SCRIPT}</script></body></html>\n`,
  ].join("");
}

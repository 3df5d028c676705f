// The run index page: every episode with its condition columns and outcome,
// filterable and sortable offline. The rows are embedded as JSON in a
// <script type="application/json"> element (with `<` escaped, so no value
// can close it) and a small inline script draws 100 rows at a time with
// `textContent` (never as HTML). A Content-Security-Policy lets only that
// script run, by its hash.

import { createHash } from "node:crypto";
import { scriptJson } from "../_html.ts";
import { esc, fmtNumber, plural } from "./_format.ts";
import type { MalformedLine } from "./_log_source.ts";
import { VIEWER_CSS } from "./_style.ts";

/** A column of the index. */
export interface IndexColumn {
  /** Key used in filters (`key:value`). */
  key: string;
  /** Header text. */
  label: string;
  /** How values are compared and shown. */
  kind: "text" | "num" | "link";
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
}

/** Notes shown above the table. */
export interface IndexNotes {
  /** Lines skipped while reading the logs. */
  malformed: readonly MalformedLine[];
  /** Number of log files read. */
  files: number;
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
    if (typeof v === "number" && c.kind === "num" && !Number.isInteger(v)) return String(Number(v.toFixed(3)));
    return String(v);
  }
  function readHash() {
    var params = new URLSearchParams(location.hash.slice(1));
    state.q = params.get("q") || "";
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
  function compare(a, b) {
    if (a === b) return 0;
    if (a === null) return 1;
    if (b === null) return -1;
    if (typeof a === "number" && typeof b === "number") return a - b;
    return String(a).localeCompare(String(b), undefined, { numeric: true });
  }
  function selected() {
    var query = parseQuery(state.q), out = [];
    var filters = Object.keys(state.f).map(function (i) { return [Number(i) + 1, state.f[i]]; });
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i], ok = true;
      for (var k = 0; ok && k < filters.length; k++) ok = show(r[filters[k][0]], cols[filters[k][0] - 1]) === filters[k][1];
      for (var t = 0; ok && t < query.tests.length; t++) ok = query.tests[t](r, i);
      if (ok) out.push(i);
    }
    if (state.sort >= 0) {
      var s = state.sort + 1, sign = state.desc ? -1 : 1;
      out.sort(function (x, y) {
        var a = rows[x][s], b = rows[y][s];
        if (a === null || b === null) return compare(a, b);
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
        if (c.kind === "link") {
          var a = document.createElement("a");
          a.setAttribute("href", r[0]);
          a.textContent = show(v, c);
          td.appendChild(a);
        } else td.textContent = show(v, c);
        if (c.kind === "num") td.className = "n";
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
    writeHash();
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
    th.textContent = c.label;
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
  $("clear").addEventListener("click", function () {
    state.q = ""; q.value = ""; state.f = {}; state.sort = -1; state.page = 0;
    Array.prototype.forEach.call(document.querySelectorAll("#filters select"), function (s) { s.selectedIndex = 0; });
    render();
  });
  buildFilters();
  render();
  document.body.setAttribute("data-ready", "1");
})();
`;

const SCRIPT_HASH = createHash("sha256").update(SCRIPT).digest("base64");

/** The index page of a run site. */
export function indexPage(data: IndexData, notes: IndexNotes): string {
  const statuses = new Map<string, number>();
  const statusCol = data.columns.findIndex((c) => c.key === "status");
  for (const row of data.rows) {
    const status = String(row[statusCol + 1]);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  const pills = [...statuses].map(([status, n]) =>
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
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'">`,
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
    `<noscript><div class="banner warn">The table needs JavaScript; every episode page opens without it.</div></noscript>`,
    `<div class="toolbar"><input type="search" id="q" placeholder="filter: text, or mechanism:M3 status=error W~<0.5" aria-label="filter episodes">`,
    `<button type="button" id="clear">clear</button><span class="sub" id="bad"></span></div>`,
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

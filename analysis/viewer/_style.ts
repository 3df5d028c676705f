// The viewer's stylesheet, scoped under `.cl` so it can sit inside a
// notebook output without touching the notebook's own styles. The pages
// stay readable without it (some notebook front ends drop <style>):
// <details>, <mark>, <del> and tables carry the meaning.

/** CSS shared by episode views and the run index. */
export const VIEWER_CSS = `
.cl{--fg:#1d2330;--muted:#5d6675;--line:#dde1e8;--soft:#f4f6f9;--accent:#2457c5;
--ok:#16794a;--ok-bg:#e3f4ea;--bad:#b42318;--bad-bg:#fde8e6;--warn:#8a5a00;--warn-bg:#fff3d6;
--flip:#ffe08a;color:var(--fg);background:#fff;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;
max-width:1280px;margin:0 auto;padding:16px 20px 40px;text-align:left}
.cl *{box-sizing:border-box}
.cl a{color:var(--accent);text-decoration:none}.cl a:hover{text-decoration:underline}
.cl h1{font-size:21px;margin:4px 0 6px;word-break:break-all;font-weight:650}
.cl h2{font-size:16px;margin:22px 0 8px;font-weight:650}
.cl h3{font-size:13px;margin:14px 0 6px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em;font-weight:650}
.cl .crumbs{color:var(--muted);font-size:13px;display:flex;gap:14px;flex-wrap:wrap}
.cl .pill{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;background:var(--soft);color:var(--muted);white-space:nowrap}
.cl .pill.ok{background:var(--ok-bg);color:var(--ok)}.cl .pill.bad{background:var(--bad-bg);color:var(--bad)}
.cl .pill.warn{background:var(--warn-bg);color:var(--warn)}.cl .pill.flip{background:var(--flip);color:#5c4200}
.cl .banner{margin:10px 0;padding:10px 14px;border-radius:6px;font-weight:600;border-left:5px solid}
.cl .banner.bad{background:var(--bad-bg);color:var(--bad);border-color:var(--bad)}
.cl .banner.warn{background:var(--warn-bg);color:var(--warn);border-color:#d99a00}
.cl .banner pre{font-weight:400;margin:6px 0 0}
.cl .cond{display:flex;flex-wrap:wrap;gap:6px;margin:8px 0}
.cl .cond span{border:1px solid var(--line);border-radius:4px;padding:2px 8px;background:var(--soft);font-size:13px}
.cl .cond b{color:var(--muted);font-weight:500;margin-right:5px}
.cl .stats{display:flex;flex-wrap:wrap;gap:10px;margin:10px 0}
.cl .stat{border:1px solid var(--line);border-radius:6px;padding:6px 12px;min-width:92px}
.cl .stat b{display:block;font-size:18px;font-weight:650}.cl .stat small{color:var(--muted);font-size:12px}
.cl .meta{color:var(--muted);font-size:13px;margin:6px 0}
.cl .top{display:grid;grid-template-columns:minmax(0,1fr) auto;gap:18px;align-items:start}
.cl .chart{margin:0;border:1px solid var(--line);border-radius:6px;padding:6px;background:#fff}
.cl .chart img,.cl .chart svg{display:block;max-width:100%;height:auto}
.cl .chart figcaption{font-size:12px;color:var(--muted);padding:2px 4px 0}
.cl details{margin:0}
.cl details.round{border:1px solid var(--line);border-radius:6px;margin:8px 0;background:#fff}
.cl details.round>summary{padding:8px 12px;cursor:pointer;background:var(--soft);border-radius:6px;display:flex;gap:8px;align-items:center;flex-wrap:wrap}
.cl details.round[open]>summary{border-bottom:1px solid var(--line);border-radius:6px 6px 0 0}
.cl details.round>summary::-webkit-details-marker{display:none}
.cl details.round>summary::before{content:"▸";color:var(--muted);width:10px}
.cl details.round[open]>summary::before{content:"▾"}
.cl details.round>summary strong{font-size:15px;margin-right:4px}
.cl .body{padding:4px 14px 12px}
.cl table{border-collapse:collapse;width:100%;font-size:13px;margin:4px 0 8px}
.cl th,.cl td{border-bottom:1px solid var(--line);padding:4px 8px;vertical-align:top;text-align:left}
.cl thead th{background:var(--soft);font-weight:600;color:var(--muted);font-size:12px;white-space:nowrap}
.cl table.kv{width:auto;min-width:260px}.cl table.mech,.cl table.msg,.cl table.trans{width:auto;min-width:60%}.cl table.kv th{color:var(--muted);font-weight:500;white-space:nowrap}
.cl .cols{display:flex;flex-wrap:wrap;gap:24px}
.cl .f{white-space:nowrap;margin-right:8px}.cl .f i{color:var(--muted);font-style:normal}
.cl .sub{color:var(--muted);font-size:12px}
.cl .step{margin:12px 0 2px;font-size:13px;color:var(--muted)}.cl .step b{color:var(--fg)}
.cl .act{font-weight:650}
.cl .realized{color:var(--bad);font-weight:650}.cl .kept{color:var(--ok);font-weight:650}
.cl .note{display:block;margin-top:3px;padding:2px 6px;border-radius:4px;font-size:12px}
.cl .note.warn{background:var(--warn-bg);color:var(--warn)}.cl .note.bad{background:var(--bad-bg);color:var(--bad)}
.cl tr.flip td{background:#fff8e1}
.cl mark{background:var(--flip);padding:0 4px;border-radius:3px;font-weight:650}
.cl del{color:var(--muted)}
.cl details.why>summary{cursor:pointer;color:var(--accent);font-size:12px;max-width:420px}
.cl details.why[open]{background:var(--soft);border-radius:4px;padding:4px 6px}
.cl details.prompt>summary{cursor:pointer;color:var(--accent);font-size:12px;margin:4px 0}
.cl pre{white-space:pre-wrap;word-break:break-word;font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#fff;border:1px solid var(--line);border-radius:4px;padding:6px 8px;margin:4px 0;max-height:420px;overflow:auto}
.cl .fail{background:var(--bad-bg);color:var(--bad);border-radius:4px;padding:6px 10px;margin:6px 0;font-weight:600}
.cl .hash{font:11px ui-monospace,Menlo,Consolas,monospace;color:var(--muted);margin-top:8px}
.cl input[type=search]{width:440px;max-width:100%;padding:5px 8px;border:1px solid var(--line);border-radius:4px;font:inherit}
.cl .toolbar{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:10px 0}
.cl .toolbar select{padding:4px;border:1px solid var(--line);border-radius:4px;font:inherit;font-size:13px;max-width:180px}
.cl .toolbar button{padding:4px 10px;border:1px solid var(--line);border-radius:4px;background:#fff;font:inherit;cursor:pointer}
.cl .toolbar button:disabled{opacity:.45;cursor:default}
.cl table.index th{cursor:pointer;user-select:none}
.cl table.index th[aria-sort=ascending]::after{content:" ▲"}.cl table.index th[aria-sort=descending]::after{content:" ▼"}
.cl .scroll{overflow-x:auto}.cl table.index td.bad{color:var(--bad);font-weight:600}
.cl table.index{font-size:12px}.cl table.index th,.cl table.index td{padding:4px 5px}
.cl table.index thead th{white-space:normal;vertical-align:bottom}
.cl table.index td{white-space:nowrap}.cl table.index td.wrap{white-space:normal;overflow-wrap:break-word}
.cl table.index td.any{overflow-wrap:anywhere;min-width:7em}.cl table.index td.id{overflow-wrap:anywhere;min-width:8.5em}
.cl table.index .clip{display:block;width:9ch;overflow:hidden;text-overflow:ellipsis}
.cl table.index .clip.wide{width:11ch}.cl table.index .clip.end{direction:rtl;text-align:left}
.cl table.usage{width:auto;min-width:60%}.cl table.usage tbody th{font-weight:600;color:var(--fg)}
.cl table.usage td.n{text-align:right;font-variant-numeric:tabular-nums}
.cl table.usage tr.total th,.cl table.usage tr.total td{border-top:2px solid var(--line);font-weight:650}
.cl .hits ol{margin:4px 0 10px;padding:4px 8px 4px 34px;font-size:13px;max-height:300px;overflow:auto;border:1px solid var(--line);border-radius:6px}.cl .hits li{margin:3px 0;overflow-wrap:anywhere}
.cl .hits .snip{display:block;color:var(--fg);font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.cl .hits mark{padding:0 2px;font-weight:650}
.cl table.index td.n{text-align:right;font-variant-numeric:tabular-nums}
.cl table.index tbody tr:hover td{background:#f0f5ff}
.cl :target{outline:2px solid var(--accent);outline-offset:2px;border-radius:3px}
@media (max-width:900px){.cl .top{grid-template-columns:1fr}}
`;

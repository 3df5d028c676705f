/**
 * The viewer's command line: writes the static site of a run.
 *
 * ```
 * deno task view runs/<run> [--out DIR] [--no-charts] [--search-prompts] [--workers K] [--quiet]
 * ```
 *
 * The site goes to `runs/<run>/view/` unless `--out` says otherwise; open
 * `view/index.html` in a browser (no server needed). `--search-prompts`
 * makes the messages sent searchable too, beside replies and reasoning
 * (larger search files). Exit codes: 0 done,
 * 1 the build failed, 2 bad arguments.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { writeRunSite } from "./run_site.ts";

const USAGE =
  "Usage: deno task view RUN_DIR [--out DIR] [--no-charts] [--search-prompts] [--workers K] [--quiet]";

let parsed;
try {
  parsed = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      out: { type: "string" },
      "no-charts": { type: "boolean", default: false },
      "search-prompts": { type: "boolean", default: false },
      workers: { type: "string" },
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
} catch (err) {
  console.error(`${(err as Error).message}\n\n${USAGE}`);
  Deno.exit(2);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(USAGE);
  Deno.exit(0);
}
if (positionals.length !== 1) {
  console.error(
    `${
      positionals.length === 0 ? "Missing the run folder" : "Give exactly one run folder"
    }\n\n${USAGE}`,
  );
  Deno.exit(2);
}
const workers = values.workers === undefined ? undefined : Number(values.workers);
if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1)) {
  console.error(`--workers must be a positive integer, got "${values.workers}"\n\n${USAGE}`);
  Deno.exit(2);
}

const started = performance.now();
let lastShown = 0;
try {
  const site = await writeRunSite(positionals[0], {
    out: values.out,
    charts: !values["no-charts"],
    searchPrompts: values["search-prompts"],
    workers,
    onProgress: values.quiet ? undefined : (done, total) => {
      const now = performance.now();
      if (done === total || now - lastShown > 1000) {
        lastShown = now;
        console.error(`  ${done}/${total} log files`);
      }
    },
  });
  const seconds = (performance.now() - started) / 1000;
  // A rate per 1,000 episodes only where there were enough to measure one.
  const rate = site.episodes >= 100
    ? ` (${((seconds / site.episodes) * 1000).toFixed(1)} s per 1,000 episodes)`
    : "";
  const files = `${site.files} log file${site.files === 1 ? "" : "s"}`;
  console.log(
    `Wrote ${site.episodes} episode pages from ${files} in ${seconds.toFixed(1)} s${rate}`,
  );
  if (site.repeated > 0) {
    console.log(`${site.repeated} episodes occur more than once; each occurrence has its own page`);
  }
  if (site.malformed.length > 0) {
    console.log(`${site.malformed.length} malformed lines skipped (listed on the index page):`);
    for (const m of site.malformed.slice(0, 5)) console.log(`  ${m.file}:${m.line}: ${m.message}`);
  }
  console.log(`Open ${site.index}`);
} catch (err) {
  console.error(`Cannot build the site: ${(err as Error).message}`);
  Deno.exit(1);
}

/**
 * Reproduce a paper in one command: plan its design, run it (mock agents by
 * default, or the models of `--models`), and write a report of its every
 * table and figure beside the published values, with a verdict per
 * published cell.
 *
 * ```
 * deno task reproduce <frail|staghunt> [--models FILE] [--dry-run] [--out DIR] [--cache DIR]
 *                     [--episodes N] [--pack FILE] [--spec FILE] [--max-cost X] [--max-tokens N]
 *                     [--tokens-out N] [--no-preflight] [--no-progress]
 * deno task reproduce --from-pack FILE [--out DIR]
 * ```
 *
 * The design: `data/specs/paper_frail.json` or `data/specs/paper_staghunt.ts`
 * (`--spec` gives another one of the same paper). Without `--models` every
 * model entry is played by rule-based mock agents instead (FRAIL: the
 * environments' default mocks; the Stag Hunt: carryover threshold players
 * with 10% noise, and the h2 and h3 ablations, which need two models, are
 * left out), the run is named `<name>-mock`, and every page and chart of the
 * report says "mock agents". `--episodes N` sets the episodes per cell.
 *
 * `--dry-run` prints the grid's one screen (`deno task grid --dry-run`:
 * `estimateUsage` and `formatPlan`), then exits: the cells and episodes, and
 * by model the calls, the calls `--cache` already holds (replayed at no
 * cost), prompt and completion tokens (`--tokens-out` per call, default 500,
 * or the mean of the cache's replies) and the cost in the models file's
 * `currency` with its low-high range (a model without a price has none, and
 * the screen says how to add one). It plays rule-based stand-ins, never a
 * model; for mock agents it also says what the paper's models would be asked.
 *
 * A run writes its logs into `<out>/run` (default `<out>`:
 * `runs/reproduce-<paper>`, with `-mock` for mock agents) through `runGrid`,
 * so the same command again resumes, then `<out>/report.html` (one static
 * page, inline SVG, no script, no request) and `<out>/report.md`.
 * `--pack FILE` then writes one uncompressed tar (`tar -xf` opens it) with
 * `pack.json`, the spec run (`spec.json`), the models file (`models.json`:
 * model configurations hold key variable names, never keys), the run's logs
 * (`run/`), the reply cache (`cache/`, with `--cache`) and the report.
 *
 * `--from-pack FILE` unpacks into `--out` (default `runs/<pack name>`, which
 * must not exist or be empty), rebuilds the report from the packed logs,
 * with no network permission at all, and says whether it is byte for byte
 * the packed one (exit 1 if not). To play the grid again from the packed
 * cache with no paid call: `--spec <out>/spec.json --models <models>
 * --cache <out>/cache --no-preflight`, the models keeping their `provider`
 * and `model` (the cache key).
 *
 * Permissions: `deno task reproduce` runs a launcher (launch_reproduce.ts)
 * that reads these arguments, checks the key variables of the models the spec
 * names (a missing one exits 2 naming it and its model, before any request),
 * and runs this command as a child with exactly what it needs
 * (`reproduceNeeds`): reading, Polars' native addon (ffi under node_modules,
 * the CPUs, network interfaces and host name) and, for a run, writing the
 * output and cache folders and the pack file (anywhere), the network to the models' hosts
 * and their key variables; a dry run and `--from-pack` get no network and no
 * variable. The grid runs in this process. Run directly, the command checks
 * the same needs before it starts and, when one is missing, prints the
 * narrow `deno run` command that grants them and exits 2.
 *
 * Exit codes: 0 done (every episode ok, and a rebuilt report identical);
 * 1 some episodes failed or are degraded, or a rebuilt report differs;
 * 2 bad arguments, files or permissions; 3 a provider failed; 4 stopped by
 * the budget (raise it to go on); 74 a folder could not be written; 129,
 * 130, 143 interrupted by SIGHUP, SIGINT, SIGTERM: the same command resumes.
 *
 * @module
 */
import { dirname, join, relative } from "node:path";
import { LlmPreflightError } from "../agents/llm/preflight_error.ts";
import { estimateUsage } from "../grid/estimate.ts";
import { FolderLockedError, LOCK_FILE, LockPathError } from "../grid/lock.ts";
import { streamPlan } from "../grid/plan.ts";
import { formatPlan } from "../grid/plan_text.ts";
import { formatInt } from "../core/progress.ts";
import { runGrid } from "../grid/run_grid.ts";
import { parseGridSpec } from "../grid/spec.ts";
import { FolderWriteError } from "../grid/write_error.ts";
import { checkPermissions, DENO_COMMAND } from "./_permissions.ts";
import { stopWhenLauncherEnds } from "./_launcher_watch.ts";
import {
  readReproduceCommand,
  type ReproduceFromPack,
  reproduceNeeds,
  ReproduceUsageError,
  withEpisodes,
} from "./_reproduce_args.ts";
import { readTar, type TarEntry, writeTar } from "./_tar.ts";
import { wrap } from "../grid/format_table.ts";
import { loadRuns } from "../../analysis/load/load_runs.ts";
import {
  REPORT_PAPERS,
  reportFrames,
  type ReportPaper,
  reproductionReport,
} from "../../analysis/report/reproduction.ts";
import { countsText, writeReport } from "../../analysis/report/render.ts";
import { EXIT_BUDGET, EXIT_WRITE } from "./_exit_codes.ts";

const USAGE = `Usage: ${DENO_COMMAND} task reproduce <frail|staghunt> [--models FILE] [--dry-run]
         [--out DIR] [--cache DIR] [--episodes N] [--pack FILE] [--spec FILE] [--max-cost X]
         [--max-tokens N] [--tokens-out N] [--no-preflight] [--no-progress]
       ${DENO_COMMAND} task reproduce --from-pack FILE [--out DIR]`;

const PACK_FORMAT = "coordlab-reproduction-pack";

function fail(message: string): never {
  throw new ReproduceUsageError(message);
}

/** Every file under a folder, as archive entries named `<prefix>/<path>`, sorted. */
async function filesUnder(dir: string, prefix: string): Promise<TarEntry[]> {
  const out: TarEntry[] = [];
  const walk = async (at: string) => {
    const names: Deno.DirEntry[] = [];
    for await (const e of Deno.readDir(at)) names.push(e);
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of names) {
      const path = join(at, e.name);
      if (e.isDirectory) await walk(path);
      else if (e.isFile) {
        out.push({
          name: `${prefix}/${relative(dir, path).split("\\").join("/")}`,
          data: await Deno.readFile(path),
        });
      }
    }
  };
  await walk(dir);
  return out;
}

async function isEmptyOrAbsent(dir: string): Promise<boolean> {
  try {
    for await (const _ of Deno.readDir(dir)) return false;
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return true;
    throw err;
  }
}

async function report(
  paper: ReportPaper,
  out: string,
): Promise<{ html: string; md: string; summary: string }> {
  const frames = await loadRuns(join(out, "run"), {
    frames: [...reportFrames(paper)],
    workers: 1,
  });
  const r = reproductionReport(frames, { paper });
  const files = await writeReport(r, out);
  return { ...files, summary: `${r.agents}: ${countsText(r.counts)}` };
}

async function fromPack(command: ReproduceFromPack): Promise<number> {
  const { file, out, paper: paperArg } = command;
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(file);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) fail(`Pack file "${file}" does not exist`);
    throw err;
  }
  const entries = readTar(bytes, file);
  const meta = entries.find((e) => e.name === "pack.json");
  if (!meta) fail(`Pack "${file}" has no pack.json: not a reproduction pack`);
  const info = JSON.parse(new TextDecoder().decode(meta.data)) as {
    format?: string;
    paper?: string;
  };
  if (info.format !== PACK_FORMAT || !REPORT_PAPERS.includes(info.paper as ReportPaper)) {
    fail(
      `Pack "${file}": pack.json is not a ${PACK_FORMAT} of a known paper (got ${
        new TextDecoder().decode(meta.data).slice(0, 200)
      })`,
    );
  }
  const paper = info.paper as ReportPaper;
  if (paperArg !== undefined && paperArg !== paper) {
    fail(`Pack "${file}" reproduces "${paper}", not "${paperArg}"`);
  }
  if (!(await isEmptyOrAbsent(out))) {
    fail(`Output folder "${out}" is not empty: unpack into a new folder (--out DIR)`);
  }
  const packed = new Map<string, Uint8Array>();
  for (const e of entries) {
    if (e.name === "report.html" || e.name === "report.md") {
      packed.set(e.name, e.data);
      continue;
    }
    const path = join(out, e.name);
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeFile(path, e.data);
  }
  const built = await report(paper, out);
  console.log(
    `Rebuilt the report of pack ${file} into ${built.html} and ${built.md} (${built.summary}).`,
  );
  let same = true;
  for (const [name, path] of [["report.html", built.html], ["report.md", built.md]] as const) {
    const mine = await Deno.readFile(path);
    const theirs = packed.get(name);
    if (theirs === undefined) {
      console.log(`The pack holds no ${name} to compare with.`);
      continue;
    }
    const equal = mine.length === theirs.length && mine.every((b, i) => b === theirs[i]);
    console.log(
      `${name}: ${equal ? "identical to the packed one" : "DIFFERS from the packed one"}`,
    );
    same &&= equal;
  }
  console.log(
    `To play the grid again from the packed cache: deno task reproduce ${paper} --spec ${
      join(out, "spec.json")
    } ` +
      `--models MODELS --cache ${join(out, "cache")} --no-preflight --out DIR`,
  );
  return same ? 0 : 1;
}

async function main(): Promise<number> {
  const command = await readReproduceCommand(Deno.args);
  if (command.kind === "help") {
    console.log(USAGE);
    return 0;
  }
  // The launcher (deno task reproduce) grants exactly these; run directly,
  // the command prints the narrow line that does.
  if (!checkPermissions(reproduceNeeds(command), new URL(import.meta.url), Deno.args)) return 2;
  if (command.kind === "from-pack") return await fromPack(command);
  const { paper, spec, out } = command;
  const models = command.models?.configs;
  const name = parseGridSpec(spec).name;
  if (command.mock) {
    const dropped = command.mock.dropped;
    console.log(
      wrap(
        `Mock agents (rule-based, not LLMs) play the paper's design "${command.designName}"` +
          (dropped.length ? `; left out, as mocks cannot mix models: ${dropped.join("; ")}` : "") +
          ". Give --models FILE to run the paper's models.",
      ).join("\n") + "\n",
    );
  }
  if (command.dryRun) {
    // The grid's one screen (deno task grid --dry-run): plan, calls, tokens,
    // cost per model, and the calls --cache already holds.
    const plan = streamPlan(spec);
    const usage = await estimateUsage(plan.episodes, {
      models,
      tokensOutPerCall: command.tokensOut,
      cache: command.cache,
      currency: command.models?.currency,
    });
    console.log(formatPlan(plan, {
      usage,
      episodes: false,
      cells: "auto",
      modelsFile: command.models?.path,
    }));
    if (command.mock) {
      const real = await estimateUsage(
        streamPlan(withEpisodes(command.design, command.episodes)).episodes,
        { tokensOutPerCall: command.tokensOut },
      );
      const n = formatInt;
      console.log(
        "\n" + wrap(
          `With --models, the paper's models would make ${n(real.llmCalls)} calls in ` +
            `${n(real.llmEpisodes)} episodes (${n(real.tokensIn)} prompt tokens): ` +
            Object.entries(real.byModel).map(([id, m]) => `${id} ${n(m.calls)}`).join(", ") +
            ".",
        ).join("\n"),
      );
    }
    console.log(`\nRun and report into ${out} (logs in ${join(out, "run")}).`);
    return 0;
  }
  // Imported here: the runtime needs the OpenAI client's package (about 60 ms
  // to load), which a dry run and a run without models do not.
  const runtime = models
    ? new (await import("../agents/llm/runtime.ts")).LlmRuntime({
      models,
      currency: command.models!.currency,
      cacheDir: command.cache ?? null,
    })
    : undefined;
  // A signal starts no new episode; a second one abandons those in flight
  // (not logged, played again on resume). The folder resumes either way.
  const stop = new AbortController();
  const abandon = new AbortController();
  let received: string | null = null;
  const stopFor = (name: string) => {
    if (received !== null) {
      console.error(`\nReceived ${name} again: abandoning the episodes in flight.`);
      runtime?.halt(`Received ${received}, then ${name}`, "signal");
      abandon.abort(name);
      return;
    }
    received = name;
    console.error(
      `\nReceived ${name}: no new episode starts (${name} again abandons those in flight).`,
    );
    stop.abort(`Received ${name}`);
  };
  const listeners = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((name) => {
    const listener = () => stopFor(name);
    try {
      Deno.addSignalListener(name, listener);
      return [name, listener] as const;
    } catch {
      return null; // a signal this system does not have
    }
  }).filter((l) => l !== null);
  // A launcher killed outright forwards nothing: its end stops the run as a closed terminal does.
  const unwatch = stopWhenLauncherEnds(() => stopFor("SIGHUP"));
  let r;
  try {
    r = await runGrid(spec, {
      out: join(out, "run"),
      runtime,
      preflight: command.preflight,
      progress: command.progress,
      workers: 0,
      signal: stop.signal,
      abandon: abandon.signal,
      budget: command.maxTokens !== undefined || command.maxCost !== undefined
        ? { maxTokens: command.maxTokens, maxCost: command.maxCost }
        : undefined,
    });
  } finally {
    unwatch();
    for (const [name, listener] of listeners) Deno.removeSignalListener(name, listener);
  }
  console.log(
    `${name}: ${
      r.total - r.remaining
    }/${r.total} episodes in ${r.dir} (${r.skipped} already there, ` +
      `${r.played} played now, ${r.failed.length} failed, ${r.degraded.length} degraded)`,
  );
  if (r.usage.calls > 0) {
    console.log(
      `Model calls: ${r.usage.calls} (${r.usage.cacheHits} from the cache), ` +
        `${r.usage.billedTokens} billed tokens, estimated cost ${r.usage.cost.toFixed(4)}`,
    );
  }
  if (r.stopped) console.log(`Stopped: ${r.stopped}`);
  if (r.interrupted || r.remaining > 0) {
    console.log(`Not finished: run the same command again to resume.`);
    if (r.stoppedBy === "disk" || r.stoppedBy === "cache" || r.stoppedBy === "ledger") {
      return EXIT_WRITE;
    }
    if (r.stoppedBy === "provider") return 3;
    if (r.stoppedBy === "budget") return EXIT_BUDGET;
    return received === "SIGTERM" ? 143 : received === "SIGHUP" ? 129 : 130;
  }
  const built = await report(paper, out);
  console.log(`Report: ${built.html} and ${built.md} (${built.summary}).`);
  if (command.pack !== undefined) {
    const enc = new TextEncoder();
    const entries: TarEntry[] = [
      {
        name: "pack.json",
        data: enc.encode(
          JSON.stringify(
            {
              format: PACK_FORMAT,
              version: 1,
              paper,
              mock: command.mock !== null,
              run: name,
              episodes: r.total,
            },
            null,
            2,
          ) + "\n",
        ),
      },
      { name: "spec.json", data: enc.encode(JSON.stringify(spec, null, 2) + "\n") },
      ...(command.models
        ? [{ name: "models.json", data: await Deno.readFile(command.models.path) }]
        : []),
      // The lock names this process and host; it is no part of the run.
      ...(await filesUnder(join(out, "run"), "run")).filter((e) => e.name !== `run/${LOCK_FILE}`),
      ...(command.cache !== undefined ? await filesUnder(command.cache, "cache") : []),
      { name: "report.html", data: await Deno.readFile(built.html) },
      { name: "report.md", data: await Deno.readFile(built.md) },
    ];
    await Deno.writeFile(command.pack, writeTar(entries));
    console.log(
      `Pack: ${command.pack} (${entries.length} files). Rebuild offline: deno task reproduce --from-pack ${command.pack}`,
    );
  }
  return r.failed.length + r.degraded.length ? 1 : 0;
}

if (import.meta.main) {
  let code: number;
  try {
    code = await main();
  } catch (err) {
    if (err instanceof FolderWriteError) {
      console.error(err.message);
      code = EXIT_WRITE;
    } else if (
      err instanceof ReproduceUsageError || err instanceof RangeError || err instanceof TypeError ||
      err instanceof SyntaxError || err instanceof LlmPreflightError ||
      err instanceof FolderLockedError || err instanceof LockPathError
    ) {
      console.error(`${err.message}${err instanceof ReproduceUsageError ? `\n\n${USAGE}` : ""}`);
      code = 2;
    } else throw err;
  }
  Deno.exit(code);
}

/**
 * Reproduce a paper in one command: plan its design, run it (mock agents by
 * default, or the models of `--models`), and write a report of its every
 * table and figure beside the published values, with a verdict per
 * published cell.
 *
 * ```
 * deno task reproduce <frail|staghunt> [--models FILE] [--dry-run] [--out DIR] [--cache DIR]
 *                     [--episodes N] [--pack FILE] [--spec FILE] [--max-cost X] [--max-tokens N]
 *                     [--no-preflight] [--no-progress]
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
 * `--dry-run` prints the plan and, per model, the calls, prompt tokens,
 * assumed completion tokens (500 per call) and cost (`estimateUsage`; a model
 * without a price has none), then exits; it plays rule-based stand-ins, never
 * a model. Cache hits are not estimated by this version.
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
 * Permissions: `deno task reproduce` grants reading, writing under `runs/`,
 * Polars' native addon (ffi under node_modules, the CPUs, network interfaces
 * and host name) and nothing else: no network, no environment. The grid runs
 * in this process with these. An output or cache folder outside `runs/`, or
 * models (their hosts, their key variables), need more: the command names
 * what is missing and exits 2; run it with `deno run` and exactly those
 * flags (docs/reproduce.md).
 *
 * Exit codes: 0 done (every episode ok, and a rebuilt report identical);
 * 1 some episodes failed or are degraded, or a rebuilt report differs;
 * 2 bad arguments, files or permissions; 3 a provider failed; 74 a folder
 * could not be written; 129, 130, 143 interrupted by SIGHUP, SIGINT, SIGTERM
 * (130 also stopped by the budget): the same command resumes.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { loadModelConfigs, type ModelConfig } from "../agents/llm/model_config.ts";
import { LlmPreflightError } from "../agents/llm/preflight.ts";
import { LlmRuntime } from "../agents/llm/runtime.ts";
import { estimateUsage } from "../grid/estimate.ts";
import { FolderLockedError, LOCK_FILE, LockPathError } from "../grid/lock.ts";
import { formatPlan, streamPlan } from "../grid/plan.ts";
import { runGrid } from "../grid/run_grid.ts";
import { expandCells } from "../grid/cells.ts";
import { modelsOf, parseGridSpec } from "../grid/spec.ts";
import { readGridSpec } from "../grid/spec_file.ts";
import { FolderWriteError } from "../grid/write_error.ts";
import { addonFolder, missingPermissions, type Needs } from "./_permissions.ts";
import { readTar, type TarEntry, writeTar } from "./_tar.ts";
import { formatTable } from "./format_table.ts";
import { loadRuns } from "../../analysis/load/load_runs.ts";
import {
  REPORT_PAPERS,
  type ReportPaper,
  reproductionReport,
} from "../../analysis/report/reproduction.ts";
import { countsText, writeReport } from "../../analysis/report/render.ts";

const USAGE = `Usage: deno task reproduce <frail|staghunt> [--models FILE] [--dry-run] [--out DIR]
         [--cache DIR] [--episodes N] [--pack FILE] [--spec FILE] [--max-cost X]
         [--max-tokens N] [--no-preflight] [--no-progress]
       deno task reproduce --from-pack FILE [--out DIR]`;

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SPECS: Record<ReportPaper, string> = {
  frail: join(ROOT, "data/specs/paper_frail.json"),
  staghunt: join(ROOT, "data/specs/paper_staghunt.ts"),
};
/** The Stag Hunt's mock players (notebook 04's): carryover threshold players, 10% noise. */
const STAGHUNT_MOCK = { players: "threshold", rule: "carryover", noise: 0.1 };
const PACK_FORMAT = "coordlab-reproduction-pack";
const EXIT_WRITE = 74;

class UsageError extends Error {}

function fail(message: string): never {
  throw new UsageError(message);
}

type Block = Record<string, unknown> & { game: string; agents?: Record<string, unknown>[] };
type Spec = { name?: string; episodes?: number; blocks: Block[] } & Record<string, unknown>;

/**
 * The spec with mock agents in place of every model entry: FRAIL blocks get
 * the default mocks, Stag Hunt h1 blocks threshold players; blocks whose
 * agents are h2 or h3 model policies are left out (returned apart).
 */
export function mockSpec(spec: Spec): { spec: Spec; dropped: string[] } {
  const blocks: Block[] = [];
  const dropped: string[] = [];
  spec.blocks.forEach((b, i) => {
    const agents = b.agents ?? [];
    if (b.game === "staghunt" && agents.some((a) => "models" in a)) {
      dropped.push(`blocks.${i} (${agents.map((a) => JSON.stringify(a)).join(", ")})`);
      return;
    }
    blocks.push({
      ...b,
      agents: [b.game === "staghunt" ? { mock: STAGHUNT_MOCK } : { mock: {} }],
    });
  });
  return { spec: { ...spec, name: `${spec.name ?? "grid"}-mock`, blocks }, dropped };
}

function withEpisodes(spec: Spec, episodes: number | undefined): Spec {
  if (episodes === undefined) return spec;
  return {
    ...spec,
    episodes,
    blocks: spec.blocks.map((b) => ({ ...b, ...("episodes" in b ? { episodes } : {}) })),
  };
}

function int(name: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min) {
    fail(`--${name} must be an integer >= ${min}, got "${text}"`);
  }
  return n;
}

function positive(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!(n > 0) || !Number.isFinite(n)) fail(`--${name} must be a number > 0, got "${text}"`);
  return n;
}

/** Stops with the permissions missing, named (no command to copy: docs/reproduce.md). */
function requirePermissions(needs: Needs): void {
  const missing = missingPermissions(needs);
  if (missing.length === 0) return;
  fail(
    `This command needs permissions it was not given: ${missing.join(", ")}. ` +
      `deno task reproduce grants reading, writing under runs/ and Polars' addon only; ` +
      `run it with deno run and these flags added (docs/reproduce.md, "Permissions")`,
  );
}

const POLARS_SYS = ["cpus", "networkInterfaces", "hostname"];

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
    frames: paper === "frail" ? ["rounds", "decisions"] : ["turns"],
    workers: 1,
  });
  const r = reproductionReport(frames, { paper });
  const files = await writeReport(r, out);
  return { ...files, summary: `${r.agents}: ${countsText(r.counts)}` };
}

async function fromPack(
  file: string,
  outArg: string | undefined,
  paperArg: string | undefined,
): Promise<number> {
  const out = outArg ?? join("runs", basename(file).replace(/\.tar$/, ""));
  requirePermissions({ write: [out], net: [], env: [], sys: POLARS_SYS, ffi: addonFolder() });
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
  let values, positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: Deno.args,
      options: {
        models: { type: "string" },
        "dry-run": { type: "boolean" },
        out: { type: "string" },
        cache: { type: "string" },
        episodes: { type: "string" },
        pack: { type: "string" },
        "from-pack": { type: "string" },
        spec: { type: "string" },
        "max-cost": { type: "string" },
        "max-tokens": { type: "string" },
        "no-preflight": { type: "boolean" },
        "no-progress": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length > 1) {
    fail(`Expected one paper, got ${positionals.length}: ${positionals.join(" ")}`);
  }
  const paperArg = positionals[0];
  if (paperArg !== undefined && !REPORT_PAPERS.includes(paperArg as ReportPaper)) {
    fail(`Unknown paper "${paperArg}": expected one of ${REPORT_PAPERS.join(", ")}`);
  }
  if (values["from-pack"] !== undefined) {
    for (const flag of ["models", "dry-run", "cache", "episodes", "pack", "spec"] as const) {
      if (values[flag] !== undefined) {
        fail(`--from-pack rebuilds the packed run's report; it takes no --${flag}`);
      }
    }
    return await fromPack(values["from-pack"], values.out, paperArg);
  }
  if (paperArg === undefined) fail("Name the paper: frail or staghunt");
  const paper = paperArg as ReportPaper;
  const episodes = int("episodes", values.episodes, 1);
  const maxTokens = int("max-tokens", values["max-tokens"], 1);
  const maxCost = positive("max-cost", values["max-cost"]);
  const specPath = values.spec ?? SPECS[paper];
  let raw: Spec;
  try {
    raw = await readGridSpec(specPath) as Spec;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) fail(`Spec file "${specPath}" does not exist`);
    throw err;
  }
  const parsed = parseGridSpec(raw);
  const game = paper === "frail" ? "frail" : "staghunt";
  const otherGames = parsed.blocks.filter((b) => b.game !== game);
  if (otherGames.length > 0) {
    fail(
      `Spec "${specPath}" has ${
        otherGames[0].game
      } blocks: the ${paper} report needs ${game} blocks only`,
    );
  }
  let models: ModelConfig[] | undefined;
  if (values.models !== undefined) {
    try {
      models = await loadModelConfigs(values.models);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) {
        fail(`Models file "${values.models}" does not exist`);
      }
      throw err;
    }
  } else if (values.cache !== undefined) {
    fail("--cache holds model replies: it needs --models (mock agents make no model call)");
  }
  const mock = models === undefined ? mockSpec(raw) : null;
  const spec = withEpisodes(mock ? mock.spec : raw, episodes);
  const name = parseGridSpec(spec).name;
  const out = values.out ?? join("runs", `reproduce-${paper}${mock ? "-mock" : ""}`);
  if (mock) {
    console.log(
      `Mock agents (rule-based, not LLMs) play the paper's design "${parsed.name}"` +
        (mock.dropped.length
          ? `; left out, as mocks cannot mix models: ${mock.dropped.join("; ")}`
          : "") +
        ". Give --models FILE to run the paper's models.",
    );
  }
  if (values["dry-run"]) {
    const plan = streamPlan(spec);
    const usage = await estimateUsage(plan.episodes, { models });
    console.log(formatPlan(plan, { episodes: false }).split("\n")[0]);
    const rows = Object.entries(usage.byModel).map(([id, m]) => [
      id,
      String(m.calls),
      String(m.tokensIn),
      String(m.tokensOut),
      m.cost === null ? "no price" : m.cost.toFixed(4),
    ]);
    console.log(
      `Agent calls: ${usage.calls}; LLM: ${usage.llmEpisodes} episodes, ${usage.llmCalls} calls.`,
    );
    if (rows.length > 0) {
      console.log(
        formatTable(
          ["model", "calls", "prompt tokens", "completion tokens (500/call)", "cost"],
          rows,
        ),
      );
      console.log(
        usage.cost === null
          ? "Cost: unknown (no price for " + usage.unpriced.join(", ") + ")"
          : `Cost: ${usage.cost.toFixed(4)} (at the caps ${usage.maxCost?.toFixed(4)})`,
      );
      console.log("Cache hits: not estimated by this version (every call counted as sent).");
    }
    if (mock) {
      const real = await estimateUsage(streamPlan(withEpisodes(raw, episodes)).episodes, {});
      console.log(
        `With --models, the paper's models would make ${real.llmCalls} calls in ${real.llmEpisodes} ` +
          `episodes (${real.tokensIn} prompt tokens): ` +
          Object.entries(real.byModel).map(([id, m]) => `${id} ${m.calls}`).join(", ") + ".",
      );
    }
    console.log(`Run and report into ${out} (logs in ${join(out, "run")}).`);
    return 0;
  }
  const named = new Set(expandCells(parseGridSpec(spec)).flatMap((c) => modelsOf(c.agents)));
  const used = (models ?? []).filter((m) => named.has(m.id));
  requirePermissions({
    write: [
      out,
      ...(values.cache ? [values.cache] : []),
      ...(values.pack ? [dirname(values.pack)] : []),
    ],
    net: used.map((m) => new URL(m.baseURL).host),
    env: used.map((m) => m.apiKeyEnv).filter((k): k is string => k !== null),
    sys: POLARS_SYS,
    ffi: addonFolder(),
  });
  const runtime = models ? new LlmRuntime({ models, cacheDir: values.cache ?? null }) : undefined;
  // A signal starts no new episode; a second one abandons those in flight
  // (not logged, played again on resume). The folder resumes either way.
  const stop = new AbortController();
  const abandon = new AbortController();
  let received: string | null = null;
  const listeners = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((name) => {
    const listener = () => {
      if (received !== null) {
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
    try {
      Deno.addSignalListener(name, listener);
      return [name, listener] as const;
    } catch {
      return null; // a signal this system does not have
    }
  }).filter((l) => l !== null);
  let r;
  try {
    r = await runGrid(spec, {
      out: join(out, "run"),
      runtime,
      preflight: !values["no-preflight"],
      progress: values["no-progress"] ? false : true,
      workers: 0,
      signal: stop.signal,
      abandon: abandon.signal,
      budget: maxTokens !== undefined || maxCost !== undefined ? { maxTokens, maxCost } : undefined,
    });
  } finally {
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
    return received === "SIGTERM" ? 143 : received === "SIGHUP" ? 129 : 130;
  }
  const built = await report(paper, out);
  console.log(`Report: ${built.html} and ${built.md} (${built.summary}).`);
  if (values.pack) {
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
              mock: mock !== null,
              run: name,
              episodes: r.total,
            },
            null,
            2,
          ) + "\n",
        ),
      },
      { name: "spec.json", data: enc.encode(JSON.stringify(spec, null, 2) + "\n") },
      ...(values.models ? [{ name: "models.json", data: await Deno.readFile(values.models) }] : []),
      // The lock names this process and host; it is no part of the run.
      ...(await filesUnder(join(out, "run"), "run")).filter((e) => e.name !== `run/${LOCK_FILE}`),
      ...(values.cache ? await filesUnder(values.cache, "cache") : []),
      { name: "report.html", data: await Deno.readFile(built.html) },
      { name: "report.md", data: await Deno.readFile(built.md) },
    ];
    await Deno.writeFile(values.pack, writeTar(entries));
    console.log(
      `Pack: ${values.pack} (${entries.length} files). Rebuild offline: deno task reproduce --from-pack ${values.pack}`,
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
      err instanceof UsageError || err instanceof RangeError || err instanceof TypeError ||
      err instanceof SyntaxError || err instanceof LlmPreflightError ||
      err instanceof FolderLockedError || err instanceof LockPathError
    ) {
      console.error(`${err.message}${err instanceof UsageError ? `\n\n${USAGE}` : ""}`);
      code = 2;
    } else throw err;
  }
  Deno.exit(code);
}

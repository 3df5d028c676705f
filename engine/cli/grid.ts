/**
 * The grid command line: run, resume, shard or dry-run an experiment spec.
 *
 * ```
 * deno task grid --spec SPEC [--out DIR] [--shard I/N] [--workers K] [--concurrency K]
 *                [--no-progress] [--redo-failed] [--max-episodes N]
 *                [--models MODELS.json [--cache DIR] [--max-tokens N] [--max-cost X] [--no-preflight]
 *                 [--max-consecutive-failures N] [--max-logged-reply-chars N]]
 * deno task grid --spec SPEC --dry-run [--list] [--shard I/N]
 *                [--models MODELS.json [--cache DIR] [--pilot N [--max-cost X]]]
 *                [--tokens-out N] [--max-episodes N]
 * ```
 *
 * `SPEC` is a JSON file or a TypeScript module whose default export is the
 * spec. `--out` defaults to `runs/<name>` (`runs/<name>/shard-<i>-of-<n>` with
 * `--shard`). Running the same command again resumes. Ctrl-C stops starting
 * episodes and lets those in flight finish; a second Ctrl-C abandons them.
 * Either way the command prints how to resume.
 *
 * A spec naming models runs with `--models` (model configurations, see
 * `loadModelConfigs`): its LLM agents share one runtime, with the response
 * cache in `--cache` (default none), checked by preflight before any episode
 * starts (unless `--no-preflight`: preflight lists the models and sends each
 * one tiny chat request), and no new episode starts once the billed tokens
 * reach `--max-tokens` or the estimated cost `--max-cost` (which needs a price
 * for every model), or once a provider fails `--max-consecutive-failures`
 * calls in a row (default 10; the circuit breaker) or refuses a key or
 * answers 404. Replies and reasoning longer than `--max-logged-reply-chars`
 * (default 262144) are cut in the logs, with a correction saying so.
 *
 * An episode in which some decision took its neutral default because its
 * model call failed after the last retry ends `degraded`: it is counted
 * apart, the analysis tables leave it out, and `--redo-failed` plays it
 * again (as it does episodes that ended with an error).
 *
 * `--dry-run` plays every episode with rule-based stand-ins to count calls
 * and, for LLM agents, prompt tokens (`estimateUsage`), and prints one
 * screen: the cells and episodes (the table of cells when it is short), and
 * by model the calls, the calls `--cache` already holds (replayed at no
 * cost), prompt and completion tokens, and with `--models` the cost in the
 * models file's `currency` with a low-high range (prompts alone to every
 * completion at its cap), the models without a price and how to add one.
 * Completion tokens per call are measured by `--pilot N` when given (N
 * episodes, spread over the models, played for real through the runtime and
 * `--cache` into a temporary folder: this spends money, within `--max-cost`,
 * and the command prints what it spent), else the mean of the cache's
 * replies for the model when it holds some, else assumed (`--tokens-out`,
 * default 500); the table says which. `--list` adds every cell and every episode with its
 * seed. It streams: episodes are generated one at a time, never held all at
 * once.
 *
 * A spec of more than `--max-episodes` episodes (default 1,000,000) is
 * refused with its count before anything is expanded.
 *
 * Permissions: `deno task grid` runs a launcher (launch_grid.ts) that reads
 * the spec and models file, checks every model's key variable is set (a
 * missing one exits 2 naming it and its model), and runs this command as a
 * child with exactly what it needs: reading, writing the output and cache
 * folders (anywhere), the network to the models' hosts, their key
 * variables, and the host name (recorded in the run folder's lock). Run
 * directly, the command checks those permissions before it starts and, when
 * one is missing, prints the narrow `deno run` command that grants them and
 * exits 2.
 *
 * Exit codes: 0 done, every episode ok; 1 some episodes failed or are
 * degraded; 2 bad arguments, spec, models or permissions, preflight failed,
 * or a run folder another process is writing; 3 stopped because a provider
 * failed (the message names it and its last error); 130
 * interrupted or stopped by the budget.
 *
 * A Slurm job array runs one shard per task, each in its own folder:
 *
 * ```sh
 * #!/bin/bash
 * #SBATCH --array=0-7
 * #SBATCH --cpus-per-task=8
 * deno task grid --spec data/specs/paper.json \
 *   --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT \
 *   --out runs/paper/shard-$SLURM_ARRAY_TASK_ID
 * ```
 *
 * then `deno task compact runs/paper` merges the union of the shard folders
 * into `runs/paper-parquet` (or point the loaders at `runs/paper`).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { loadModelsFile } from "../agents/llm/model_config.ts";
import { LlmPreflightError } from "../agents/llm/preflight.ts";
import { LlmRuntime } from "../agents/llm/runtime.ts";
import { estimateUsage } from "../grid/estimate.ts";
import { wrap } from "./format_table.ts";
import { type PilotResult, runPilot } from "../grid/pilot.ts";
import { formatCost } from "../core/progress.ts";
import { FolderLockedError } from "../grid/lock.ts";
import { formatEpisodeLine, formatPlan, streamPlan } from "../grid/plan.ts";
import type { GridEpisode } from "../grid/cells.ts";
import { runGrid } from "../grid/run_grid.ts";
import { checkPermissions, DENO_COMMAND, gridNeeds, quote } from "./_permissions.ts";
import { readGridSpec } from "../grid/spec_file.ts";

const USAGE = `Usage: ${DENO_COMMAND} task grid --spec SPEC [--out DIR] [--shard I/N]
         [--workers K] [--concurrency K] [--no-progress] [--redo-failed] [--max-episodes N]
         [--models MODELS.json [--cache DIR] [--max-tokens N] [--max-cost X] [--no-preflight]
          [--max-consecutive-failures N] [--max-logged-reply-chars N]]
       ${DENO_COMMAND} task grid --spec SPEC --dry-run [--list] [--shard I/N]
         [--models MODELS.json [--cache DIR] [--pilot N [--max-cost X]]] [--tokens-out N]
         [--max-episodes N]`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  Deno.exit(2);
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

/** Writes a plan's episode list, a chunk at a time. */
function printEpisodes(episodes: Iterable<GridEpisode>): void {
  const encoder = new TextEncoder();
  const write = (text: string) => {
    const bytes = encoder.encode(text);
    let done = 0;
    while (done < bytes.length) done += Deno.stdout.writeSync(bytes.subarray(done));
  };
  let chunk = "\nepisode  seed\n";
  for (const e of episodes) {
    chunk += formatEpisodeLine(e) + "\n";
    if (chunk.length > 1 << 16) {
      write(chunk);
      chunk = "";
    }
  }
  write(chunk);
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: Deno.args,
      options: {
        spec: { type: "string" },
        out: { type: "string" },
        shard: { type: "string" },
        workers: { type: "string" },
        concurrency: { type: "string" },
        "dry-run": { type: "boolean" },
        list: { type: "boolean" },
        pilot: { type: "string" },
        "no-progress": { type: "boolean" },
        "redo-failed": { type: "boolean" },
        models: { type: "string" },
        cache: { type: "string" },
        "max-tokens": { type: "string" },
        "max-cost": { type: "string" },
        "no-preflight": { type: "boolean" },
        "max-consecutive-failures": { type: "string" },
        "max-logged-reply-chars": { type: "string" },
        "tokens-out": { type: "string" },
        "max-episodes": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.spec) fail("--spec is required");
  const workers = int("workers", values.workers, 0);
  const concurrency = int("concurrency", values.concurrency, 1);
  const tokensOut = int("tokens-out", values["tokens-out"], 0) ?? 500;
  const maxTokens = int("max-tokens", values["max-tokens"], 1);
  const maxCost = positive("max-cost", values["max-cost"]);
  const maxConsecutiveFailures = int(
    "max-consecutive-failures",
    values["max-consecutive-failures"],
    1,
  );
  const maxLoggedReplyChars = int("max-logged-reply-chars", values["max-logged-reply-chars"], 1);
  const maxEpisodes = int("max-episodes", values["max-episodes"], 1);
  const pilotCount = int("pilot", values.pilot, 1);
  if (pilotCount !== undefined && !values["dry-run"]) fail("--pilot goes with --dry-run");
  try {
    const spec = await readGridSpec(values.spec);
    const file = values.models ? await loadModelsFile(values.models) : undefined;
    const models = file?.models;
    if (values["dry-run"]) {
      const plan = streamPlan(spec, { shard: values.shard, maxEpisodes });
      if (values.cache !== undefined && !models) fail("--cache in a dry run needs --models");
      let pilot: PilotResult | undefined;
      if (pilotCount !== undefined) {
        if (!models) fail("--pilot needs --models");
        // Spends money: through the run's runtime and cache, within --max-cost.
        pilot = await runPilot(streamPlan(spec, { shard: values.shard, maxEpisodes }).episodes, {
          runtime: new LlmRuntime({
            models,
            cacheDir: values.cache ?? null,
            maxConsecutiveFailures,
            maxLoggedReplyChars,
          }),
          count: pilotCount,
          dir: await Deno.makeTempDir({ prefix: "coordlab-pilot-" }),
          maxCost,
        });
        const said = [
          `Pilot: ${pilot.episodes.length} of ${pilotCount} episodes played for real, ` +
          `${pilot.calls} model calls (${pilot.cacheHits} from the cache), spent ` +
          `${formatCost(pilot.spent)} ${file!.currency}; their logs are in ${pilot.dir}.` +
          (values.cache ? "" : " Add --cache DIR to both commands so the run replays them."),
          ...(pilot.stopped ? [pilot.stopped] : []),
        ];
        if (pilot.episodes.length > 0) {
          // The stand-ins' count for the same episodes: how far the estimate's calls may be off.
          const ids = new Set(pilot.episodes);
          const same = await estimateUsage(
            (function* () {
              for (const e of streamPlan(spec, { shard: values.shard, maxEpisodes }).episodes) {
                if (ids.has(e.id)) yield e;
              }
            })(),
          );
          said.push(
            `The pilot's ${pilot.episodes.length} finished episodes made ${pilot.finishedCalls} ` +
              `model calls, where the stand-ins below count ${same.llmCalls}: the real run's ` +
              `calls may differ from the estimate as much.`,
          );
        }
        console.log(said.flatMap((line) => wrap(line)).join("\n"));
        console.log("");
      } else if (maxCost !== undefined) fail("--max-cost in a dry run goes with --pilot");
      const usage = await estimateUsage(plan.episodes, {
        models,
        tokensOutPerCall: tokensOut,
        cache: values.cache,
        currency: file?.currency,
        pilot: pilot?.byModel,
      });
      const list = values.list ?? false;
      console.log(formatPlan(plan, {
        usage,
        episodes: false,
        cells: list ? true : "auto",
        modelsFile: values.models,
      }));
      if (list) printEpisodes(plan.episodes);
      return 0;
    }
    if (values.list) fail("--list goes with --dry-run");
    const needs = gridNeeds(spec, models ?? [], {
      out: values.out,
      shard: values.shard,
      cache: values.cache,
    });
    if (!checkPermissions(needs, new URL(import.meta.url), Deno.args)) return 2;
    const runtime = models
      ? new LlmRuntime({
        models,
        cacheDir: values.cache ?? null,
        maxConsecutiveFailures,
        maxLoggedReplyChars,
      })
      : undefined;
    const signal = new AbortController();
    const abandon = new AbortController();
    const onInterrupt = () => {
      if (!signal.signal.aborted) {
        console.error(
          "\nStopping: finishing the episodes in flight (Ctrl-C again to abandon them)...",
        );
        signal.abort();
      } else {
        console.error("\nAbandoning the episodes in flight...");
        abandon.abort();
      }
    };
    Deno.addSignalListener("SIGINT", onInterrupt);
    let result;
    try {
      result = await runGrid(spec, {
        out: values.out,
        shard: values.shard,
        maxEpisodes,
        workers,
        concurrency,
        progress: values["no-progress"] ? false : true,
        signal: signal.signal,
        abandon: abandon.signal,
        redoFailed: values["redo-failed"] ?? false,
        runtime,
        preflight: !values["no-preflight"],
        budget: maxTokens !== undefined || maxCost !== undefined
          ? { maxTokens, maxCost }
          : undefined,
      });
    } finally {
      Deno.removeSignalListener("SIGINT", onInterrupt);
    }
    const r = result;
    if (r.staleLock) {
      console.log(
        `Took over the lock of process ${r.staleLock.pid} (${r.staleLock.purpose}, since ` +
          `${r.staleLock.since}), which had ended without releasing it.`,
      );
    }
    console.log(
      `${r.run}: ${r.total - r.remaining}/${r.total} episodes finished in ${r.dir} ` +
        `(${r.skipped} already there, ${r.played} played now, ${r.failed.length} failed` +
        (r.degraded.length ? `, ${r.degraded.length} degraded` : "") +
        (r.removedTemporary + r.removedPartial
          ? `, ${r.removedPartial} half-written logs and ${r.removedTemporary} temporary files removed`
          : "") +
        `) in ${(r.elapsedMs / 1000).toFixed(1)} s`,
    );
    if (r.usage.calls > 0) {
      console.log(
        `Model calls: ${r.usage.calls} (${r.usage.cacheHits} from the cache), ` +
          `${r.usage.billedTokens} billed tokens, estimated cost ${r.usage.cost.toFixed(4)}` +
          (r.usage.invalidUsageCalls
            ? ` (${r.usage.invalidUsageCalls} calls reported no valid token counts: unpriced)`
            : ""),
      );
    }
    if (r.stopped) console.log(`Stopped: ${r.stopped}`);
    for (const f of r.failed.slice(0, 10)) console.log(`  failed: ${f.id}: ${f.error}`);
    if (r.failed.length > 10) console.log(`  ... and ${r.failed.length - 10} more`);
    for (const d of r.degraded.slice(0, 10)) {
      console.log(
        `  degraded: ${d.id}: ${d.counts.defaults} decisions took neutral defaults ` +
          `(${d.counts.failed_calls} failed model calls)`,
      );
    }
    if (r.degraded.length > 10) console.log(`  ... and ${r.degraded.length - 10} more degraded`);
    if (r.failed.length + r.degraded.length > 0) {
      console.log(
        "Degraded and failed episodes are left out of the analysis tables; " +
          "add --redo-failed to play them again.",
      );
    }
    if (r.interrupted || r.remaining > 0) {
      const args = values.out ? Deno.args : [...Deno.args, "--out", r.dir];
      console.log(`Resume with: ${DENO_COMMAND} task grid ${args.map(quote).join(" ")}`);
    }
    if (r.stoppedBy === "provider") return 3;
    return r.interrupted ? 130 : r.failed.length + r.degraded.length ? 1 : 0;
  } catch (err) {
    if (
      err instanceof RangeError || err instanceof TypeError || err instanceof SyntaxError ||
      err instanceof LlmPreflightError || err instanceof FolderLockedError ||
      err instanceof Deno.errors.NotFound
    ) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
}

if (import.meta.main) Deno.exit(await main());

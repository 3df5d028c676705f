/**
 * The grid command line: run, resume, shard or dry-run an experiment spec.
 *
 * ```
 * deno task grid --spec SPEC [--out DIR] [--shard I/N] [--workers K] [--concurrency K]
 *                [--no-progress] [--redo-failed] [--max-episodes N] [--take-over-lock]
 *                [--models MODELS.json [--cache DIR] [--max-tokens N] [--max-cost X] [--no-preflight]
 *                 [--max-consecutive-failures N] [--max-logged-reply-chars N] [--stop-grace S]]
 * deno task grid --spec SPEC --dry-run [--list] [--shard I/N]
 *                [--models MODELS.json [--cache DIR] [--pilot N [--max-cost X]]]
 *                [--tokens-out N] [--max-episodes N]
 * ```
 *
 * `SPEC` is a JSON file or a TypeScript module whose default export is the
 * spec. `--out` defaults to `runs/<name>` (`runs/<name>/shard-<i>-of-<n>` with
 * `--shard`). Running the same command again resumes.
 *
 * Stopping: SIGINT (Ctrl-C), SIGTERM (what Slurm and Kubernetes send to
 * cancel, time out or preempt a job) and SIGHUP (a closed terminal) print
 * one line naming the signal, and no new episode starts. A mock grid lets
 * the episodes in flight finish (milliseconds); an LLM grid gives them
 * `--stop-grace` seconds (default 10), then sends no further request (each
 * episode in flight stops at its current step once the calls already sent
 * have returned, their replies counted and cached), and as long again later
 * stops waiting, so by default the command ends within about 20 s, inside
 * the 30 s both give before SIGKILL. The same signal again abandons the
 * episodes in flight at once. Abandoned episodes are not logged and play
 * again on resume. The manifest ends `interrupted` (its session
 * counting the episodes saved), the lock is released, the command prints how
 * to resume and exits 128 + the signal's number. A launcher killed outright
 * (SIGKILL: nothing to forward) stops the run as SIGHUP does within about
 * half a second (`_launcher_watch.ts`), so no episode plays on unseen.
 *
 * A folder that cannot be written (a full or failing disk: `ENOSPC`, `EIO`,
 * ...; a folder planted where a log goes) stops the run: one line names the
 * folder, the file and the error, the manifest ends `interrupted` where it
 * can still be written, and the command prints how to resume and exits 74.
 *
 * A spec naming models runs with `--models` (model configurations, see
 * `loadModelConfigs`): its LLM agents share one runtime, with the response
 * cache in `--cache` (default none), checked by preflight before any episode
 * starts (unless `--no-preflight`: preflight lists the models and sends each
 * one tiny chat request). `--max-tokens` (billed tokens) and `--max-cost`
 * (estimated cost, which needs a price for every model) bound the run as a
 * whole, every session: spend is kept in the run folder's `spend.jsonl` and
 * read back on resume, each request reserves its worst case before it is
 * sent, and one that may not fit is not sent (the episode that needed it
 * plays again on a resume with a larger limit). No new episode starts once
 * the limit is reached, or once a provider fails `--max-consecutive-failures`
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
 * A lock that names another host (its process may still run there) is
 * refused with that host and pid; `--take-over-lock` takes it over once you
 * know that process has ended. A symbolic link at the lock's path is
 * refused, never followed.
 *
 * Exit codes: 0 done, every episode ok; 1 some episodes failed or are
 * degraded; 2 bad arguments, a missing or bad spec or models file,
 * permissions, preflight failed, or a run folder another process (or host)
 * is writing or whose lock is a link; 3 stopped because a provider failed
 * (the message names it, its HTTP status or last error, and its key
 * variable), also when found after the last episode started; 74 a file of
 * the run folder (or the response cache) could not be written; 4 stopped by
 * the budget (`--max-cost`, `--max-tokens`: raise it to go on); 129, 130,
 * 143 interrupted by SIGHUP, SIGINT, SIGTERM. A run that finished every
 * episode although a signal came exits as if none had.
 *
 * A Slurm job array runs one shard per task, each in its own folder:
 * `deno task slurm --spec SPEC --shards N --out DIR --submit` writes and
 * submits it (`engine/cli/slurm.ts`: the array `0..N-1` with `N` written out,
 * never `$SLURM_ARRAY_TASK_COUNT`; exact permissions; SIGTERM before the time
 * limit; requeue). Then `deno task compact DIR` merges the union of the shard
 * folders, refusing a set with a missing shard or episode (or point the
 * loaders at `DIR`, which check the same).
 *
 * Without `--workers`, a mock grid uses `SLURM_CPUS_PER_TASK` when set and
 * readable, else the cores available, and its first line says which.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { loadModelsFile } from "../agents/llm/model_config.ts";
import { LlmPreflightError } from "../agents/llm/preflight_error.ts";
import type { LlmRuntime } from "../agents/llm/runtime.ts";
import { estimateUsage } from "../grid/estimate.ts";
import { FolderLockedError, LockPathError } from "../grid/lock.ts";
import { FolderWriteError, isOsError } from "../grid/write_error.ts";
import { streamPlan } from "../grid/plan.ts";
import { formatEpisodeLine, formatPlan } from "../grid/plan_text.ts";
import type { GridEpisode } from "../grid/cells.ts";
import { limitText, spentText } from "../grid/grid_summary.ts";
import { defaultWorkers, type GridResult, type GridSpend, runGrid } from "../grid/run_grid.ts";
import { readGridSpec } from "../grid/spec_file.ts";
import { wrap } from "../grid/format_table.ts";
import { type PilotResult, runPilot } from "../grid/pilot.ts";
import { formatCost } from "../core/progress.ts";
import { checkPermissions, DENO_COMMAND, gridNeeds, quote } from "./_permissions.ts";
import { numberFlags } from "./_flags.ts";
import { EXIT_BUDGET, EXIT_WRITE } from "./_exit_codes.ts";
import { stopWhenLauncherEnds } from "./_launcher_watch.ts";

const USAGE = `Usage: ${DENO_COMMAND} task grid --spec SPEC [--out DIR] [--shard I/N]
         [--workers K] [--concurrency K] [--no-progress] [--redo-failed] [--max-episodes N]
         [--take-over-lock]
         [--models MODELS.json [--cache DIR] [--max-tokens N] [--max-cost X] [--no-preflight]
          [--max-consecutive-failures N] [--max-logged-reply-chars N] [--stop-grace S]]
       ${DENO_COMMAND} task grid --spec SPEC --dry-run [--list] [--shard I/N]
         [--models MODELS.json [--cache DIR] [--pilot N [--max-cost X]]] [--tokens-out N]
         [--max-episodes N]`;

/** Exit code of a run folder (or cache) that cannot be written: sysexits' `EX_IOERR`. */

/** Signals that stop a run, and their exit codes (128 + the signal's number). */
const SIGNALS = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof SIGNALS;
/** Default of `--stop-grace`, in s: how long an LLM grid's episodes go on after a signal, then their sent calls. */
const STOP_GRACE_S = 10;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  Deno.exit(2);
}

const { int, positive } = numberFlags(fail);

/** This host's name, or `null` when the process may not read it. */
function hostName(): string | null {
  try {
    return Deno.hostname();
  } catch {
    return null;
  }
}

/** Reads an input file; a missing one is a `RangeError` naming it (exit 2). */
async function readInput<T>(
  what: string,
  path: string,
  read: (p: string) => Promise<T>,
): Promise<T> {
  try {
    return await read(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new RangeError(`${what} file "${path}" does not exist`);
    }
    throw err;
  }
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

/** The closing lines about the run's spend, its limit and its spend ledger. */
function spendLines(s: GridSpend): string[] {
  const lines: string[] = [];
  if (s.cut) {
    lines.push(
      `The spend ledger ${s.ledger} ended in a torn line (a kill mid-write), cut: ` +
        `${s.cut.bytes} bytes (${
          JSON.stringify(s.cut.sample)
        }); its request counts at its reservation.`,
    );
  }
  if (s.unsettled) {
    lines.push(
      `${s.unsettled} requests of an earlier session never settled (killed in flight): ` +
        "counted at their reservation.",
    );
  }
  if (s.inFlight) {
    lines.push(
      `${s.inFlight} requests were still in flight when the run stopped: counted at their ` +
        "reservation (their replies are not used).",
    );
  }
  if (s.spent.total.requests > 0 || s.limit) {
    const now = s.session.total;
    lines.push(
      `Spent: ${spentText(s.spent.total)}; this session ${now.tokens} tokens, estimated cost ` +
        `${now.cost.toFixed(4)}. Limit: ${limitText(s)}.`,
    );
  }
  return lines;
}

/**
 * What the resume line adds with a budget: the limit bounds the whole run,
 * and how much of it is left (never an invitation to a fresh budget).
 */
function resumeBudgetLine(s: GridSpend): string {
  const left = [
    s.limit?.maxCost !== undefined
      ? `${s.remaining.cost!.toFixed(4)} of --max-cost ${s.limit.maxCost}`
      : "",
    s.limit?.maxTokens !== undefined
      ? `${s.remaining.tokens} of --max-tokens ${s.limit.maxTokens}`
      : "",
  ].filter(Boolean).join(" and ");
  const nothing = (s.remaining.cost ?? 1) <= 0 || (s.remaining.tokens ?? 1) <= 0;
  return `The limit bounds the whole run, every session, not each command: ${left} left` +
    (nothing
      ? ", so resuming with the same limit starts nothing; raise it to go on."
      : `, so resuming with the same limit spends at most that; raise it to spend more.`);
}

/** The command line, checked: the flags and the numbers they give (a bad one exits 2). */
function parseFlags() {
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
        "take-over-lock": { type: "boolean" },
        "stop-grace": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (values.help) return { help: true as const };
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
  const graceS = positive("stop-grace", values["stop-grace"]) ?? STOP_GRACE_S;
  const pilotCount = int("pilot", values.pilot, 1);
  if (pilotCount !== undefined && !values["dry-run"]) fail("--pilot goes with --dry-run");
  return {
    help: false as const,
    values: { ...values, spec: values.spec },
    workers,
    concurrency,
    tokensOut,
    maxTokens,
    maxCost,
    maxConsecutiveFailures,
    maxLoggedReplyChars,
    maxEpisodes,
    graceS,
    pilotCount,
  };
}

/** The checked command line (see {@linkcode parseFlags}). */
type Flags = Exclude<ReturnType<typeof parseFlags>, { help: true }>;

/** The models file's content, when `--models` names one. */
type ModelsFile = Awaited<ReturnType<typeof loadModelsFile>>;

/**
 * The runtime of the models, with the command line's limits. Imported here:
 * the runtime needs the OpenAI client's package (about 60 ms to load), which
 * a mock grid does not.
 */
async function llmRuntime(flags: Flags, file: ModelsFile): Promise<LlmRuntime> {
  const { LlmRuntime } = await import("../agents/llm/runtime.ts");
  return new LlmRuntime({
    models: file.models,
    currency: file.currency,
    cacheDir: flags.values.cache ?? null,
    maxConsecutiveFailures: flags.maxConsecutiveFailures,
    maxLoggedReplyChars: flags.maxLoggedReplyChars,
  });
}

/** `--dry-run`: the plan, its estimate (after a pilot with `--pilot`), and with `--list` its episodes. */
async function dryRun(spec: unknown, flags: Flags, file: ModelsFile | undefined): Promise<number> {
  const { values, maxEpisodes, maxCost } = flags;
  const models = file?.models;
  const plan = streamPlan(spec, { shard: values.shard, maxEpisodes });
  if (values.cache !== undefined && !models) fail("--cache in a dry run needs --models");
  let pilot: PilotResult | undefined;
  if (flags.pilotCount !== undefined) {
    if (!models) fail("--pilot needs --models");
    pilot = await pilotRun(spec, flags, file!);
  } else if (maxCost !== undefined) fail("--max-cost in a dry run goes with --pilot");
  const usage = await estimateUsage(plan.episodes, {
    models,
    tokensOutPerCall: flags.tokensOut,
    cache: values.cache,
    currency: file?.currency,
    pilot: pilot?.byModel,
    // The pilot's finished episodes went through the cache: the run replays them.
    replayed: pilot && values.cache ? new Set(pilot.episodes) : undefined,
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

/** `--pilot N`: plays N episodes for real and says what they cost and how far the estimate may be off. */
async function pilotRun(spec: unknown, flags: Flags, file: ModelsFile): Promise<PilotResult> {
  const { values, maxEpisodes, pilotCount } = flags;
  // Spends money: through the run's runtime and cache, within --max-cost.
  const pilot = await runPilot(streamPlan(spec, { shard: values.shard, maxEpisodes }).episodes, {
    runtime: await llmRuntime(flags, file),
    count: pilotCount!,
    dir: await Deno.makeTempDir({ prefix: "coordlab-pilot-" }),
    maxCost: flags.maxCost,
  });
  const said = [
    `Pilot: ${pilot.episodes.length} of ${pilotCount} episodes played for real, ` +
    `${pilot.calls} model calls (${pilot.cacheHits} from the cache), spent ` +
    `${formatCost(pilot.spent)} ${file.currency}; their logs are in ${pilot.dir}.` +
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
  return pilot;
}

/**
 * The stop signals of a run: the first SIGHUP, SIGINT or SIGTERM stops new
 * episodes (`signal`); with LLM episodes, those in flight are abandoned
 * after the grace (first no new request, then the calls already sent); a
 * second signal abandons them at once (`abandon`). The end of the launcher
 * that started the command (`_launcher_watch.ts`) counts as SIGHUP.
 * `dispose` removes the listeners and the timers.
 */
function stopSignals(runtime: LlmRuntime | undefined, graceS: number) {
  const graceMs = graceS * 1000;
  const signal = new AbortController();
  const abandon = new AbortController();
  let received: StopSignal | null = null;
  const timers: ReturnType<typeof setTimeout>[] = [];
  const abandonNow = (why: string) => {
    runtime?.halt(why, "signal");
    abandon.abort(why);
  };
  const stopFor = (name: StopSignal) => {
    if (received !== null) {
      console.error(`\nReceived ${name} again: abandoning the episodes in flight.`);
      abandonNow(`Received ${received}, then ${name}`);
      return;
    }
    received = name;
    console.error(
      `\nReceived ${name}: no new episode starts; ` +
        (runtime
          ? `the episodes in flight have ${graceS} s to finish (${name} again abandons them now).`
          : `finishing the episodes in flight (${name} again abandons them).`),
    );
    signal.abort(`Received ${name}`);
    if (runtime) {
      timers.push(setTimeout(() => {
        console.error(
          `Abandoning the episodes in flight: no further model request is sent; ` +
            `waiting up to ${graceS} s for the calls already sent.`,
        );
        runtime.halt(
          `Received ${name}; the episodes in flight were abandoned after ${graceS} s`,
          "signal",
        );
        timers.push(setTimeout(() => abandon.abort(`Received ${name}`), graceMs));
      }, graceMs));
    }
  };
  const listeners = (Object.keys(SIGNALS) as StopSignal[]).map((name) => {
    const listener = () => stopFor(name);
    try {
      Deno.addSignalListener(name, listener);
    } catch {
      return null; // a signal this system does not have (Windows has no SIGTERM, SIGHUP)
    }
    return [name, listener] as const;
  }).filter((l) => l !== null);
  // A launcher killed outright forwards nothing: its end stops the run as a closed terminal does.
  const unwatch = stopWhenLauncherEnds(() => stopFor("SIGHUP"));
  return {
    signal: signal.signal,
    abandon: abandon.signal,
    /** The first signal received, or `null`. */
    received: () => received,
    dispose: () => {
      unwatch();
      for (const [name, listener] of listeners) Deno.removeSignalListener(name, listener);
      for (const t of timers) clearTimeout(t);
    },
  };
}

/** Prints what a run did: a lock taken over, the counts, calls and spend, failures, how to resume. */
function printResult(r: GridResult, flags: Flags, resumeLine: (dir: string) => string): void {
  if (r.staleLock) {
    const s = r.staleLock;
    console.log(
      `Took over the lock of process ${s.pid} on ${s.host ?? "an unnamed host"} ` +
        `(${s.purpose}, since ${s.since}), ` +
        (s.host !== null && s.host !== hostName()
          ? "another host's, as --take-over-lock asked."
          : "which had ended without releasing it."),
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
  if (r.spend) { for (const line of spendLines(r.spend)) console.log(line); }
  // With progress on, its closing line has already said why the run stopped.
  if (r.stopped && flags.values["no-progress"]) console.log(`Stopped: ${r.stopped}`);
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
  if (r.interrupted || r.remaining > 0 || r.stoppedBy === "disk") {
    console.log(resumeLine(r.dir));
    if (r.spend?.limit) console.log(resumeBudgetLine(r.spend));
    if (r.remaining > 0 && r.usage.calls > 0 && flags.values.cache === undefined) {
      console.log(NO_CACHE_RESUME);
    }
  }
}

/** What a resume without a response cache pays again, said when a run of model calls stops early. */
const NO_CACHE_RESUME = "Without --cache, a model reply is kept only in the log of an episode " +
  "that finished: a resume plays the unfinished episodes from the start and pays again for any " +
  "calls they had made. Add --cache DIR to both commands to replay those replies instead.";

/** The exit code of a run: 74 for a folder, cache or ledger that cannot be written, 3 for a failing provider, 4 for the budget, 128 + a signal, 130 interrupted, 1 with failed or degraded episodes, else 0. */
function exitCode(r: GridResult, received: StopSignal | null): number {
  if (r.stoppedBy === "disk" || r.stoppedBy === "cache" || r.stoppedBy === "ledger") {
    return EXIT_WRITE;
  }
  if (r.stoppedBy === "provider") return 3;
  if (r.stoppedBy === "budget" && r.interrupted) return EXIT_BUDGET;
  if (received !== null && r.interrupted) return SIGNALS[received];
  return r.interrupted ? 130 : r.failed.length + r.degraded.length ? 1 : 0;
}

/** The exit code of an error the command explains (74 for the folder, 2 for bad input), or `null`. */
function reportError(
  err: unknown,
  dir: string | null,
  resumeLine: (dir: string) => string,
): number | null {
  if (
    err instanceof FolderWriteError ||
    (dir !== null && isOsError(err) && !(err instanceof Deno.errors.NotFound))
  ) {
    // The folder (or the disk under it) failed: say where and why, and how to go on.
    console.error(
      err instanceof FolderWriteError
        ? err.message
        : `The run in folder "${dir}" stopped: ${err.code}, ${err.message}`,
    );
    console.error(resumeLine(dir!));
    return EXIT_WRITE;
  }
  if (
    err instanceof RangeError || err instanceof TypeError || err instanceof SyntaxError ||
    err instanceof LlmPreflightError || err instanceof FolderLockedError ||
    err instanceof LockPathError || err instanceof Deno.errors.NotFound
  ) {
    console.error(err.message);
    return 2;
  }
  return null;
}

async function main(): Promise<number> {
  const parsed = parseFlags();
  if (parsed.help) {
    console.log(USAGE);
    return 0;
  }
  const flags = parsed;
  const { values } = flags;
  const resumeLine = (dir: string) => {
    const args = values.out ? Deno.args : [...Deno.args, "--out", dir];
    return `Resume with: ${DENO_COMMAND} task grid ${args.map(quote).join(" ")}`;
  };
  let dir: string | null = null;
  try {
    const spec = await readInput("Spec", values.spec, readGridSpec);
    const file = values.models
      ? await readInput("Models", values.models, loadModelsFile)
      : undefined;
    const models = file?.models;
    if (values["dry-run"]) return await dryRun(spec, flags, file);
    if (values.list) fail("--list goes with --dry-run");
    const needs = gridNeeds(spec, models ?? [], {
      out: values.out,
      shard: values.shard,
      cache: values.cache,
    });
    if (!checkPermissions(needs, new URL(import.meta.url), Deno.args)) return 2;
    dir = needs.write[0];
    const runtime = file ? await llmRuntime(flags, file) : undefined;
    const stops = stopSignals(runtime, flags.graceS);
    // Without --workers, a mock grid follows the allocation (Slurm's CPUs per task) and says so.
    const auto = flags.workers === undefined && !runtime ? defaultWorkers() : null;
    if (auto) console.log(`Workers: ${auto.workers} (${auto.from}; --workers K to choose)`);
    let result;
    try {
      result = await runGrid(spec, {
        out: values.out,
        shard: values.shard,
        maxEpisodes: flags.maxEpisodes,
        workers: flags.workers ?? auto?.workers,
        concurrency: flags.concurrency,
        progress: values["no-progress"] ? false : true,
        signal: stops.signal,
        abandon: stops.abandon,
        redoFailed: values["redo-failed"] ?? false,
        runtime,
        preflight: !values["no-preflight"],
        budget: flags.maxTokens !== undefined || flags.maxCost !== undefined
          ? { maxTokens: flags.maxTokens, maxCost: flags.maxCost }
          : undefined,
        takeOverLock: values["take-over-lock"] ?? false,
      });
    } finally {
      stops.dispose();
    }
    printResult(result, flags, resumeLine);
    return exitCode(result, stops.received());
  } catch (err) {
    const code = reportError(err, dir, resumeLine);
    if (code === null) throw err;
    return code;
  }
}

if (import.meta.main) Deno.exit(await main());

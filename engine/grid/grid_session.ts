/**
 * The session of a grid run: the run folder's mutable state while `runGrid`
 * holds its lock. {@linkcode RunSession.open} checks the folder against the
 * plan, chooses the episodes to play (`scheduler.ts`), attaches the spend
 * ledger, runs preflight, retires the logs to play again and writes the
 * manifest that says `"running"`; then the session counts the episodes as
 * they settle (progress, failures, usage), opens the in-process segment,
 * decides the stops through the scheduler and closes with the manifest and
 * the summary (`close`), or marks the manifest interrupted (`abort`).
 * Disposing it detaches the spend ledger.
 *
 * @module
 */
import {
  addTotals,
  type Budget,
  checkBudget,
  emptyTotals,
  spendExhausted,
  spendLeft,
  sumSpend,
  totalsSince,
  type UsageTotals,
} from "../agents/llm/accounting.ts";
import type { LlmRuntime } from "../agents/llm/runtime.ts";
import { SPEND_LEDGER_FILE, SpendLedger } from "../agents/llm/spend_ledger.ts";
import { isEpisodeAbandoned } from "../core/abandon.ts";
import type { Degradation } from "../core/events.ts";
import type { ProgressSink } from "../core/progress.ts";
import { join } from "node:path";
import type { GridEpisode } from "./cells.ts";
import { type EpisodeSummary, failedSummary } from "./execute.ts";
import { checkLlmEpisodes } from "./llm_agents.ts";
import {
  assertSameRun,
  type GridManifest,
  type GridSession,
  MANIFEST_FILE,
  MANIFEST_VERSION,
  readManifest,
  runtimeInfo,
  writeManifest,
} from "./manifest.ts";
import type { GridResult, GridSpend } from "./grid_result.ts";
import type { GridPlan } from "./plan.ts";
import { type GridProgress, type ProgressOption, progressSink } from "./progress.ts";
import type { LockHolder } from "./lock.ts";
import { retireLogs, scanRunFolder } from "./resume.ts";
import type { GridAgentFactory } from "./runners.ts";
import {
  allCallsFailed,
  closingMessage,
  endOfRun,
  episodesToPlay,
  NO_STOP,
  stopFor,
  stopForAbandoned,
  stopForDisk,
  type StopState,
} from "./scheduler.ts";
import { type LogText, SegmentWriter, sessionTag } from "./segments.ts";
import { episodesHash, type Shard } from "./shard.ts";
import { modelsOf } from "./spec.ts";
import { FolderWriteError, isOsError } from "./write_error.ts";

/** Options of {@linkcode runGrid}. */
export interface RunGridOptions {
  /** Run folder. Default `runs/<spec name>`, or `runs/<spec name>/shard-<i>-of-<n>` for a shard. */
  out?: string;
  /** Shard to run, as `{ index, count }` or `"i/n"`. Default: the whole grid. */
  shard?: Shard | string;
  /** Refuse a grid of more episodes than this (the whole grid). Default 1,000,000 (`MAX_EPISODES`). */
  maxEpisodes?: number;
  /**
   * Web Workers for episodes without an `agents` factory; 0 plays them
   * in-process. A spec whose agents hold a function (a `BeliefRule` object
   * of a TypeScript spec: a function cannot cross to a worker) plays
   * in-process too, and its summary says `mode: "in-process"`; name a rule
   * by id (with parameters) to play it in workers. Default: the
   * allocation's CPUs ({@linkcode defaultWorkers}: `SLURM_CPUS_PER_TASK`,
   * else the cores available to the process).
   */
  workers?: number;
  /** Episodes in flight at once when playing in-process. Default 8. */
  concurrency?: number;
  /**
   * The LLM runtime that the episodes naming models share: `runGrid` builds
   * their agents and checks them before any episode starts. Such episodes run
   * in-process. Default none.
   */
  runtime?: LlmRuntime;
  /** Check keys, base URLs and models over the network before any episode starts. Default `true`. */
  preflight?: boolean;
  /**
   * Limit of the whole run's billed spend (every session, read back from the
   * folder's spend ledger): a request that may not fit is not sent. Default:
   * no limit (spend is still recorded).
   */
  budget?: Budget;
  /**
   * Builds the agents of an episode (custom agents); return `undefined` for
   * the episode's LLM agents (with `runtime`) or rule-based agents. Episodes
   * then run in-process. Default none.
   */
  agents?: (episode: GridEpisode) => GridAgentFactory | undefined;
  /** Progress display. Default `true` (notebook, terminal bar, or log lines, whichever fits). */
  progress?: ProgressOption;
  /**
   * Stops starting episodes; those in flight finish. A string reason (e.g.
   * `"Received SIGTERM"`) is recorded as why (`stopped`, `stoppedBy:
   * "signal"`). Default none.
   */
  signal?: AbortSignal;
  /** Stops waiting for episodes in flight (workers are terminated). Default none. */
  abandon?: AbortSignal;
  /** Play again the episodes whose log ends with status `"error"` or `"degraded"`. Default `false`. */
  redoFailed?: boolean;
  /**
   * Module URLs every worker imports first: those that register a game of
   * your own (`registerGame`), so that the workers play it too (this process
   * plays the games registered in it). Default none.
   */
  gameModules?: readonly string[];
  /** Called after each episode. Default none. */
  onEpisode?: (summary: EpisodeSummary) => void;
  /**
   * Take over the folder's lock file when it names another host (whose
   * process this host cannot check; see `lockFolder`), instead of refusing.
   * Only once that process is known to have ended. Default `false`.
   */
  takeOverLock?: boolean;
  /**
   * Each writer starts a new segment file before a block would take its
   * current one past this many bytes (see `SegmentWriter`). Default
   * `SEGMENT_MAX_BYTES` (256 MiB).
   */
  segmentBytes?: number;
}

export type { GridResult, GridSpend };

/** {@linkcode RunGridOptions} with the worker and concurrency defaults resolved. */
export type SessionOptions = RunGridOptions & { workers: number; concurrency: number };

/**
 * A grid run's session while the folder is locked: its manifest, progress,
 * in-process segment, spend ledger and summary (see the module's doc).
 * Plain `runGrid` machinery: open it, `begin`, play the episodes with
 * `mustStop`/`play`/`record`, then `close` (or `abort` on an error).
 *
 * @example
 * ```ts
 * import { planGrid } from "./plan.ts";
 * import { RunSession } from "./grid_session.ts";
 * import { executeEpisode } from "./execute.ts";
 * const dir = await Deno.makeTempDir();
 * const plan = planGrid({ name: "s", episodes: 2, blocks: [{ game: "staghunt", N: [3], M: [2], T: [2], F: [1] }] });
 * using session = await RunSession.open(plan, dir, null, { workers: 0, concurrency: 1, progress: false }, performance.now());
 * session.begin();
 * for (const ep of session.todo) {
 *   if (session.mustStop()) break;
 *   session.record(await session.play(ep, (e) => executeEpisode(e, { log: session.log })));
 * }
 * session.closeSegment();
 * const result = await session.close("in-process");
 * if (result.played !== 2 || result.remaining !== 0 || result.stopped !== null) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class RunSession implements Disposable {
  /** The plan of the run. */
  readonly plan: GridPlan;
  /** The run folder. */
  readonly dir: string;
  /** The episodes this session plays, in the plan's order. */
  readonly todo: GridEpisode[];
  /** The tag of this session's segment files (see `sessionTag`). */
  readonly tag: string;
  readonly #options: SessionOptions;
  readonly #t0: number;
  readonly #staleLock: LockHolder | null;
  readonly #removed: { temporary: number; partial: number };
  readonly #session: GridSession;
  readonly #manifest: GridManifest;
  readonly #spending: Spending | null;
  #sink: ProgressSink<GridProgress> | null = null;
  #ledgerStart: UsageTotals | undefined;
  #stop: StopState = NO_STOP;
  #done = 0;
  #running = 0;
  #logged = 0;
  /** Episodes stopped mid-way because the run is stopping (not logged). */
  #abandoned = 0;
  #failed: { id: string; error: string }[] = [];
  #degraded: { id: string; counts: Degradation }[] = [];
  #usage = emptyTotals();
  /** Set when every model call of a finished episode failed. */
  #allCallsFailed: string | null = null;
  /** The in-process segment, opened at the first log; closed before the lock is released. */
  #segment: SegmentWriter | null = null;
  #segmentClosed = false;
  #unwatch: (() => void) | null = null;

  private constructor(fields: {
    plan: GridPlan;
    dir: string;
    todo: GridEpisode[];
    options: SessionOptions;
    t0: number;
    staleLock: LockHolder | null;
    removed: { temporary: number; partial: number };
    session: GridSession;
    manifest: GridManifest;
    spending: Spending | null;
  }) {
    this.plan = fields.plan;
    this.dir = fields.dir;
    this.todo = fields.todo;
    this.#options = fields.options;
    this.#t0 = fields.t0;
    this.#staleLock = fields.staleLock;
    this.#removed = fields.removed;
    this.#session = fields.session;
    this.#manifest = fields.manifest;
    this.#spending = fields.spending;
    this.tag = sessionTag();
  }

  /**
   * Opens the session of a locked run folder: refuses a folder of another
   * run, scans it, chooses the episodes to play, checks the budget, attaches
   * the spend ledger (with LLM episodes and a runtime), runs preflight
   * (none when the budget is already spent), retires the logs to play again
   * and writes the manifest, which then says `"running"`.
   *
   * @throws {RangeError} For a folder holding another run or logs without a manifest, a bad budget, or a cost budget with a model that has no price.
   * @throws {LlmPreflightError} When a model cannot be used.
   * @throws {FolderWriteError} When the manifest cannot be written.
   */
  static async open(
    plan: GridPlan,
    dir: string,
    staleLock: LockHolder | null,
    options: SessionOptions,
    t0: number,
  ): Promise<RunSession> {
    const runtime = options.runtime;
    const existing = await readManifest(dir);
    const episodesHashOf = episodesHash(plan.episodes.map((e) => e.id));
    if (existing) {
      assertSameRun(existing, { ...plan, episodesHash: episodesHashOf }, dir);
    } else if (await holdsLogs(dir)) {
      throw new RangeError(
        `Run folder "${dir}" holds episode logs but no manifest.json: ` +
          `choose an empty or new output folder`,
      );
    }
    const ids = new Set(plan.episodes.map((e) => e.id));
    const scan = await scanRunFolder(dir, ids, plan.spec.name);
    const todo = episodesToPlay(plan.episodes, scan.finished, options.redoFailed);
    if (options.budget) checkBudget(options.budget);
    if (runtime) {
      if (options.budget?.maxCost !== undefined) assertPriced(todo, runtime);
    }
    const spending = runtime && plan.llm ? attachSpend(dir, runtime, options.budget) : null;
    // Until the session owns it, the ledger is detached on the way out (as `using` would).
    let owned = false;
    using _detach = { [Symbol.dispose]: () => owned || spending?.[Symbol.dispose]() };
    if (runtime) {
      // A run whose budget is spent sends nothing, not even preflight's requests.
      const spentOut = spending !== null && options.budget !== undefined &&
        spendExhausted(spending.ledger.reading.spend.total, options.budget) !== null;
      await checkLlmEpisodes(todo, runtime, {
        preflight: spentOut ? false : options.preflight,
      }).catch((err) => {
        // Preflight's request was refused (the budget, the ledger): the stop check says why.
        if (!isEpisodeAbandoned(err) || runtime.status().halt === null) throw err;
      });
    }
    await retireLogs(scan, todo.map((e) => e.id));
    const info = await runtimeInfo();
    const session: GridSession = {
      ...info,
      started: new Date().toISOString(),
      ended: null,
      skipped: plan.episodes.length - todo.length,
      played: 0,
      failed: 0,
      degraded: 0,
      interrupted: false,
      stopped: null,
      ...(spending ? { limit: options.budget ?? null, spent: spending.session().total } : {}),
    };
    const manifest: GridManifest = existing
      ? {
        ...existing,
        episodes_hash: existing.episodes_hash ?? episodesHashOf,
        status: "running",
        sessions: [...existing.sessions, session],
      }
      : {
        manifest: MANIFEST_VERSION,
        run: plan.spec.name,
        spec_hash: plan.hash,
        spec: plan.spec,
        shard: plan.shard,
        episodes: plan.episodes.length,
        episodes_hash: episodesHashOf,
        total: plan.total,
        ...info,
        started: session.started,
        ended: null,
        status: "running",
        sessions: [session],
      };
    if (spending) manifest.spend = spending.manifest(options.budget);
    try {
      await writeManifest(dir, manifest);
    } catch (err) {
      throw isOsError(err)
        ? new FolderWriteError(dir, err, { path: join(dir, MANIFEST_FILE), what: "the manifest" })
        : err;
    }
    const removed = {
      temporary: scan.removedTemporary.length,
      partial: scan.removedPartial.length,
    };
    const opened = new RunSession({
      plan,
      dir,
      todo,
      options,
      t0,
      staleLock,
      removed,
      session,
      manifest,
      spending,
    });
    owned = true;
    return opened;
  }

  /**
   * Starts counting: opens the progress display and marks where this
   * session's usage starts in the runtime's ledger (preflight's calls left
   * out).
   *
   * @throws {RangeError} For progress `"notebook"` outside the Jupyter kernel.
   */
  begin(): void {
    this.#sink = progressSink(this.#options.progress ?? true);
    this.#ledgerStart = this.#options.runtime?.ledger.run();
  }

  /** Model calls of this session: from the runtime's ledger (calls in flight included), else the logs. */
  usage(): UsageTotals {
    const runtime = this.#options.runtime;
    return runtime ? totalsSince(runtime.ledger.run(), this.#ledgerStart!) : { ...this.#usage };
  }

  /** The progress of the run now. */
  progress(): GridProgress {
    const runtime = this.#options.runtime;
    return {
      run: this.plan.spec.name,
      total: this.plan.episodes.length,
      skipped: this.#session.skipped,
      done: this.#done,
      failed: this.#failed.length,
      degraded: this.#degraded.length,
      running: this.#running,
      elapsedMs: performance.now() - this.#t0,
      usage: this.plan.llm ? this.usage() : null,
      runtime: runtime && this.plan.llm ? runtime.status() : null,
      stopped: this.#stop.stopped,
    };
  }

  /**
   * Shows the progress every second, and on every change of the runtime's
   * status with LLM episodes, until {@linkcode RunSession.unwatch}.
   */
  watch(): void {
    const sink = this.#sink;
    if (!sink) return;
    const tick = setInterval(() => sink.update(this.progress()), 1000);
    const runtime = this.#options.runtime;
    const unwatch = runtime && this.plan.llm
      ? runtime.watch(() => sink.update(this.progress()))
      : undefined;
    this.#unwatch = () => {
      clearInterval(tick);
      unwatch?.();
    };
  }

  /** Stops what {@linkcode RunSession.watch} started. */
  unwatch(): void {
    this.#unwatch?.();
    this.#unwatch = null;
  }

  /**
   * Whether new episodes must not start: the runtime halted, the budget is
   * reached or a provider is failing (see `stopFor`). `atEnd` (once no
   * episode is left to start) leaves the budget out: spending it with the
   * last episode stops nothing.
   */
  mustStop(atEnd = false): boolean {
    if (this.#stop.stopped === null) {
      const runtime = this.#options.runtime;
      const budget = this.#options.budget ?? null;
      const status = runtime?.status();
      const stop = stopFor({
        halt: status?.halt ?? null,
        budget,
        spent: runtime?.budgetStatus()?.spent.total ?? null,
        usage: budget ? this.usage() : null,
        fatal: status?.fatal ?? null,
        allCallsFailed: this.#allCallsFailed,
        atEnd,
      });
      if (stop !== null) {
        this.#stop = stop;
        this.#sink?.update(this.progress());
      }
    }
    return this.#stop.stopped !== null;
  }

  /** Plays one episode, counted as running meanwhile; a throw becomes a failed summary. */
  async play(
    ep: GridEpisode,
    execute: (ep: GridEpisode) => Promise<EpisodeSummary>,
  ): Promise<EpisodeSummary> {
    this.#running++;
    let s: EpisodeSummary;
    try {
      s = await execute(ep);
    } catch (err) {
      s = failedSummary(ep.id, err);
    }
    this.#running--;
    return s;
  }

  /**
   * Counts a settled episode: a log that could not be written stops the run
   * (`"disk"`), an abandoned one stops it with its reason; a finished one
   * adds to the played, failed, degraded and usage counts (and a provider
   * whose every call failed is noted for the next stop check).
   */
  record(s: EpisodeSummary): void {
    const runtime = this.#options.runtime;
    const redact = (text: string) => runtime?.redact(text) ?? text;
    if (s.writeFailure) {
      // The folder cannot be written: not logged (played again on resume), and the run stops.
      const f = s.writeFailure;
      if (this.#stop.stoppedBy !== "disk") {
        const reason =
          new FolderWriteError(this.dir, Object.assign(new Error(f.message), { code: f.code }), {
            path: f.path,
            what: "an episode log",
          }).message;
        this.#stop = stopForDisk(this.#stop, reason);
      }
      this.#sink?.update(this.progress());
      return;
    }
    if (s.status === "abandoned") {
      // The run is stopping (EpisodeAbandoned): not logged, played again on resume.
      this.#abandoned++;
      if (this.#stop.stopped === null) {
        const by = runtime?.status().halt?.by ?? "provider";
        this.#stop = stopForAbandoned(this.#stop, redact(s.error ?? "the run stopped"), by);
      }
      this.#sink?.update(this.progress());
      return;
    }
    this.#done++;
    if (s.logged) this.#logged++;
    if (s.status === "error") {
      this.#failed.push({ id: s.id, error: redact(s.error ?? "failed") });
    }
    if (s.status === "degraded") this.#degraded.push({ id: s.id, counts: s.degraded! });
    if (this.#allCallsFailed === null) {
      const failing = allCallsFailed(s);
      if (failing !== null) this.#allCallsFailed = redact(failing);
    }
    addTotals(this.#usage, s.usage);
    this.#options.onEpisode?.(s);
    this.#sink?.update(this.progress());
  }

  /** The in-process episodes' log: one segment, opened at the first block. */
  readonly log = {
    append: (events: Parameters<SegmentWriter["append"]>[0]) => this.#openSegment().append(events),
    appendText: (text: LogText) => this.#openSegment().appendText(text),
  };

  /** The in-process segment's path, or the folder before it is opened (where a write failed). */
  get segmentPath(): string {
    return this.#segment?.path ?? this.dir;
  }

  #openSegment(): SegmentWriter {
    if (this.#segmentClosed) {
      throw new Error("The run has returned: an abandoned episode is not logged");
    }
    return this.#segment ??= SegmentWriter.create(this.dir, `${this.tag}-main`, {
      maxBytes: this.#options.segmentBytes,
    });
  }

  /** Closes the in-process segment: a late (abandoned) episode is then not logged. */
  closeSegment(): void {
    this.#segmentClosed = true;
    this.#segment?.close();
  }

  /**
   * Ends the session: the last stop check, the closing manifest (its status
   * from the scheduler's `endOfRun`; one that cannot be written is a
   * `"disk"` stop and the manifest still says `"running"`), the progress
   * display's closing line, and the result.
   */
  async close(mode: GridResult["mode"]): Promise<GridResult> {
    const { dir, plan } = this;
    const options = this.#options;
    // A provider found failing once every episode had started is a stop too.
    this.mustStop(true);
    const end = endOfRun({
      todo: this.todo.length,
      done: this.#done,
      abandoned: this.#abandoned,
      logged: this.#logged,
      stop: this.#stop,
      signal: options.signal,
      abandon: options.abandon,
    });
    this.#stop = end.stop;
    const { interrupted, remaining } = end;
    const session = this.#session;
    const manifest = this.#manifest;
    const ended = new Date().toISOString();
    session.ended = ended;
    session.played = this.#logged;
    session.failed = this.#failed.length;
    session.degraded = this.#degraded.length;
    session.interrupted = interrupted;
    session.stopped = this.#stop.stopped;
    if (this.#spending) {
      session.spent = this.#spending.session().total;
      manifest.spend = this.#spending.manifest(options.budget);
    }
    manifest.status = end.status;
    if (manifest.status === "complete") manifest.ended = ended;
    try {
      await writeManifest(dir, manifest);
    } catch (err) {
      if (!isOsError(err)) throw err;
      // The folder cannot take the closing manifest: it still says "running", which resumes alike.
      manifest.status = "running";
      const why = new FolderWriteError(dir, err, {
        path: join(dir, MANIFEST_FILE),
        what: "the manifest",
      }).message;
      const stopped = this.#stop.stopped === null ? why : `${this.#stop.stopped}; then ${why}`;
      this.#stop = { stopped, stoppedBy: "disk" };
    }
    const message = closingMessage({
      dir,
      total: plan.episodes.length,
      remaining,
      interrupted,
      stop: this.#stop,
      failed: this.#failed.length,
      degraded: this.#degraded.length,
    });
    this.#sink?.finish(this.progress(), message);
    await this.#sink?.flush?.();
    return {
      dir,
      run: plan.spec.name,
      hash: plan.hash,
      shard: plan.shard,
      total: plan.episodes.length,
      skipped: session.skipped,
      played: this.#done,
      failed: this.#failed,
      degraded: this.#degraded,
      remaining,
      interrupted,
      stopped: this.#stop.stopped,
      stoppedBy: this.#stop.stoppedBy,
      removedTemporary: this.#removed.temporary,
      removedPartial: this.#removed.partial,
      staleLock: this.#staleLock,
      mode,
      elapsedMs: performance.now() - this.#t0,
      usage: this.usage(),
      spend: this.#spending?.result(options.budget) ?? null,
    };
  }

  /** After an error: the manifest says the session ended early, where it can still be written. */
  async abort(): Promise<void> {
    const manifest = this.#manifest;
    if (manifest.status === "running") {
      this.#session.ended = new Date().toISOString();
      this.#session.interrupted = true;
      manifest.status = "interrupted";
      await writeManifest(this.dir, manifest).catch(() => {});
    }
  }

  /** Detaches the spend ledger from the runtime and closes it. */
  [Symbol.dispose](): void {
    this.#spending?.[Symbol.dispose]();
  }
}

async function holdsLogs(dir: string): Promise<boolean> {
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && e.name.endsWith(".ndjson")) return true;
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return false;
}

/**
 * Opens the run folder's spend ledger and attaches it, with the budget, to
 * the runtime; disposing detaches it and closes the ledger.
 */
function attachSpend(dir: string, runtime: LlmRuntime, budget: Budget | undefined) {
  const ledger = SpendLedger.open(dir);
  const fresh = ledger.reading.lines === 0 && ledger.reading.torn === null;
  const detach = runtime.useBudget({
    limit: budget,
    spent: ledger.reading.spend,
    record: (line) => ledger.append(line),
  });
  // What the run spent, with the requests still in flight counted at their
  // reservation, as the next session's reading of the ledger counts them if
  // they never settle: a run that returns while some are out (a second
  // interrupt abandons them) never says less was spent, or more is left, than
  // its resume will.
  const status = () => {
    const s = runtime.budgetStatus()!;
    return {
      ...s,
      spent: sumSpend(s.spent, s.inFlight),
      session: sumSpend(s.session, s.inFlight),
    };
  };
  return {
    ledger,
    session: () => status().session,
    manifest: (limit: Budget | undefined): NonNullable<GridManifest["spend"]> => {
      const spent = status().spent;
      return {
        ledger: SPEND_LEDGER_FILE,
        limit: limit ?? null,
        spent: spent.total,
        remaining: spendLeft(spent.total, limit ?? {}),
        by_model: spent.byModel,
        currency: runtime.currency,
      };
    },
    result: (limit: Budget | undefined): GridSpend => {
      const s = status();
      return {
        ledger: ledger.path,
        limit: limit ?? null,
        spent: s.spent,
        session: s.session,
        remaining: spendLeft(s.spent.total, limit ?? {}),
        unsettled: ledger.reading.unsettled,
        inFlight: s.inFlight.total.requests,
        cut: ledger.reading.torn,
      };
    },
    [Symbol.dispose]: () => {
      const s = status();
      // A run refused before it started (preflight failed) whose requests billed
      // nothing leaves no ledger it made, so no folder; one that billed keeps it.
      const nothing = fresh && s.reserved.requests === 0 && s.session.total.tokens === 0 &&
        s.session.total.unknown === 0 && s.session.total.cost === 0;
      detach();
      ledger.close();
      if (nothing && !existsSync(`${dir}/${MANIFEST_FILE}`)) {
        try {
          Deno.removeSync(ledger.path);
        } catch (err) {
          if (!(err instanceof Deno.errors.NotFound)) throw err;
        }
      }
    },
  };
}

/** The spend ledger of a run, attached to its runtime (see {@linkcode attachSpend}). */
type Spending = ReturnType<typeof attachSpend>;

function existsSync(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A cost budget can only be checked when every model has a price. */
function assertPriced(episodes: readonly GridEpisode[], runtime: LlmRuntime): void {
  const models = new Set(episodes.flatMap((e) => modelsOf(e.agents)));
  for (const id of models) {
    if (runtime.model(id).price === null) {
      throw new RangeError(
        `A cost budget needs a price for every model, and model "${id}" has none: ` +
          `add "price" to its config, or use a token budget`,
      );
    }
  }
}

/**
 * The grid command line: run, resume, shard or dry-run an experiment spec.
 *
 * ```
 * deno task grid --spec SPEC [--out DIR] [--shard I/N] [--workers K] [--concurrency K]
 *                [--no-progress] [--redo-failed]
 * deno task grid --spec SPEC --dry-run [--shard I/N] [--models MODELS.json]
 *                [--tokens-in N] [--tokens-out N]
 * ```
 *
 * `SPEC` is a JSON file or a TypeScript module whose default export is the
 * spec. `--out` defaults to `runs/<name>` (`runs/<name>/shard-<i>-of-<n>` with
 * `--shard`). Running the same command again resumes. Ctrl-C stops starting
 * episodes and lets those in flight finish; a second Ctrl-C abandons them.
 * Either way the command prints how to resume. `--dry-run` lists the cells and
 * episodes (with seeds) and estimates calls, and for LLM agents tokens and,
 * with `--models` (model configs with prices), cost.
 *
 * Exit codes: 0 done, 1 some episodes failed, 2 bad arguments or spec, 130
 * interrupted.
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
import { loadModelConfigs } from "../agents/llm/model_config.ts";
import { estimateUsage } from "../grid/estimate.ts";
import { formatPlan, planGrid } from "../grid/plan.ts";
import { runGrid } from "../grid/run_grid.ts";
import { readGridSpec } from "../grid/spec_file.ts";

const USAGE = `Usage: deno task grid --spec SPEC [--out DIR] [--shard I/N] [--workers K]
         [--concurrency K] [--no-progress] [--redo-failed]
       deno task grid --spec SPEC --dry-run [--shard I/N] [--models MODELS.json]
         [--tokens-in N] [--tokens-out N]`;

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

const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

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
        "no-progress": { type: "boolean" },
        "redo-failed": { type: "boolean" },
        models: { type: "string" },
        "tokens-in": { type: "string" },
        "tokens-out": { type: "string" },
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
  const tokensIn = int("tokens-in", values["tokens-in"], 0) ?? 2000;
  const tokensOut = int("tokens-out", values["tokens-out"], 0) ?? 500;
  try {
    const spec = await readGridSpec(values.spec);
    if (values["dry-run"]) {
      const plan = planGrid(spec, { shard: values.shard });
      const prices = values.models
        ? Object.fromEntries(
          (await loadModelConfigs(values.models)).filter((m) => m.price).map((
            m,
          ) => [m.id, m.price!]),
        )
        : undefined;
      const usage = await estimateUsage(plan.cells, {
        tokensInPerCall: tokensIn,
        tokensOutPerCall: tokensOut,
        prices,
      });
      console.log(formatPlan(plan, { usage, assumed: { tokensIn, tokensOut } }));
      return 0;
    }
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
        workers,
        concurrency,
        progress: values["no-progress"] ? false : true,
        signal: signal.signal,
        abandon: abandon.signal,
        redoFailed: values["redo-failed"] ?? false,
      });
    } finally {
      Deno.removeSignalListener("SIGINT", onInterrupt);
    }
    const r = result;
    console.log(
      `${r.run}: ${r.total - r.remaining}/${r.total} episodes finished in ${r.dir} ` +
        `(${r.skipped} already there, ${r.played} played now, ${r.failed.length} failed` +
        (r.removedTemporary + r.removedPartial
          ? `, ${r.removedTemporary + r.removedPartial} half-written files removed`
          : "") +
        `) in ${(r.elapsedMs / 1000).toFixed(1)} s`,
    );
    for (const f of r.failed.slice(0, 10)) console.log(`  failed: ${f.id}: ${f.error}`);
    if (r.failed.length > 10) console.log(`  ... and ${r.failed.length - 10} more`);
    if (r.interrupted || r.remaining > 0) {
      const args = values.out ? Deno.args : [...Deno.args, "--out", r.dir];
      console.log(`Resume with: deno task grid ${args.map(quote).join(" ")}`);
    }
    return r.interrupted ? 130 : r.failed.length ? 1 : 0;
  } catch (err) {
    if (err instanceof RangeError || err instanceof TypeError || err instanceof SyntaxError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
}

if (import.meta.main) Deno.exit(await main());

/**
 * The cluster command line: writes the Slurm job array (or Kubernetes Indexed
 * Job) that runs a grid in shards, and with `--submit` submits it.
 *
 * ```
 * deno task slurm --spec SPEC --shards N --out DIR [--models MODELS.json] [--cache DIR]
 *                 [--cpus K] [--time T] [--partition P] [--max-cost X] [--max-tokens N]
 *                 [--deno PATH] [--submit]
 * deno task slurm --spec SPEC --shards N --out DIR --k8s --image IMAGE [--models MODELS.json]
 *                 [--cpus K] [--parallelism P] [--claim PVC] [--secret NAME]
 * ```
 *
 * `DIR/slurm.sh` is a job array of tasks `0..N-1` (written out, never
 * `$SLURM_ARRAY_TASK_COUNT`, which is 1 when a single index is resubmitted),
 * task `i` running shard `i/N` into `DIR/shard-<i>` with
 * `--workers $SLURM_CPUS_PER_TASK`. The grid runs with exactly the
 * permissions it needs (writing `DIR` and the cache, the models' hosts and
 * key variables, the host name), by the Deno that wrote the script (or
 * `--deno PATH`, where the compute nodes have it elsewhere), from the
 * toolkit's folder, through `exec`: it *is* the batch step, so the SIGTERM
 * Slurm sends on `scancel`, on `scancel --signal=TERM --full`, on
 * preemption, on `scontrol requeue` and, through
 * `#SBATCH --signal=B:TERM@120`, two minutes before the time limit, stops
 * it cleanly (no new episode, the manifest `interrupted`, the lock
 * released). `#SBATCH --requeue` lets Slurm requeue a preempted task, which
 * resumes its folder. Slurm's own output goes to
 * `DIR/logs/<job>_<task>.out` (appended across attempts); the grid's to
 * `DIR/logs/<job>_<task>.attempt-<SLURM_RESTART_COUNT>.log`, one per attempt.
 *
 * `--cpus` is checked against the nodes with `sinfo` when it can be run: more
 * CPUs than any node has (the job would stay pending forever) is refused;
 * without `sinfo` the command says it could not check. `--submit` runs
 * `sbatch` and prints the job id and the command that checks the shards,
 * compacts and loads the result (`compact`: a missing shard or episode is an
 * error naming it).
 *
 * `--k8s` writes `DIR/k8s.yaml` instead: a Kubernetes Indexed Job of N
 * completions (`--parallelism`, default N, at a time), each pod running
 * shard `JOB_COMPLETION_INDEX/N` from `--image` (an image holding the toolkit
 * at `/coordlab` with its `node_modules`), `DIR` on the persistent volume
 * claim `--claim` (default `coordlab-runs`), the models' key variables from
 * the secret `--secret` (default `coordlab-keys`), and
 * `terminationGracePeriodSeconds: 60` (the grid stops within about 20 s of
 * SIGTERM).
 *
 * Exit codes: 0 written (and submitted); 1 `sbatch` failed; 2 bad
 * arguments, a missing or bad spec or models file, `--cpus` more than any
 * node has, or permissions (the exact narrow command is printed).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { isAbsolute, join, relative, resolve } from "node:path";
import { loadModelConfigs, type ModelConfig } from "../agents/llm/model_config.ts";
import { countGridEpisodes, expandCells } from "../grid/cells.ts";
import { checkEpisodeCount } from "../grid/plan.ts";
import { checkShard } from "../grid/shard.ts";
import { modelsOf, parseGridSpec } from "../grid/spec.ts";
import { readGridSpec } from "../grid/spec_file.ts";
import { addonFolder, checkPermissions, narrowFlags, type Needs, quote } from "./_permissions.ts";
import { numberFlags } from "./_flags.ts";

const USAGE =
  `Usage: deno task slurm --spec SPEC --shards N --out DIR [--models MODELS.json] [--cache DIR]
         [--cpus K] [--time T] [--partition P] [--max-cost X] [--max-tokens N] [--deno PATH]
         [--submit]
       deno task slurm --spec SPEC --shards N --out DIR --k8s --image IMAGE [--models MODELS.json]
         [--cpus K] [--parallelism P] [--claim PVC] [--secret NAME]`;

/** Seconds before the time limit at which Slurm sends SIGTERM (`--signal=B:TERM@<s>`). */
const SIGNAL_LEAD_S = 120;
/** The toolkit's folder (the grid runs from it, so deno.json and node_modules apply). */
const ROOT = resolve(new URL("../../", import.meta.url).pathname);
/** What nodejs-polars' loader reads to pick its native binary (see `compact.ts`). */
const POLARS_SYS = ["cpus", "networkInterfaces", "hostname"];

/** What a cluster job runs: one grid in `shards` shards. */
export interface ClusterJob {
  /** The spec file (absolute, or relative to the toolkit's folder). */
  spec: string;
  /** The grid's name (the spec's `name`), for the job's name. */
  name: string;
  /** Number of shards. */
  shards: number;
  /** Episodes of the whole grid (for the script's comment). */
  total: number;
  /** The folder holding the shard folders and logs. */
  out: string;
  /** The models file, or `null`. */
  models: string | null;
  /** The response cache, or `null`. */
  cache: string | null;
  /** CPUs per task (the grid's workers). */
  cpus: number;
  /** Extra `deno task grid` arguments, e.g. `["--max-cost", "12.5"]`. */
  gridArgs: string[];
  /** The `deno run` permission flags of the grid (see `narrowFlags`). */
  permissions: string[];
  /** The Deno executable. */
  deno: string;
  /** The toolkit's folder. */
  root: string;
}

/** Slurm options of {@linkcode slurmScript}. */
export interface SlurmOptions {
  /** `--time` of the tasks (e.g. `"2:00:00"`), or `null` for the partition's default. */
  time: string | null;
  /** `--partition`, or `null` for the default partition. */
  partition: string | null;
}

const grid = "engine/cli/grid.ts";

/**
 * The Slurm batch script of a job array running one shard per task.
 *
 * @example
 * ```ts
 * import { slurmScript } from "./slurm.ts";
 * const text = slurmScript({
 *   spec: "/t/spec.json", name: "g", shards: 4, total: 40, out: "/t/runs/g", models: null,
 *   cache: null, cpus: 2, gridArgs: [], permissions: ["--no-prompt"], deno: "/bin/deno",
 *   root: "/t",
 * }, { time: null, partition: null });
 * if (!text.includes("#SBATCH --array=0-3\n") || !text.includes('--shard "$i/4"')) {
 *   throw new Error(text);
 * }
 * ```
 */
export function slurmScript(job: ClusterJob, options: SlurmOptions): string {
  const q = quote;
  const logs = join(job.out, "logs");
  const args = [
    "--spec",
    job.spec,
    ...(job.models ? ["--models", job.models] : []),
    ...(job.cache ? ["--cache", job.cache] : []),
    ...job.gridArgs,
  ];
  return [
    "#!/bin/bash",
    `# Grid "${job.name}" (${job.total} episodes) in ${job.shards} shards, one per task:`,
    `# task i plays shard i/${job.shards} into ${job.out}/shard-<i>. Written by deno task slurm.`,
    `# Submit: sbatch ${q(join(job.out, "slurm.sh"))}`,
    `#SBATCH --job-name=${q(`coordlab-${job.name}`)}`,
    `#SBATCH --array=0-${job.shards - 1}`,
    `#SBATCH --cpus-per-task=${job.cpus}`,
    ...(options.time ? [`#SBATCH --time=${options.time}`] : []),
    ...(options.partition ? [`#SBATCH --partition=${options.partition}`] : []),
    "# Requeued (preemption, scontrol requeue), a task resumes its shard's folder.",
    "#SBATCH --requeue",
    `# SIGTERM to the grid ${SIGNAL_LEAD_S} s before the time limit: it stops cleanly and resumes.`,
    `#SBATCH --signal=B:TERM@${SIGNAL_LEAD_S}`,
    `#SBATCH --output=${logs}/%A_%a.out`,
    "#SBATCH --open-mode=append",
    "set -euo pipefail",
    ': "${SLURM_ARRAY_TASK_ID:?submit this script with sbatch: it is a job array}"',
    `# The shard count is written out: $SLURM_ARRAY_TASK_COUNT is 1 when one task is resubmitted.`,
    "i=$SLURM_ARRAY_TASK_ID",
    `out=${q(job.out)}/shard-$i`,
    `log=${q(logs)}/"$SLURM_ARRAY_JOB_ID"_"$i".attempt-"\${SLURM_RESTART_COUNT:-0}".log`,
    `echo "shard $i/${job.shards} of ${job.name} into $out, attempt \${SLURM_RESTART_COUNT:-0}: $log"`,
    `cd ${q(job.root)}`,
    "# exec: the grid is the batch step, so Slurm's SIGTERM reaches it.",
    `exec ${q(job.deno)} run ${job.permissions.map(q).join(" ")} ${grid} \\`,
    `  ${args.map(q).join(" ")} \\`,
    `  --shard "$i/${job.shards}" --out "$out" --workers "$SLURM_CPUS_PER_TASK" --no-progress \\`,
    `  >>"$log" 2>&1`,
    "",
  ].join("\n");
}

/** Kubernetes options of {@linkcode k8sJob}. */
export interface K8sOptions {
  /** The container image (holding the toolkit at `workdir`). */
  image: string;
  /** The toolkit's folder in the image. */
  workdir: string;
  /** Pods running at once. */
  parallelism: number;
  /** The persistent volume claim mounted at the job's `out`. */
  claim: string;
  /** The secret holding the models' key variables, or `null` when they need none. */
  secret: string | null;
}

/**
 * The Kubernetes Indexed Job running one shard per completion index.
 *
 * @example
 * ```ts
 * import { k8sJob } from "./slurm.ts";
 * const text = k8sJob({
 *   spec: "data/specs/mock_frail.json", name: "g", shards: 4, total: 40, out: "/runs/g",
 *   models: null, cache: null, cpus: 2, gridArgs: [], permissions: ["--no-prompt"],
 *   deno: "deno", root: "/coordlab",
 * }, { image: "coordlab:1", workdir: "/coordlab", parallelism: 2, claim: "runs", secret: null });
 * if (!text.includes("completions: 4\n") || !text.includes('"$(SHARD)/4"')) throw new Error(text);
 * ```
 */
export function k8sJob(job: ClusterJob, options: K8sOptions): string {
  const j = JSON.stringify;
  const name = `coordlab-${job.name}`.toLowerCase().replace(/[^a-z0-9-]+/g, "-").slice(0, 52);
  const command = [
    job.deno,
    "run",
    ...job.permissions,
    grid,
    "--spec",
    job.spec,
    ...(job.models ? ["--models", job.models] : []),
    ...(job.cache ? ["--cache", job.cache] : []),
    ...job.gridArgs,
    "--shard",
    `$(SHARD)/${job.shards}`,
    "--out",
    `${job.out}/shard-$(SHARD)`,
    "--workers",
    String(job.cpus),
    "--no-progress",
  ];
  return [
    `# Grid "${job.name}" (${job.total} episodes) in ${job.shards} shards: pod i plays shard`,
    `# i/${job.shards} into ${job.out}/shard-<i>. Written by deno task slurm --k8s.`,
    "# Apply: kubectl apply -f k8s.yaml",
    "apiVersion: batch/v1",
    "kind: Job",
    "metadata:",
    `  name: ${name}`,
    "spec:",
    "  completionMode: Indexed",
    `  completions: ${job.shards}`,
    `  parallelism: ${options.parallelism}`,
    "  backoffLimit: " + 3 * job.shards,
    "  template:",
    "    spec:",
    "      restartPolicy: OnFailure",
    "      # The grid stops within about 20 s of SIGTERM (eviction, deletion).",
    "      terminationGracePeriodSeconds: 60",
    "      containers:",
    "        - name: grid",
    `          image: ${j(options.image)}`,
    `          workingDir: ${j(options.workdir)}`,
    `          command: [${command.map((a) => j(a)).join(", ")}]`,
    "          env:",
    "            - name: SHARD",
    "              valueFrom:",
    "                fieldRef:",
    "                  fieldPath: metadata.annotations['batch.kubernetes.io/job-completion-index']",
    ...(options.secret
      ? ["          envFrom:", `            - secretRef: { name: ${j(options.secret)} }`]
      : []),
    "          resources:",
    `            requests: { cpu: ${j(String(job.cpus))} }`,
    `            limits: { cpu: ${j(String(job.cpus))} }`,
    "          volumeMounts:",
    `            - { name: runs, mountPath: ${j(job.out)} }`,
    "      volumes:",
    `        - { name: runs, persistentVolumeClaim: { claimName: ${j(options.claim)} } }`,
    "",
  ].join("\n");
}

/**
 * The most CPUs a node has, as `sinfo` reports them, or a reason it is
 * unknown (no `sinfo`, not allowed to run it, an error).
 */
async function largestNode(partition: string | null): Promise<number | string> {
  if (Deno.permissions.querySync({ name: "run", command: "sinfo" }).state !== "granted") {
    // Deno resolves --allow-run=sinfo on PATH when it starts: not granted when not found.
    return "sinfo is not on PATH (or not allowed: --allow-run=sinfo)";
  }
  try {
    const out = await new Deno.Command("sinfo", {
      args: ["--noheader", "--format=%c", ...(partition ? [`--partition=${partition}`] : [])],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    if (!out.success) {
      const last = new TextDecoder().decode(out.stderr).trim().split("\n").at(-1);
      return `sinfo failed: ${last || `exit ${out.code}`}`;
    }
    const cpus = text.split("\n").map((l) => parseInt(l, 10)).filter((n) => n > 0);
    return cpus.length ? Math.max(...cpus) : `sinfo listed no nodes`;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return "sinfo is not on PATH";
    return `sinfo could not run: ${(err as Error).message}`;
  }
}

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  Deno.exit(2);
}

const { int } = numberFlags(fail);

const absolute = (p: string) => (isAbsolute(p) ? p : resolve(p));
/** A path as the user reads it: relative to the working folder when inside it. */
const shown = (p: string) => {
  const r = relative(Deno.cwd(), p);
  return r === "" ? "." : r.startsWith("..") ? p : r;
};

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: Deno.args,
      options: {
        spec: { type: "string" },
        shards: { type: "string" },
        out: { type: "string" },
        models: { type: "string" },
        cache: { type: "string" },
        cpus: { type: "string" },
        time: { type: "string" },
        partition: { type: "string" },
        "max-cost": { type: "string" },
        "max-tokens": { type: "string" },
        submit: { type: "boolean" },
        k8s: { type: "boolean" },
        image: { type: "string" },
        parallelism: { type: "string" },
        claim: { type: "string" },
        secret: { type: "string" },
        deno: { type: "string" },
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
  if (!values.out) fail("--out is required (the folder of the shard folders, on shared storage)");
  const shards = int("shards", values.shards, 1);
  if (shards === undefined) fail("--shards is required");
  checkShard({ index: 0, count: shards });
  const cpus = int("cpus", values.cpus, 1) ?? 1;
  const parallelism = int("parallelism", values.parallelism, 1) ?? shards;
  if (values.time !== undefined && !/^(\d+-)?\d+(:\d+){0,2}$/.test(values.time)) {
    fail(`--time must be a Slurm time (minutes, "H:MM:SS" or "D-HH:MM"), got "${values.time}"`);
  }
  if (values.partition !== undefined && !/^[\w.-]+$/.test(values.partition)) {
    fail(`--partition must be a partition name, got "${values.partition}"`);
  }
  if (values.k8s && !values.image) fail("--k8s needs --image (an image holding the toolkit)");
  if (values.k8s && values.submit) fail("--submit submits to Slurm; apply k8s.yaml with kubectl");
  const maxCost = values["max-cost"];
  if (maxCost !== undefined && !(Number(maxCost) > 0)) {
    fail(`--max-cost must be a number > 0 (each shard's own budget), got "${maxCost}"`);
  }
  int("max-tokens", values["max-tokens"], 1);
  const out = absolute(values.out.replace(/\/+$/, ""));
  if (/\s/.test(out)) {
    fail(`--out must not hold white space (#SBATCH lines are not quoted): "${out}"`);
  }
  const k8s = values.k8s === true;
  try {
    let specText: unknown;
    try {
      specText = await readGridSpec(values.spec);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) {
        throw new RangeError(`Spec file "${values.spec}" does not exist`);
      }
      throw err;
    }
    let models: ModelConfig[] = [];
    if (values.models) {
      try {
        models = await loadModelConfigs(values.models);
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) {
          throw new RangeError(`Models file "${values.models}" does not exist`);
        }
        throw err;
      }
    }
    const spec = parseGridSpec(specText);
    checkEpisodeCount(spec);
    const cells = expandCells(spec);
    const named = new Set(cells.flatMap((c) => modelsOf(c.agents)));
    const missing = [...named].filter((id) => !models.some((m) => m.id === id));
    if (missing.length > 0) {
      throw new RangeError(
        `The spec names models ${missing.map((m) => `"${m}"`).join(", ")}: ` +
          (values.models ? `not in "${values.models}"` : "give --models MODELS.json"),
      );
    }
    const used = models.filter((m) => named.has(m.id));
    const total = countGridEpisodes(spec);
    const inPod = (p: string) => (k8s && !isAbsolute(p) ? p : absolute(p));
    const cache = values.cache ? inPod(values.cache) : null;
    // Exactly what the grid needs (the grid command checks the same before it starts).
    const gridNeeds: Needs = {
      write: [out, ...(cache ? [cache] : [])],
      net: used.map((m) => new URL(m.baseURL).host),
      env: used.map((m) => m.apiKeyEnv).filter((k): k is string => k !== null),
      sys: ["hostname"],
      ffi: null,
    };
    const job: ClusterJob = {
      spec: inPod(values.spec),
      name: spec.name,
      shards,
      total,
      out,
      models: values.models ? inPod(values.models) : null,
      cache,
      cpus,
      gridArgs: [
        ...(maxCost !== undefined ? ["--max-cost", maxCost] : []),
        ...(values["max-tokens"] !== undefined ? ["--max-tokens", values["max-tokens"]] : []),
      ],
      permissions: narrowFlags(gridNeeds),
      deno: values.deno ?? (k8s ? "deno" : Deno.execPath()),
      root: ROOT,
    };
    const file = join(out, k8s ? "k8s.yaml" : "slurm.sh");
    const needs: Needs = { write: [out], net: [], env: [], sys: [], ffi: null };
    if (!checkPermissions(needs, new URL(import.meta.url), Deno.args)) return 2;
    if (!k8s) {
      const largest = await largestNode(values.partition ?? null);
      if (typeof largest === "number" && cpus > largest) {
        console.error(
          `--cpus ${cpus} is more than any node${
            values.partition ? ` of partition "${values.partition}"` : ""
          } has (${largest}, from sinfo): the tasks would stay pending forever. ` +
            `Give --cpus ${largest} or less.`,
        );
        return 2;
      }
      if (typeof largest === "string") {
        console.error(`Could not check --cpus ${cpus} against the nodes: ${largest}.`);
      }
    }
    await Deno.mkdir(join(out, "logs"), { recursive: true });
    const text = k8s
      ? k8sJob(job, {
        image: values.image!,
        workdir: "/coordlab",
        parallelism,
        claim: values.claim ?? "coordlab-runs",
        secret: gridNeeds.env.length ? values.secret ?? "coordlab-keys" : null,
      })
      : slurmScript(job, { time: values.time ?? null, partition: values.partition ?? null });
    await Deno.writeTextFile(file, text, { mode: 0o755 });
    console.log(`Wrote ${shown(file)}: ${total} episodes in ${shards} shards.`);
    const check = `cd ${quote(ROOT)} && deno run ${
      narrowFlags({
        write: [`${out}-parquet`],
        net: [],
        env: [],
        sys: POLARS_SYS,
        ffi: addonFolder(),
      }).map(quote).join(" ")
    } engine/cli/compact.ts ${quote(out)}`;
    if (k8s) {
      console.log(`Apply it with: kubectl apply -f ${quote(shown(file))}`);
      return 0;
    }
    if (!values.submit) {
      console.log(`Submit it with: sbatch ${quote(shown(file))}`);
      console.log(`Then check every shard, compact and load the result with:\n  ${check}`);
      return 0;
    }
    const r = await new Deno.Command("sbatch", {
      args: ["--parsable", file],
      stdout: "piped",
      stderr: "piped",
    }).output().catch((err) => {
      throw err instanceof Deno.errors.NotFound
        ? new RangeError("sbatch is not installed here: submit the script where Slurm runs")
        : err;
    });
    if (!r.success) {
      console.error(`sbatch failed (exit ${r.code}): ${new TextDecoder().decode(r.stderr).trim()}`);
      return 1;
    }
    const id = new TextDecoder().decode(r.stdout).trim().split(";")[0];
    console.log(`Submitted job ${id} (tasks 0-${shards - 1}); follow it with: squeue -j ${id}`);
    console.log(
      `When it has ended, check every shard, compact and load the result with:\n  ${check}`,
    );
    return 0;
  } catch (err) {
    if (err instanceof RangeError || err instanceof TypeError || err instanceof SyntaxError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
}

if (import.meta.main) Deno.exit(await main());

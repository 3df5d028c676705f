// deno task slurm writes the job array (or Indexed Job) that runs a grid in
// shards: shard count written out, exact permissions, SIGTERM before the time
// limit, requeue, per-attempt logs; --cpus checked with sinfo; --submit runs
// sbatch. Fake sinfo and sbatch stand in for Slurm here (the real one runs in
// slurm_long_test.ts).
import { assert, assertEquals } from "../../_assert.ts";
import { DENO_COMMAND } from "../../../engine/cli/_permissions.ts";
import { makeTempDir } from "../../_temp.ts";

const ROOT = new URL("../../../", import.meta.url).pathname.replace(/\/$/, "");
const CLI = `${ROOT}/engine/cli/slurm.ts`;
const SPEC = {
  name: "cluster",
  seed: 2,
  episodes: 3,
  blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0", "M3"] }],
};

const text = (b: Uint8Array) => new TextDecoder().decode(b);

/**
 * The command's own standard error: without the line Deno itself prints at
 * start-up when a command of --allow-run (here sinfo) is not on PATH, which
 * depends on the machine, not on the command.
 */
const ownStderr = (b: Uint8Array) =>
  text(b).replace(/^Info Failed to resolve '[^']+' for allow-run: cannot find binary path\n/gm, "");

/** A folder with the spec, a models file and fake sinfo/sbatch on PATH. */
async function fixture(sinfoCpus: string | null) {
  const dir = await makeTempDir({ prefix: "coordlab-slurm-cli-" });
  await Deno.writeTextFile(`${dir}/spec.json`, JSON.stringify(SPEC));
  await Deno.mkdir(`${dir}/bin`);
  if (sinfoCpus !== null) {
    await Deno.writeTextFile(`${dir}/bin/sinfo`, `#!/bin/sh\nprintf '${sinfoCpus}'\n`, {
      mode: 0o755,
    });
  }
  await Deno.writeTextFile(
    `${dir}/bin/sbatch`,
    `#!/bin/sh\necho "$@" > "${dir}/sbatch.args"\necho "4242;cluster"\n`,
    { mode: 0o755 },
  );
  return dir;
}

function slurm(dir: string, args: string[], flags?: string[], path = `${dir}/bin:/usr/bin:/bin`) {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...(flags ??
        ["--no-prompt", "--allow-read", `--allow-write=${dir}`, "--allow-run=sinfo,sbatch"]),
      CLI,
      ...args,
    ],
    cwd: ROOT,
    env: { PATH: path, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
}

Deno.test("deno task slurm writes a job array of shards 0..N-1 with the count written out, exact permissions, SIGTERM and requeue", async () => {
  const dir = await fixture("2\n8\n");
  const out = `${dir}/grid`;
  const r = await slurm(dir, [
    "--spec",
    `${dir}/spec.json`,
    "--shards",
    "3",
    "--out",
    out,
    "--cpus",
    "4",
    "--time",
    "1:00:00",
    "--partition",
    "cpu",
  ]);
  assertEquals([r.code, text(r.stderr)], [0, ""]);
  const compact = `cd ${ROOT} && deno run --no-prompt --allow-read --allow-write=${out}-parquet ` +
    `--allow-sys=cpus,networkInterfaces,hostname --allow-ffi=node_modules engine/cli/compact.ts ${out}`;
  assertEquals(
    text(r.stdout),
    `Wrote ${out}/slurm.sh: 6 episodes in 3 shards.\nSubmit it with: sbatch ${out}/slurm.sh\n` +
      `Then check every shard, compact and load the result with:\n  ${compact}\n`,
  );
  assertEquals(
    await Deno.readTextFile(`${out}/slurm.sh`),
    [
      "#!/bin/bash",
      `# Grid "cluster" (6 episodes) in 3 shards, one per task:`,
      `# task i plays shard i/3 into ${out}/shard-<i>. Written by deno task slurm.`,
      `# Submit: sbatch ${out}/slurm.sh`,
      "#SBATCH --job-name=coordlab-cluster",
      "#SBATCH --array=0-2",
      "#SBATCH --cpus-per-task=4",
      "#SBATCH --time=1:00:00",
      "#SBATCH --partition=cpu",
      "# Requeued (preemption, scontrol requeue), a task resumes its shard's folder.",
      "#SBATCH --requeue",
      "# SIGTERM to the grid 120 s before the time limit: it stops cleanly and resumes.",
      "#SBATCH --signal=B:TERM@120",
      `#SBATCH --output=${out}/logs/%A_%a.out`,
      "#SBATCH --open-mode=append",
      "set -euo pipefail",
      ': "${SLURM_ARRAY_TASK_ID:?submit this script with sbatch: it is a job array}"',
      "# The shard count is written out: $SLURM_ARRAY_TASK_COUNT is 1 when one task is resubmitted.",
      "i=$SLURM_ARRAY_TASK_ID",
      `out=${out}/shard-$i`,
      `log=${out}/logs/"$SLURM_ARRAY_JOB_ID"_"$i".attempt-"\${SLURM_RESTART_COUNT:-0}".log`,
      `echo "shard $i/3 of cluster into $out, attempt \${SLURM_RESTART_COUNT:-0}: $log"`,
      `cd ${ROOT}`,
      "# exec: the grid is the batch step, so Slurm's SIGTERM reaches it.",
      `exec ${Deno.execPath()} run --no-prompt --allow-read --allow-write=${out} --allow-sys=hostname engine/cli/grid.ts \\`,
      `  --spec ${dir}/spec.json \\`,
      `  --shard "$i/3" --out "$out" --workers "$SLURM_CPUS_PER_TASK" --no-progress \\`,
      `  >>"$log" 2>&1`,
      "",
    ].join("\n"),
  );
  assert((await Deno.stat(`${out}/logs`)).isDirectory, "Slurm needs the log folder to exist");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("the written script runs its shard: --workers from SLURM_CPUS_PER_TASK, its folder, its attempt's log", async () => {
  const dir = await fixture("2\n");
  const out = `${dir}/grid`;
  const r = await slurm(dir, ["--spec", `${dir}/spec.json`, "--shards", "2", "--out", out]);
  assertEquals(r.code, 0, text(r.stderr));
  const task = await new Deno.Command("bash", {
    args: [`${out}/slurm.sh`],
    env: {
      SLURM_ARRAY_TASK_ID: "1",
      SLURM_ARRAY_JOB_ID: "77",
      SLURM_ARRAY_TASK_COUNT: "1", // a resubmitted task: ignored
      SLURM_CPUS_PER_TASK: "1",
      SLURM_RESTART_COUNT: "2",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(task.code, 0, text(task.stderr));
  const log = await Deno.readTextFile(`${out}/logs/77_1.attempt-2.log`);
  assert(log.startsWith(`cluster: 3/3 episodes finished in ${out}/shard-1 (0 already there`), log);
  const manifest = JSON.parse(await Deno.readTextFile(`${out}/shard-1/manifest.json`));
  assertEquals(manifest.shard, { index: 1, count: 2 });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deno task slurm refuses --cpus beyond every node (sinfo), says when it cannot check, and --submit prints the job id", async () => {
  const dir = await fixture("2\n2\n");
  const out = `${dir}/grid`;
  const base = ["--spec", `${dir}/spec.json`, "--shards", "4", "--out", out];
  const big = await slurm(dir, [...base, "--cpus", "8"]);
  assertEquals([big.code, text(big.stderr), text(big.stdout)], [
    2,
    "--cpus 8 is more than any node has (2, from sinfo): the tasks would stay pending forever. " +
    "Give --cpus 2 or less.\n",
    "",
  ]);
  const sub = await slurm(dir, [...base, "--cpus", "2", "--submit"]);
  assertEquals(sub.code, 0, text(sub.stderr));
  assert(
    text(sub.stdout).includes(
      "Submitted job 4242 (tasks 0-3); follow it with: squeue -j 4242\nWhen it has ended, check " +
        "every shard, compact and load the result with:\n  cd ",
    ),
    text(sub.stdout),
  );
  assertEquals(await Deno.readTextFile(`${dir}/sbatch.args`), `--parsable ${out}/slurm.sh\n`);
  await Deno.writeTextFile(
    `${dir}/bin/sinfo`,
    "#!/bin/sh\necho 'sinfo: error: no DNS' >&2\necho 'sinfo: fatal: no configuration' >&2\nexit 1\n",
  );
  const failing = await slurm(dir, [...base, "--cpus", "2"]);
  assertEquals([failing.code, text(failing.stderr)], [
    0,
    "Could not check --cpus 2 against the nodes: sinfo failed: sinfo: fatal: no configuration.\n",
  ]);
  await Deno.remove(`${dir}/bin/sinfo`);
  const blind = await slurm(dir, [...base, "--cpus", "2"], undefined, `${dir}/bin`);
  assertEquals(blind.code, 0);
  assertEquals(
    ownStderr(blind.stderr),
    "Could not check --cpus 2 against the nodes: sinfo is not on PATH " +
      "(or not allowed: --allow-run=sinfo).\n",
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deno task slurm with models grants their hosts and keys only, and refuses models it is not given", async () => {
  const dir = await fixture("4\n");
  const spec = {
    name: "llm",
    episodes: 1,
    blocks: [{ game: "staghunt", N: [3], M: [2], T: [1], F: [1], agents: [{ model: "ds" }] }],
  };
  await Deno.writeTextFile(`${dir}/llm.json`, JSON.stringify(spec));
  await Deno.writeTextFile(
    `${dir}/models.json`,
    JSON.stringify({
      models: [
        {
          id: "ds",
          baseURL: "https://api.deepseek.com/v1",
          model: "deepseek-chat",
          apiKeyEnv: "DS_KEY",
        },
        { id: "other", baseURL: "https://other.example/v1", model: "x", apiKeyEnv: "OTHER_KEY" },
      ],
    }),
  );
  const out = `${dir}/grid`;
  const base = ["--spec", `${dir}/llm.json`, "--shards", "2", "--out", out];
  const none = await slurm(dir, base);
  assertEquals([none.code, text(none.stderr)], [
    2,
    `The spec names models "ds": give --models MODELS.json\n`,
  ]);
  const r = await slurm(dir, [
    ...base,
    "--models",
    `${dir}/models.json`,
    "--cache",
    `${dir}/cache`,
    "--max-cost",
    "2.5",
    "--deno",
    "/opt/deno/bin/deno",
  ]);
  assertEquals(r.code, 0, text(r.stderr));
  const script = await Deno.readTextFile(`${out}/slurm.sh`);
  assert(
    script.includes(
      `exec /opt/deno/bin/deno run --no-prompt --allow-read --allow-write=${out},${dir}/cache ` +
        "--allow-net=api.deepseek.com " +
        `--allow-env=DS_KEY --allow-sys=hostname engine/cli/grid.ts \\\n  --spec ${dir}/llm.json ` +
        `--models ${dir}/models.json --cache ${dir}/cache --max-cost 2.5 \\\n`,
    ),
    script,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deno task slurm --k8s writes an Indexed Job of N completions with a grace period, with no Slurm on PATH", async () => {
  // No sinfo in the fixture and no system folder on PATH: a Kubernetes job
  // needs no Slurm, whatever this machine has installed.
  const dir = await fixture(null);
  const out = `${dir}/grid`;
  const r = await slurm(
    dir,
    [
      "--spec",
      "data/specs/mock_frail.json",
      "--shards",
      "4",
      "--out",
      out,
      "--k8s",
      "--image",
      "registry/coordlab:1",
      "--parallelism",
      "2",
      "--cpus",
      "2",
    ],
    undefined,
    `${dir}/bin`,
  );
  assertEquals([r.code, ownStderr(r.stderr)], [0, ""]);
  const yaml = await Deno.readTextFile(`${out}/k8s.yaml`);
  for (
    const line of [
      "  completionMode: Indexed\n",
      "  completions: 4\n",
      "  parallelism: 2\n",
      "      terminationGracePeriodSeconds: 60\n",
      `          image: "registry/coordlab:1"\n`,
      "                  fieldPath: metadata.annotations['batch.kubernetes.io/job-completion-index']\n",
      `          command: ["deno", "run", "--no-prompt", "--allow-read", "--allow-write=${out}", ` +
      `"--allow-sys=hostname", "engine/cli/grid.ts", "--spec", "data/specs/mock_frail.json", ` +
      `"--shard", "$(SHARD)/4", "--out", "${out}/shard-$(SHARD)", "--workers", "2", "--no-progress"]\n`,
      `            requests: { cpu: "2" }\n`,
    ]
  ) assert(yaml.includes(line), `${line}\n${yaml}`);
  assert(!yaml.includes("envFrom"), "a mock grid needs no key secret");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deno task slurm exits 2 naming a missing spec, a bad shard count, and a folder its task may not write", async () => {
  const dir = await fixture("2\n");
  const missing = await slurm(dir, [
    "--spec",
    `${dir}/nope.json`,
    "--shards",
    "2",
    "--out",
    `${dir}/g`,
  ]);
  assertEquals([missing.code, text(missing.stderr)], [
    2,
    `Spec file "${dir}/nope.json" does not exist\n`,
  ]);
  const zero = await slurm(dir, [
    "--spec",
    `${dir}/spec.json`,
    "--shards",
    "0",
    "--out",
    `${dir}/g`,
  ]);
  assertEquals(zero.code, 2);
  assert(
    text(zero.stderr).startsWith('--shards must be an integer >= 1, got "0"'),
    text(zero.stderr),
  );
  const spaced = await slurm(dir, [
    "--spec",
    `${dir}/spec.json`,
    "--shards",
    "2",
    "--out",
    `${dir}/a b`,
  ]);
  assertEquals(spaced.code, 2);
  assert(
    text(spaced.stderr).startsWith(
      `--out must not hold white space (#SBATCH lines are not quoted): "${dir}/a b"`,
    ),
    text(spaced.stderr),
  );
  const task = ["--no-prompt", "--allow-read", "--allow-write=runs", "--allow-run=sinfo,sbatch"];
  const args = ["--spec", `${dir}/spec.json`, "--shards", "2", "--out", `${dir}/g`];
  const refused = await slurm(dir, args, task);
  assertEquals(refused.code, 2);
  assertEquals(
    text(refused.stderr),
    `This command needs permissions it was not given: write to "${dir}/g". Run it with exactly ` +
      `what it needs:\n\n  ${DENO_COMMAND} run --no-prompt --allow-read --allow-write=${dir}/g engine/cli/slurm.ts ` +
      `${args.join(" ")}\n\n`,
  );
  await Deno.remove(dir, { recursive: true });
});

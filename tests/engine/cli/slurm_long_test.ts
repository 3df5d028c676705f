// A real Slurm: Debian's slurmctld, slurmd and munge on one node (localhost),
// run by `deno task slurm --submit`: the union of the shards equals the
// single-machine run episode for episode (hash for hash), and a task stopped
// mid-run by SIGTERM (`scancel --signal=TERM --full`), then requeued, loses
// and doubles nothing. Needs root and apt-get (or the packages installed);
// skips with the reason otherwise.
import { assert, assertEquals } from "../../_assert.ts";
import { loadRuns } from "../../../analysis/load/load_runs.ts";
import { compactRun } from "../../../analysis/load/compact.ts";
import { stateHash } from "../../../engine/core/hash.ts";
import { readManifest } from "../../../engine/grid/manifest.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { readRunEpisodes } from "../../../engine/grid/segments.ts";
import { makeTempDir } from "../../_temp.ts";

const CLI = new URL("../../../engine/cli/slurm.ts", import.meta.url).pathname;
const PACKAGES = ["slurmctld", "slurmd", "slurm-client", "munge"];
const SPEC = {
  name: "slurm-mock",
  seed: 7,
  episodes: 250,
  blocks: [{
    game: "frail",
    envs: ["bank_run", "debt_rollover"],
    mechanisms: ["M0", "M1", "M2", "M3"],
    regimes: ["stable"],
    agents: [{ mock: {} }],
  }],
};
const SHARDS = 4;

const text = (b: Uint8Array) => new TextDecoder().decode(b);

async function run(cmd: string, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(cmd, { args, env, stdout: "piped", stderr: "piped" })
    .output();
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

const has = (cmd: string) =>
  run("sh", ["-c", `command -v ${cmd}`]).then((r) => r.code === 0, () => false);

/** Why this machine cannot run the test, or `null`. */
function staticSkip(): string | null {
  if (Deno.build.os !== "linux") return "Slurm runs on Linux only";
  if (Deno.uid() !== 0) return "installing and starting Slurm's daemons needs root";
  return null;
}

/** Installs the packages when missing; returns why it could not, or `null`. */
async function install(): Promise<string | null> {
  if (await has("slurmctld") && await has("slurmd") && await has("sbatch") && await has("munged")) {
    return null;
  }
  if (!await has("apt-get")) return "Slurm is not installed and there is no apt-get";
  const args = ["install", "-y", "--no-install-recommends", ...PACKAGES];
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  let r = await run("apt-get", args, env);
  if (r.code !== 0) {
    await run("apt-get", ["update"], env);
    r = await run("apt-get", args, env);
  }
  return r.code === 0 ? null : `apt-get install ${PACKAGES.join(" ")} failed: ${r.stderr.trim()}`;
}

/** How many times its nominal time a wait may take (see {@link waitFor}). */
const SLACK = 4;

/** A TCP port nothing listens on now. */
function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/**
 * Waits until `ok()`, at most `seconds` times {@link SLACK}: each wait's
 * `seconds` is what a quiet machine needs with room to spare, and the slack
 * covers a disk that other tests of the long group keep busy (a 512 MiB log
 * is written alongside; the browser tests once saw chromium take 35 s to start
 * against 0.3 s quiet). A wait that succeeds costs no more for it.
 */
async function waitFor(what: string, ok: () => Promise<boolean>, seconds: number) {
  seconds *= SLACK;
  const end = Date.now() + seconds * 1000;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`Timed out after ${seconds} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Each episode's events (without their wall-clock times), hashed, by episode id. */
async function episodeHashes(dirs: string[]): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for (const dir of dirs) {
    for (const [id, events] of await readRunEpisodes(dir)) {
      assert(!hashes.has(id), `episode ${id} twice`);
      hashes.set(id, stateHash(events.map(({ time: _t, ...e }) => e)));
    }
  }
  return hashes;
}

const skip = staticSkip();
if (skip) console.warn(`slurm_long_test skipped: ${skip}`);

Deno.test({
  name:
    "deno task slurm --submit runs a grid on a real Slurm, and a task stopped by SIGTERM and requeued resumes",
  ignore: skip !== null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const why = await install();
  if (why) {
    console.warn(`slurm_long_test skipped: ${why}`);
    return;
  }
  const tmp = await makeTempDir({ prefix: "coordlab-slurm-" });
  await Deno.chmod(tmp, 0o755);
  const daemons: Deno.ChildProcess[] = [];
  let cleanup = async () => {};
  try {
    // munge, as the munge user, with its socket and key in the temporary folder.
    const munge = `${tmp}/munge`;
    await Deno.mkdir(munge, { mode: 0o755 });
    await run("chown", ["munge:munge", munge]);
    await Deno.chmod(munge, 0o755);
    const key = await run("runuser", [
      "-u",
      "munge",
      "--",
      "mungekey",
      "--create",
      `--keyfile=${munge}/munge.key`,
    ]);
    assertEquals(key.code, 0, key.stderr);
    const asMunge = (args: string[]) =>
      new Deno.Command("runuser", { args: ["-u", "munge", "--", ...args], stderr: "null" });
    daemons.push(
      asMunge([
        "munged",
        "--foreground",
        `--key-file=${munge}/munge.key`,
        `--socket=${munge}/munge.sock`,
        `--pid-file=${munge}/munged.pid`,
        `--log-file=${munge}/munged.log`,
        `--seed-file=${munge}/munge.seed`,
      ]).spawn(),
    );
    await waitFor(
      "munged's socket",
      () => Deno.stat(`${munge}/munge.sock`).then(() => true, () => false),
      20,
    );
    // One node, localhost, 2 CPUs; no cgroups, no accounting; state and spool here.
    for (const d of ["state", "spool"]) await Deno.mkdir(`${tmp}/${d}`);
    const conf = `${tmp}/slurm.conf`;
    await Deno.writeTextFile(
      conf,
      [
        "ClusterName=coordlab",
        "SlurmctldHost=localhost",
        `SlurmctldPort=${freePort()}`,
        `SlurmdPort=${freePort()}`,
        "SlurmUser=root",
        "SlurmdUser=root",
        "AuthType=auth/munge",
        "CredType=cred/munge",
        `AuthInfo=socket=${munge}/munge.sock`,
        "MpiDefault=none",
        "ProctrackType=proctrack/linuxproc",
        "TaskPlugin=task/none",
        "SelectType=select/cons_tres",
        "SelectTypeParameters=CR_CPU",
        "SchedulerType=sched/backfill",
        `SlurmctldPidFile=${tmp}/slurmctld.pid`,
        `SlurmdPidFile=${tmp}/slurmd.pid`,
        `SlurmdSpoolDir=${tmp}/spool`,
        `StateSaveLocation=${tmp}/state`,
        `SlurmctldLogFile=${tmp}/slurmctld.log`,
        `SlurmdLogFile=${tmp}/slurmd.log`,
        "ReturnToService=2",
        "JobAcctGatherType=jobacct_gather/none",
        "AccountingStorageType=accounting_storage/none",
        "MinJobAge=600",
        "NodeName=localhost CPUs=2 State=UNKNOWN",
        "PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP",
        "",
      ].join("\n"),
    );
    const env = { SLURM_CONF: conf };
    const slurm = (cmd: string, args: string[]) => run(cmd, args, env);
    cleanup = async () => {
      // No job outlives the test: cancel them all and wait for their steps to end.
      await slurm("scancel", ["--full", "--partition=debug"]);
      await waitFor(
        "the jobs to end",
        async () => (await slurm("squeue", ["-h"])).stdout.trim() === "",
        30,
      ).catch(() => {});
    };
    const daemon = (cmd: string, args: string[]) =>
      new Deno.Command(cmd, { args, env, stdout: "null", stderr: "null" }).spawn();
    daemons.push(daemon("slurmctld", ["-D", "-i", "-f", conf]));
    await waitFor("slurmctld", async () => (await slurm("sinfo", ["-h"])).code === 0, 30);
    daemons.push(daemon("slurmd", ["-D", "-f", conf, "-N", "localhost"]));
    await waitFor(
      "the node to be idle",
      async () => (await slurm("sinfo", ["-h", "-o", "%t"])).stdout.trim() === "idle",
      30,
    );

    // Too many CPUs per task is refused from sinfo.
    const specPath = `${tmp}/spec.json`;
    await Deno.writeTextFile(specPath, JSON.stringify(SPEC));
    const out = `${tmp}/grid`;
    const cli = (extra: string[]) =>
      slurm(Deno.execPath(), [
        "run",
        "--no-prompt",
        "--allow-read",
        `--allow-write=${out}`,
        "--allow-run=sinfo,sbatch",
        CLI,
        "--spec",
        specPath,
        "--shards",
        String(SHARDS),
        "--out",
        out,
        ...extra,
      ]);
    const big = await cli(["--cpus", "3"]);
    assertEquals([big.code, big.stderr], [
      2,
      "--cpus 3 is more than any node has (2, from sinfo): the tasks would stay pending " +
      "forever. Give --cpus 2 or less.\n",
    ]);

    const submitted = await cli(["--cpus", "1", "--submit"]);
    assertEquals(submitted.code, 0, submitted.stderr);
    const id = /Submitted job (\d+) /.exec(submitted.stdout)?.[1];
    assert(id, submitted.stdout);
    const script = await Deno.readTextFile(`${out}/slurm.sh`);
    assert(script.includes(`#SBATCH --array=0-${SHARDS - 1}\n`), script);

    // Stop task 1 mid-run with SIGTERM, the batch-step way.
    const idx = async (dir: string) => {
      let n = 0;
      if (!await Deno.stat(dir).then(() => true, () => false)) return 0;
      for await (const e of Deno.readDir(dir)) {
        if (e.name.endsWith(".idx")) {
          n += (await Deno.readTextFile(`${dir}/${e.name}`)).split("\n").length - 1;
        }
      }
      return n;
    };
    const shard1 = `${out}/shard-1`;
    await waitFor("task 1 to save episodes", async () => await idx(shard1) >= 20, 60);
    const cancel = await slurm("scancel", ["--signal=TERM", "--full", `${id}_1`]);
    // (scancel 22.05 may exit non-zero after signalling the batch step: its effect is checked.)
    assertEquals(cancel.stdout + cancel.stderr, "");
    const state = async (task: number) =>
      (await slurm("scontrol", ["show", "job", `${id}_${task}`])).stdout;
    await waitFor("task 1 to stop", async () => /JobState=FAILED/.test(await state(1)), 60);
    assert((await state(1)).includes("ExitCode=143:0"), await state(1));
    const first = await Deno.readTextFile(`${out}/logs/${id}_1.attempt-0.log`);
    assert(first.startsWith("\nReceived SIGTERM: no new episode starts;"), first);
    assert(first.includes("\nStopped: Received SIGTERM\n"), first);
    const interrupted = (await readManifest(shard1))!;
    assertEquals(interrupted.status, "interrupted");
    const saved = await idx(shard1);
    assert(saved > 0 && saved < 500, String(saved));

    // Requeue it (Slurm delays a requeued job; start it now).
    const requeue = await slurm("scontrol", ["requeue", `${id}_1`]);
    assertEquals(requeue.code, 0, requeue.stderr);
    await slurm("scontrol", ["update", `jobid=${id}_1`, "StartTime=now"]);
    await waitFor(
      "every task to finish",
      async () => (await slurm("squeue", ["-h", "-j", id])).stdout.trim() === "",
      120,
    );
    for (let i = 0; i < SHARDS; i++) {
      assert(/JobState=COMPLETED/.test(await state(i)), await state(i));
    }
    const second = await Deno.readTextFile(`${out}/logs/${id}_1.attempt-1.log`);
    assertEquals(
      second.replace(/ in [\d.]+ s\n$/, ""),
      `slurm-mock: 500/500 episodes finished in ${shard1} (${saved} already there, ` +
        `${500 - saved} played now, 0 failed)`,
    );

    // The union equals the single-machine run, hash for hash; nothing lost or doubled.
    const whole = `${tmp}/whole`;
    await runGrid(SPEC, { out: whole, workers: 2, progress: false });
    const shards = Array.from({ length: SHARDS }, (_, i) => `${out}/shard-${i}`);
    const union = await episodeHashes(shards);
    const single = await episodeHashes([whole]);
    assertEquals(union.size, 2000);
    assertEquals([...union].sort(), [...single].sort());
    const frames = await loadRuns(out, { frames: [] });
    assertEquals([frames.episodes.height, frames.complete, frames.duplicates.length], [
      2000,
      true,
      0,
    ]);
    const compacted = await compactRun(out, { out: `${tmp}/grid-parquet` });
    assertEquals(compacted.rows.episodes, 2000);
  } finally {
    await cleanup();
    // Stop the daemons by pid: slurmd, slurmctld, then munged (runuser's child).
    const mungedPid = await Deno.readTextFile(`${tmp}/munge/munged.pid`).then(Number, () => 0);
    if (mungedPid > 0) {
      try {
        Deno.kill(mungedPid, "SIGTERM");
      } catch { /* already ended */ }
    }
    for (const d of daemons.reverse()) {
      try {
        d.kill("SIGTERM");
      } catch { /* already ended */ }
      await d.status;
    }
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
});

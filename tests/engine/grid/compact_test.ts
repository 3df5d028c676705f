import pl from "npm:nodejs-polars@0.25.2";
import { assert, assertEquals, assertRejects } from "../../_assert.ts";
import { loadRuns, writeRunsParquet } from "../../../analysis/load/load_runs.ts";
import type { EngineEvent } from "../../../engine/core/events.ts";
import { compactRun } from "../../../analysis/load/compact.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { readLogEpisodes, readRunEpisodes } from "../../../engine/grid/segments.ts";
import { COMPACT_CLI as CLI, quiet, ROOT } from "./_grid_fixture.ts";
import { makeTempDir } from "../../_temp.ts";

const SPEC = {
  name: "compacted",
  seed: 8,
  episodes: 2,
  blocks: [
    { game: "frail", envs: ["bank_run"], mechanisms: ["M1", "M3"] },
    { game: "staghunt", N: [3], M: [2], T: [2], F: [1], corruption: ["base", "b3"] },
  ],
};

async function allEvents(dir: string): Promise<EngineEvent[]> {
  return [...(await readRunEpisodes(dir)).values()].flat();
}

Deno.test("compactRun() writes one row per event, turn and disclosure, in tables the loaders read", async () => {
  const root = await makeTempDir();
  await runGrid(SPEC, { out: `${root}/run`, ...quiet });
  const events = await allEvents(`${root}/run`);
  const r = await compactRun(`${root}/run`);
  assertEquals(r.out, `${root}/run-parquet`);
  assertEquals(r.logs, 1);
  const count = (t: string) => events.filter((e) => e.type === t).length;
  assertEquals(r.rows.episodes, 8);
  assertEquals(r.rows.events, events.length);
  assertEquals(r.rows.turns, count("turn"));
  assertEquals(r.rows.turns, 4 * 2 * 3);
  assertEquals(r.rows.rounds, count("disclosure"));
  assertEquals(r.rows.decisions, count("decision"));
  assertEquals(
    (await Array.fromAsync(Deno.readDir(r.out))).map((e) => e.name).sort(),
    ["compacted.json", r.set.slice(r.out.length + 1)],
  );
  const files = (await Array.fromAsync(Deno.readDir(r.set))).map((e) => e.name).sort();
  assertEquals(files, [
    "calls.parquet",
    "corrections.parquet",
    "decisions.parquet",
    "episodes.parquet",
    "events.parquet",
    "mechanisms.parquet",
    "rounds.parquet",
    "turns.parquet",
  ]);

  const ev = pl.readParquet(`${r.set}/events.parquet`);
  const checkpoint = events.find((e) => e.type === "checkpoint")!;
  const row = ev.filter(
    pl.col("episode").eq(pl.lit(checkpoint.episode)).and(pl.col("seq").eq(pl.lit(checkpoint.seq))),
  ).toRecords()[0] as Record<string, unknown>;
  const { schema: _s, run: _r, episode: _e, round, step, seq, time, type, ...data } = checkpoint;
  assertEquals(
    [row.round, row.step, row.seq, row.time, row.type, row.agent],
    [round, step, seq, time, type, null],
  );
  assertEquals(JSON.parse(row.data as string), data);

  const turns = pl.readParquet(`${r.set}/turns.parquet`).toRecords();
  const firstTurn = events.find((e) => e.type === "turn")! as unknown as Record<string, unknown>;
  const t0 = turns.find((t) => t.episode === firstTurn.episode && t.seq === firstTurn.seq)!;
  for (
    const k of ["agent", "position", "corrupted", "original_action", "public_action", "confidence"]
  ) {
    assertEquals(t0[k], firstTurn[k], k);
  }

  const back = await loadRuns(r.out);
  const direct = await loadRuns(`${root}/run`);
  assertEquals(back.episodes.toRecords(), direct.episodes.toRecords());
  assertEquals(back.decisions!.toRecords(), direct.decisions!.toRecords());
  const rounds = back.rounds!.toRecords();
  const disclosure = events.find((e) => e.type === "disclosure" && e.round === 2)!;
  const match = rounds.find((x) => x.episode === disclosure.episode && x.round === 2)!;
  assertEquals(
    JSON.parse(match.public as string),
    (disclosure as unknown as { public: unknown }).public,
  );
});

Deno.test("the compact command merges shard folders into one set and refuses overlapping ones", async () => {
  const root = await makeTempDir();
  for (const i of [0, 1, 2]) {
    await runGrid(SPEC, { out: `${root}/runs/shard-${i}`, shard: `${i}/3`, ...quiet });
  }
  const run = (args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, ...args],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
  const ok = await run([`${root}/runs`, "--out", `${root}/merged`]);
  assertEquals(ok.code, 0, new TextDecoder().decode(ok.stderr));
  assert(
    new TextDecoder().decode(ok.stdout).startsWith(
      `8 episodes from 3 log files compacted into ${root}/merged`,
    ),
  );
  const merged = await loadRuns(`${root}/merged`);
  assertEquals(merged.episodes.height, 8);
  assertEquals(new Set(merged.episodes.getColumn("episode").toArray()).size, 8);

  const one = (await Array.fromAsync(Deno.readDir(`${root}/runs/shard-0`)))
    .find((e) => e.name.endsWith(".ndjson"))!.name;
  const [{ episode: first }] = await readLogEpisodes(`${root}/runs/shard-0/${one}`);
  await Deno.copyFile(`${root}/runs/shard-0/${one}`, `${root}/runs/shard-1/copy.ndjson`);
  const dup = await run([`${root}/runs`, "--out", `${root}/merged`]);
  assertEquals(dup.code, 2);
  assert(
    new TextDecoder().decode(dup.stderr).includes(
      `Episode "${first}" of run "compacted" has two logs`,
    ),
  );
});

Deno.test("compactRun() refuses an output inside its input and a non-compacted output folder", async () => {
  const root = await makeTempDir();
  await runGrid(SPEC, { out: `${root}/run`, ...quiet });
  await assertRejects(
    () => compactRun(`${root}/run`, { out: `${root}/run/parquet` }),
    RangeError,
    "lies inside its input",
  );
  await Deno.mkdir(`${root}/other`);
  await Deno.writeTextFile(`${root}/other/notes.txt`, "mine");
  await assertRejects(
    () => compactRun(`${root}/run`, { out: `${root}/other` }),
    RangeError,
    `Compaction output "${root}/other" already exists and is not a compacted set`,
  );
  assertEquals(await Deno.readTextFile(`${root}/other/notes.txt`), "mine");
});

/** Names in a folder, sorted. */
async function names(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

Deno.test("compactRun() keeps the current set loadable whatever a killed compaction left, and cleans it up", async () => {
  const root = await makeTempDir();
  await runGrid(SPEC, { out: `${root}/run`, ...quiet });
  const first = await compactRun(`${root}/run`);
  const out = first.out;
  // Left by killed compactions: a new set half-written (no compacted.json
  // names it), a temporary pointer, and an earlier version's hidden folder.
  const partial = `${out}/set-20260101T000000-abcdef`;
  await Deno.mkdir(partial);
  await Deno.copyFile(`${first.set}/decisions.parquet`, `${partial}/decisions.parquet`);
  await Deno.writeTextFile(`${out}/compacted.json.${crypto.randomUUID()}.tmp`, "{");
  const earlier = `${root}/.run-parquet.${crypto.randomUUID()}.tmp`;
  await Deno.mkdir(earlier);
  await Deno.copyFile(`${first.set}/rounds.parquet`, `${earlier}/rounds.parquet`);
  assertEquals((await loadRuns(out)).episodes.height, 8);
  assertEquals((await loadRuns(root, { frames: [] })).episodes.height, 8);

  const second = await compactRun(`${root}/run`);
  assertEquals(second.removed.length, 4);
  assert(second.removed.includes(first.set) && second.removed.includes(partial));
  assertEquals(await names(out), ["compacted.json", second.set.slice(out.length + 1)]);
  assertEquals((await names(root)).filter((n) => n.startsWith(".")), []);
  assertEquals(
    (await loadRuns(out)).decisions!.toRecords(),
    (await loadRuns(`${root}/run`)).decisions!.toRecords(),
  );
});

Deno.test("compactRun() converts a flat set in its output folder, with the flat tables loadable until the swap", async () => {
  const root = await makeTempDir();
  await runGrid(SPEC, { out: `${root}/run`, ...quiet });
  await writeRunsParquet(await loadRuns(`${root}/run`), `${root}/out`);
  const r = await compactRun(`${root}/run`, { out: `${root}/out` });
  assertEquals(await names(`${root}/out`), ["compacted.json", r.set.slice(`${root}/out/`.length)]);
  assertEquals((await loadRuns(`${root}/out`)).episodes.height, 8);
  await assertRejects(
    () => compactRun(`${root}/run`, { out: `${root}/out`, overwrite: false }),
    RangeError,
    `Compaction output "${root}/out" already exists: choose another folder`,
  );
});

Deno.test("loadRuns() refuses a compacted set with missing parts instead of loading it empty", async () => {
  const root = await makeTempDir();
  await runGrid(SPEC, { out: `${root}/run`, ...quiet });
  const r = await compactRun(`${root}/run`);
  await Deno.remove(`${r.set}/decisions.parquet`);
  await assertRejects(
    () => loadRuns(r.out),
    RangeError,
    `Compacted set "${r.out}" lacks ${
      r.set.slice(r.out.length + 1)
    }/decisions.parquet, which compacted.json lists: compact again`,
  );
  // A flat set that lost its episodes table (what a kill between delete and
  // rename used to leave) is an error, not zero rows.
  await writeRunsParquet(await loadRuns(`${root}/run`), `${root}/flat`);
  await Deno.remove(`${root}/flat/episodes.parquet`);
  await assertRejects(
    () => loadRuns(`${root}/flat`),
    RangeError,
    `Folder "${root}/flat" holds rounds.parquet, decisions.parquet, mechanisms.parquet, ` +
      `corrections.parquet, calls.parquet, turns.parquet but no episodes.parquet`,
  );
  // A first compaction killed before its set was made current.
  await Deno.mkdir(`${root}/first/set-20260101T000000-abcdef`, { recursive: true });
  await assertRejects(
    () => loadRuns(`${root}/first`),
    RangeError,
    "a set no compacted.json names: an interrupted compaction (compact again)",
  );
});

Deno.test("the compact command exits 74 naming the output folder and the error when a write fails, and keeps the current set", async () => {
  const root = await makeTempDir();
  await runGrid(SPEC, { out: `${root}/run`, ...quiet });
  const out = `${root}/run-parquet`;
  const first = await compactRun(`${root}/run`);
  const pointer = await Deno.readTextFile(`${out}/compacted.json`);
  const faults = new URL("./_write_faults.ts", import.meta.url).pathname;
  const failed = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--preload", faults, CLI, `${root}/run`],
    cwd: ROOT,
    env: { COORDLAB_WRITE_FAULT: JSON.stringify({ match: "compacted.json." }) },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals([failed.code, new TextDecoder().decode(failed.stderr)], [
    74,
    `Could not write the compacted set in folder "${out}": ENOSPC, No space left on device ` +
    `(os error 28)\nRun again with: deno task compact ${root}/run\n`,
  ]);
  // The set it was writing is gone; the current one is as it was, and loads.
  assertEquals(await Deno.readTextFile(`${out}/compacted.json`), pointer);
  const names = (await Array.fromAsync(Deno.readDir(out))).map((e) => e.name).sort();
  assertEquals(names, ["compacted.json", first.set.split("/").at(-1)!]);
  assertEquals((await loadRuns(out)).episodes.height, 8);
  const again = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, `${root}/run`],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(again.code, 0, new TextDecoder().decode(again.stderr));
  await Deno.remove(root, { recursive: true });
});

import assert from "node:assert/strict";
import { readEpisodeLog } from "../../../../engine/core/log_file.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { replayWith } from "../../../../engine/core/replay.ts";
import { carryoverRule } from "../../../../engine/games/staghunt/beliefs/carryover.ts";
import { stagHunt } from "../../../../engine/games/staghunt/environment.ts";
import { runStagHuntEpisode } from "../../../../engine/run_staghunt_episode.ts";
import { turnsFromEvents } from "../../../../engine/games/staghunt/turns.ts";
import { makeTempDir } from "../../../_temp.ts";

const noisy = (seed: number, corruption: "base" | "b3") =>
  runStagHuntEpisode({
    N: 5,
    M: 3,
    T: 4,
    F: 2,
    corruption,
    seed,
    agents: { threshold: { rule: carryoverRule(), noise: 0.3 } },
    hashes: true,
  });

Deno.test("replayWith() reproduces both action layers and every hash of Stag Hunt logs", async () => {
  for (const corruption of ["base", "b3"] as const) {
    for (let seed = 0; seed < 6; seed++) {
      const r = await noisy(seed, corruption);
      const check = await replayWith(stagHunt, r.events);
      assert.ok(check.ok, `${corruption} seed ${seed}: ${JSON.stringify(check.mismatch)}`);
      assert.deepEqual(check.hashes, r.hashes);
      // Both layers differ somewhere, so the replay had both to reproduce.
      assert.ok(r.turns.some((t) => t.originalAction !== t.publicAction));
    }
  }
});

Deno.test("replayWith() names the first difference when an original action is tampered with", async () => {
  const r = await noisy(2, "base");
  const events = structuredClone(r.events) as EngineEvent[];
  const report = events.find((e) =>
    e.type === "report" && e.call === "stag_hunt_turn" && e.round === 2
  )!;
  if (report.type !== "report") throw new Error();
  report.report.action = report.report.action === "Stag" ? "Hare" : "Stag";
  const check = await replayWith(stagHunt, events);
  assert.equal(check.ok, false);
  assert.equal(check.mismatch?.round, 2);
});

Deno.test("replayWith() catches a tampered public action in a turn event", async () => {
  const r = await noisy(4, "base");
  const events = structuredClone(r.events) as EngineEvent[];
  const turn = events.find((e) => e.type === "turn" && e.corrupted && e.round === 3)!;
  if (turn.type !== "turn") throw new Error();
  turn.public_action = turn.original_action;
  const check = await replayWith(stagHunt, events);
  assert.equal(check.ok, false);
  assert.equal(check.mismatch?.kind, "events");
  assert.equal(check.mismatch?.round, 3);
});

Deno.test("runStagHuntEpisode() writes a log whose turns read back identically", async () => {
  const dir = await makeTempDir();
  try {
    const r = await runStagHuntEpisode({ N: 3, M: 2, T: 2, F: 1, seed: 9, outDir: dir, run: "t" });
    assert.equal(r.logPath, `${dir}/t/staghunt_N3_M2_T2_F1_base_h1_s9.ndjson`);
    const events = await readEpisodeLog(r.logPath!);
    assert.deepEqual(turnsFromEvents(events), r.turns);
    assert.ok((await replayWith(stagHunt, events)).ok);
    // Written atomically: no temporary file is left beside it.
    const names = [...Deno.readDirSync(`${dir}/t`)].map((e) => e.name);
    assert.deepEqual(names, ["staghunt_N3_M2_T2_F1_base_h1_s9.ndjson"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("turnsFromEvents() reads several concatenated episodes and skips other environments", async () => {
  const a = await runStagHuntEpisode({ N: 2, M: 1, T: 1, seed: 1, episode: "a" });
  const b = await runStagHuntEpisode({ N: 3, M: 2, T: 2, seed: 2, episode: "b" });
  const turns = turnsFromEvents([...a.events, ...b.events]);
  assert.deepEqual(turns.map((t) => t.episode), ["a", "a", "b", "b", "b", "b", "b", "b"]);
  const other = a.events.map((e) =>
    e.type === "episode_start" ? { ...e, env: "bank_run" } : e
  ) as EngineEvent[];
  assert.equal(turnsFromEvents(other).length, 0);
});

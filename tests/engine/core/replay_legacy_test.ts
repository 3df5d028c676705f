// Logs written before the stream derivation and the events hash changed
// (no `rng` or `hashing` in episode_start) still replay with the derivation
// and hash they were written with; a log naming an unknown one is refused.
// The fixtures were written by commit ff3cd65 (the last with the SHA-256
// derivation): bank run M0 and M3 (4 depositors, 3 rounds) and a Stag Hunt
// episode under b3 (whose public actions are drawn).
import { assert, assertEquals, assertRejects } from "../../_assert.ts";
import { readEpisodeLog } from "../../../engine/core/log_file.ts";
import { replayWith } from "../../../engine/core/replay.ts";
import type { EngineEvent } from "../../../engine/core/events.ts";
import type { AnyEnvironment } from "../../../engine/frail/registry.ts";
import { bankRun } from "../../../engine/frail/bank_run/environment.ts";
import { stagHunt } from "../../../engine/staghunt/environment.ts";
import { withFlippedDecision } from "../frail/_scripted.ts";

const dir = new URL("./fixtures/", import.meta.url).pathname;
const LOGS: readonly { file: string; env: AnyEnvironment }[] = [
  { file: "bank_run_M0_stable_s11.ndjson", env: bankRun },
  { file: "bank_run_M3_stable_s11.ndjson", env: bankRun },
  { file: "staghunt_N3_M2_T2_F1_b3_h1_s4.ndjson", env: stagHunt },
];

Deno.test("replayWith() replays logs written with the sha256-v1 streams and canonical-v1 events hash", async () => {
  for (const { file, env } of LOGS) {
    const events = await readEpisodeLog(dir + file);
    const start = events[0];
    assert(start.type === "episode_start" && start.rng === undefined && !start.hashing, file);
    const check = await replayWith(env, events);
    assert(check.ok, `${file}: ${JSON.stringify(check.mismatch)}`);
    const recorded = events.filter((e) => e.type === "checkpoint").map((e) =>
      e.type === "checkpoint" && e.state_hash
    );
    assertEquals(check.hashes, recorded, file);
  }
});

Deno.test("replayWith() names the field of a tampered legacy log", async () => {
  const events = await readEpisodeLog(dir + LOGS[0].file);
  const check = await replayWith(bankRun, withFlippedDecision(events, 1));
  assertEquals([check.ok, check.mismatch?.round, check.mismatch?.kind], [false, 1, "events"]);
  assert(check.mismatch!.field.endsWith(".realized"), check.mismatch!.field);
});

Deno.test("replayWith() refuses a log whose stream derivation or events hash it does not know, naming it", async () => {
  const events = await readEpisodeLog(dir + LOGS[0].file);
  const renamed = (field: string, value: string) =>
    events.map((e) => e.type === "episode_start" ? { ...e, [field]: value } : e) as EngineEvent[];
  await assertRejects(
    () => replayWith(bankRun, renamed("rng", "splitmix-v9")),
    RangeError,
    `Cannot replay: the log's rng "splitmix-v9" is unknown to this build, which replays ` +
      `"murmur3-xoshiro128ss-v2" and "sha256-v1"`,
  );
  await assertRejects(
    () => replayWith(bankRun, renamed("hashing", "blake3")),
    RangeError,
    `the log's hashing "blake3" is unknown`,
  );
});

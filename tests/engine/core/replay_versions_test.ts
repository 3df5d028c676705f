// Every log names its stream derivation (`rng`) and events-hash definition
// (`hashing`); replay refuses a log that names one this build does not know,
// or none, naming the field, and readers refuse an event schema 1 log by name.
import { assertRejects, assertThrows } from "../../_assert.ts";
import { parseEpisodeLog } from "../../../engine/core/log_file.ts";
import { replayWith } from "../../../engine/core/replay.ts";
import type { EngineEvent } from "../../../engine/core/events.ts";
import { bankRun } from "../../../engine/games/bank_run/environment.ts";
import { runEpisode } from "../../../engine/run_episode.ts";

async function events(): Promise<EngineEvent[]> {
  const r = await runEpisode({
    env: "bank_run",
    seed: 11,
    params: { depositors: 4, totalDeposits: 4, horizon: 3 },
    clock: () => "t",
  });
  return r.events;
}

Deno.test("replayWith() refuses a log whose stream derivation or events hash it does not know, or lacks, naming it", async () => {
  const log = await events();
  const with_ = (field: string, value: string | undefined) =>
    log.map((e) => e.type === "episode_start" ? { ...e, [field]: value } : e) as EngineEvent[];
  await assertRejects(
    () => replayWith(bankRun, with_("rng", "splitmix-v9")),
    RangeError,
    `Cannot replay: the log names an unknown rng, "splitmix-v9": this build replays rng ` +
      `"murmur3-xoshiro128ss-v2"`,
  );
  await assertRejects(
    () => replayWith(bankRun, with_("hashing", "blake3")),
    RangeError,
    `the log names an unknown hashing, "blake3"`,
  );
  await assertRejects(
    () => replayWith(bankRun, with_("rng", undefined)),
    RangeError,
    `Cannot replay: the log has no "rng" field; this build replays rng "murmur3-xoshiro128ss-v2"`,
  );
});

Deno.test("parseEpisodeLog() refuses an event schema 1 log by name", async () => {
  const text = (await events()).map((e) => JSON.stringify({ ...e, schema: 1 })).join("\n");
  assertThrows(
    () => parseEpisodeLog(text, "old.ndjson"),
    RangeError,
    "old.ndjson:1: event schema 1 is not supported (this build reads 2); schema 1 logs (coordlab 0.1)",
  );
});

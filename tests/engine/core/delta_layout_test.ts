// The delta layout ("lines-v6", issue 23): a block line leaves out what the
// lines before it imply (its round, step, seq and time; the members the
// previous line of its type and agent repeats; a checkpoint state's unchanged
// pieces). Decoding gives exactly the events the recorder had, members in
// their order, for every game and an LLM-scripted episode; the hashes are over
// the written bytes less the time members; replay, the segments and the
// loaders read it; a malformed line is an error naming its file and line.
import { assert, assertEquals, assertRejects, assertThrows } from "../../_assert.ts";
import { playEpisode } from "../../../engine/core/episode.ts";
import type { EngineEvent } from "../../../engine/core/events.ts";
import { eventsHash, type HashingVersion } from "../../../engine/core/events_hash.ts";
import { deltaBlockLines, LogLineDecoder } from "../../../engine/core/event_layout.ts";
import { EventRecorder } from "../../../engine/core/event_recorder.ts";
import { sha256Hex } from "../../../engine/core/hash.ts";
import { parseEpisodeLog, writeEpisodeLogText } from "../../../engine/core/log_file.ts";
import { frailSetup } from "../../../engine/frail/descriptor.ts";
import { FRAIL_ENV_IDS } from "../../../engine/frail/registry.ts";
import { MECHANISMS } from "../../../engine/frail/types.ts";
import { bankRunGame } from "../../../engine/games/bank_run/descriptor.ts";
import { replayEpisode, runEpisode } from "../../../engine/run_episode.ts";
import {
  readLogEpisodes,
  recoverSegment,
  segmentIndexPath,
  SegmentWriter,
} from "../../../engine/grid/segments.ts";
import { loadRuns } from "../../../analysis/load/load_runs.ts";
import { readLogFile } from "../../../analysis/viewer/_log_source.ts";
import { scriptedEpisode } from "./_scripted_llm.ts";

/** A clock that moves 7 ms every other read from 2026-12-01T12:00:00Z. */
function steppingClock(): () => string {
  let n = 0;
  return () => new Date(Date.UTC(2026, 11, 1, 12) + 7 * Math.floor(n++ / 2)).toISOString();
}

/** A bank-run M0 episode of the default (defensive) mock agents. */
async function bankRunM0(seed: number, hashing?: HashingVersion, run = "adhoc") {
  return await playEpisode(bankRunGame.environment, {
    ...frailSetup(bankRunGame, { mechanism: "M0", regime: "stable" }),
    seed,
    agents: bankRunGame.mockAgents({ seed }),
    run,
    episode: `bank_run_M0_stable_s${seed}`,
    ndjson: true,
    clock: steppingClock(),
    ...(hashing ? { hashing } : {}),
  });
}

/** Each event's JSON text: equal texts are equal events with their members in the same order. */
function texts(events: readonly object[]): string[] {
  return events.map((e) => JSON.stringify(e));
}

/** Checks a v6 log against the events its recorder had, and its segment hashes against eventsHash. */
async function checkLog(ndjson: string, events: readonly EngineEvent[], where: string) {
  assert(ndjson.startsWith('{"schema":4,'), where);
  const decoded = parseEpisodeLog(ndjson, where);
  assertEquals(texts(decoded), texts(events), where);
  // deltaBlockLines() rebuilds the same bytes from the events.
  assertEquals(deltaBlockLines(events).map((l) => l.line + "\n").join(""), ndjson, where);
  // Every segment's hash, recomputed from the events with the ones before them.
  let from = 0;
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as Record<string, unknown>;
    if (e.type === "round_start" && from > 0) from = i;
    if (e.type === "checkpoint") {
      const h = eventsHash(events.slice(from, i), { before: events.slice(0, from) });
      assertEquals(h, e.events_hash, `${where}: round ${e.round}`);
      from = i + 1;
    }
  }
  const replay = await replayEpisode(decoded);
  assertEquals([replay.ok, replay.hashing], [true, "lines-v6"], `${where}: ${JSON.stringify(replay.mismatch)}`);
}

Deno.test("every game's lines-v6 log decodes to exactly its recorder's events and replays", async () => {
  for (const env of FRAIL_ENV_IDS) {
    for (const mechanism of MECHANISMS) {
      for (const seed of [1, 2]) {
        const r = await runEpisode({ env, mechanism, seed, ndjson: true, clock: steppingClock() });
        await checkLog(r.ndjson!, r.events, `${env}/${mechanism}/${seed}`);
      }
    }
  }
  const hunt = await runEpisode({
    game: "staghunt",
    N: 4,
    M: 2,
    T: 3,
    F: 1,
    seed: 3,
    ndjson: true,
    clock: steppingClock(),
  });
  await checkLog(hunt.ndjson!, hunt.events, "staghunt");
  const effort = await runEpisode({ game: "min_effort", seed: 3, ndjson: true, clock: steppingClock() });
  await checkLog(effort.ndjson!, effort.events, "min_effort");
  for (const fail of [false, true]) {
    const llm = await scriptedEpisode({ fail });
    await checkLog(llm.ndjson!, llm.events, `scripted fail=${fail}`);
    // The state hashes and the outcome are those of lines-v5.
    const v5 = await scriptedEpisode({ fail, hashing: "lines-v5" });
    assertEquals([llm.hashes, llm.outcome], [v5.hashes, v5.outcome]);
  }
});

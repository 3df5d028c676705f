// "lines-v8" (issue 23) on the Stag Hunt, whose mock players' reports were a
// third of a logged episode's bytes: a template per (type, agent, step), so a
// corrupted player's turn and rejustification each have their own, and object
// members the template repeats left out. The lines-v7 fixture (real bytes of
// 75dc13a) still reads, replays and loads to the same frames.
import { assert, assertEquals } from "../../../_assert.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { sha256Hex } from "../../../../engine/core/hash.ts";
import { canonicalJson } from "../../../../engine/core/canonical_json.ts";
import { parseEpisodeLog } from "../../../../engine/core/log_file.ts";
import { replayEpisode } from "../../../../engine/run_episode.ts";
import { readLogEpisodes } from "../../../../engine/grid/segments.ts";
import { assertHuntFramesAlike, checkpoints, gameTexts, hunt, huntFixture } from "./_hunt_log.ts";

const V7 = huntFixture("lines_v7");

Deno.test("a lines-v8 Stag Hunt log leaves out the reports its players repeat; the bytes are pinned", async () => {
  const v8 = await hunt(22);
  const lines = v8.text.trimEnd().split("\n");
  assertEquals([new TextEncoder().encode(v8.text).length, lines.length], [8_001, 65]);
  assert(lines[0].startsWith('{"schema":5,"run":"fixture",'));
  // Round 1 writes each report whole; round 2's turn and rejustification of the corrupted
  // p01 repeat round 1's of their own step, objects and all, and the turn and payoffs too.
  assertEquals(
    lines[4],
    '{"step":"turn_1","type":"report","agent":"p01","role":"player","call":"stag_hunt_turn",' +
      '"report":{"action":"Stag","confidence":0.6142724318676105,"justification":' +
      '"My first-speaker prior 0.500 is at or above the cutoff 0.386."}}',
  );
  assertEquals(lines.slice(18, 22), [
    '{"round":2,"step":"start","ms":14,"type":"round_start"}',
    '{"step":"turn_1","type":"report","agent":"p01"}',
    '{"step":"rejustify_1","type":"report","agent":"p01"}',
    '{"type":"turn","agent":"p01"}',
  ]);
  assertEquals(lines[31], '{"step":"settle","type":"transition"}');
  const events = parseEpisodeLog(v8.text);
  assertEquals((events[0] as { hashing?: string }).hashing, "lines-v8");
  // The events, outcome and state hashes of the lines-v7 fixture; events hashes of its own bytes.
  const fixture = parseEpisodeLog(await Deno.readTextFile(V7), V7);
  const untagged = (es: readonly EngineEvent[]) =>
    gameTexts(es).map((t) => t.replace(/,"events_hash":"[0-9a-f]{64}"\}$/, "}"));
  assertEquals(untagged(events), untagged(fixture));
  const [now, then] = [checkpoints(events), checkpoints(fixture)];
  assertEquals(now.map((c) => c.state_hash), then.map((c) => c.state_hash));
  for (const [i, c] of now.entries()) {
    assertEquals(c.state_hash, sha256Hex(canonicalJson(c.state)));
    assert(c.events_hash !== then[i].events_hash);
  }
  assertEquals(await replayEpisode(events), {
    ok: true,
    rounds: 4,
    hashes: v8.hashes,
    hashing: "lines-v8",
  });
});

Deno.test("a lines-v7 Stag Hunt log (real bytes of 75dc13a) is what the lines-v7 writer writes, and still reads and replays", async () => {
  const text = await Deno.readTextFile(V7);
  assertEquals((await hunt(22, "lines-v7")).text, text);
  const events = parseEpisodeLog(text, V7);
  assertEquals([events.length, (events[0] as { hashing?: string }).hashing], [64, "lines-v7"]);
  const replay = await replayEpisode(events);
  assertEquals([replay.ok, replay.hashing, replay.rounds], [true, "lines-v7", 4]);
  const [one] = await readLogEpisodes(V7);
  assertEquals(one.events.map((e) => JSON.stringify(e)), events.map((e) => JSON.stringify(e)));
  // An edited report of round 3, which round 1's lines-v8 template would leave out, is caught.
  const at = events.findIndex((e) =>
    e.type === "report" && e.round === 3 && (e as { agent?: string }).agent === "p01"
  );
  const edited = events.map((e, i) =>
    i === at
      ? { ...e, report: { action: "Hare", confidence: 0.5, justification: "x" } } as never
      : e
  );
  const r = await replayEpisode(edited);
  assertEquals([r.ok, r.mismatch?.round], [false, 3]);
});

Deno.test("a Stag Hunt's lines-v8 logs load to the same frames as its lines-v7 logs", async () => {
  await assertHuntFramesAlike("lines-v7", "lines-v8");
});

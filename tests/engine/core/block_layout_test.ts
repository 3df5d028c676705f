// The block layout ("lines-v5", issue 23): each episode's lines start with a
// header holding what every line of the old layout repeated (schema, run,
// episode, start time); the lines after it carry only their own members and a
// compact time. Every reader gives the same events and frames from either
// layout; old logs (a committed fixture of real "lines-v4" bytes, written by
// commit 8ba9bfd) read and replay as before; a block line outside a block is
// an error naming its file and line.
import { assert, assertEquals, assertRejects, assertThrows } from "../../_assert.ts";
import { playEpisode } from "../../../engine/core/episode.ts";
import type { EngineEvent } from "../../../engine/core/events.ts";
import { eventsHash, type HashingVersion } from "../../../engine/core/events_hash.ts";
import { blockText, LogLineDecoder } from "../../../engine/core/event_layout.ts";
import { EventRecorder } from "../../../engine/core/event_recorder.ts";
import { sha256Hex } from "../../../engine/core/hash.ts";
import { parseEpisodeLog, writeEpisodeLogText } from "../../../engine/core/log_file.ts";
import { frailSetup } from "../../../engine/frail/descriptor.ts";
import { bankRunGame } from "../../../engine/games/bank_run/descriptor.ts";
import { replayEpisode } from "../../../engine/run_episode.ts";
import {
  readLogEpisodes,
  recoverSegment,
  segmentIndexPath,
  SegmentWriter,
} from "../../../engine/grid/segments.ts";
import { loadRuns } from "../../../analysis/load/load_runs.ts";
import { assertSameFrames, perReadClock } from "./_log_layouts.ts";
import { readLogFile } from "../../../analysis/viewer/_log_source.ts";
import { scriptedEpisode } from "./_scripted_llm.ts";
import { makeTempDir } from "../../_temp.ts";

const FIXTURE = new URL(
  "../../fixtures/lines_v4/fixture/bank_run_M0_stable_s22.ndjson",
  import.meta.url,
).pathname;

/** A clock that moves 7 ms per read from 2026-12-01T12:00:00Z (the fixture's). */

/** A bank-run M0 episode of the default (defensive) mock agents, as `runEpisode` plays it. */
async function bankRunM0(seed: number, hashing: HashingVersion = "lines-v5", run = "fixture") {
  return await playEpisode(bankRunGame.environment, {
    ...frailSetup(bankRunGame, { mechanism: "M0", regime: "stable" }),
    seed,
    agents: bankRunGame.mockAgents({ seed }),
    run,
    episode: `bank_run_M0_stable_s${seed}`,
    ndjson: true,
    clock: perReadClock(),
    hashing,
  });
}

/** The events but for what depends on the hashing definition. */
function unhashed(events: readonly EngineEvent[]): Record<string, unknown>[] {
  return events.map((e) => {
    const { hashing: _h, events_hash: _e, event_hash: _o, ...rest } = e as Record<string, unknown>;
    return rest;
  });
}

Deno.test("a lines-v5 log is a block header and lines without schema, run and episode, its time compact", async () => {
  const r = await bankRunM0(22);
  const lines = r.ndjson!.trimEnd().split("\n");
  assertEquals(
    lines[0],
    '{"schema":3,"run":"fixture","episode":"bank_run_M0_stable_s22","time":"2026-12-01T12:00:00.000Z"}',
  );
  assert(lines[1].startsWith('{"round":0,"step":"setup","seq":0,"type":"episode_start",'));
  // Round 1 started at the clock's second read: 7 ms after the header's time.
  const round1 = lines.find((l) => l.includes('"type":"round_start"'))!;
  assertEquals(round1, '{"round":1,"step":"start","seq":1,"ms":7,"type":"round_start"}');
  assert(lines.slice(1).every((l) => l.startsWith('{"round":') && !l.includes('"episode":')));
  // The recorder's bytes are blockText() of its events, and read back as those events.
  assertEquals(r.ndjson, blockText(r.events));
  assertEquals(parseEpisodeLog(r.ndjson!), r.events);
  // A clock that is not ISO text is written whole where it differs from the header's.
  const d = new LogLineDecoder();
  d.decode({ schema: 3, run: "r", episode: "e", time: "t0" });
  assertEquals(
    blockText([{
      schema: 2,
      run: "r",
      episode: "e",
      round: 0,
      step: "s",
      seq: 0,
      time: "t1",
      type: "x",
    }]),
    '{"schema":3,"run":"r","episode":"e","time":"t1"}\n{"round":0,"step":"s","seq":0,"type":"x"}\n',
  );
  assertEquals(
    (d.decode({ round: 0, step: "s", seq: 0, time: "t9", type: "x" }) as Record<string, unknown>)
      .time,
    "t9",
  );
  assertEquals(
    d.decode({ round: 0, step: "s", seq: 0, ms: 1, type: "x" }),
    `a block line carries "ms" but its header's time "t0" is not ISO 8601 text`,
  );
});

Deno.test("a seeded bank-run M0 episode takes exactly these bytes in each layout", async () => {
  // Defensive mock agents, seed 3, run "adhoc" (runEpisode's defaults), the stepping clock.
  const sizes: Record<string, [number, number]> = {};
  for (const hashing of ["lines-v4", "lines-v5"] as const) {
    const r = await bankRunM0(3, hashing, "adhoc");
    sizes[hashing] = [r.ndjsonBytes!.length, r.ndjson!.trimEnd().split("\n").length];
  }
  assertEquals(sizes, { "lines-v4": [72291, 196], "lines-v5": [55685, 197] });
});

Deno.test("an old lines-v4 log (real bytes of 8ba9bfd) reads, replays, and is what the lines-v4 writer still writes", async () => {
  const text = await Deno.readTextFile(FIXTURE);
  const events = parseEpisodeLog(text, FIXTURE);
  assertEquals([events.length, (events[0] as { hashing?: string }).hashing], [105, "lines-v4"]);
  const replay = await replayEpisode(events);
  assertEquals([replay.ok, replay.hashing, replay.rounds], [true, "lines-v4", 3]);
  assertEquals((await bankRunM0(22, "lines-v4")).ndjson, text);
  // Read back through a segment file, with the old block beside a new one.
  const [old] = await readLogEpisodes(FIXTURE);
  assertEquals(old.events, events);
});

Deno.test("the lines-v5 log of an episode loads to the same events and frames as its lines-v4 log", async () => {
  const dir = await makeTempDir();
  try {
    const v5 = await bankRunM0(22);
    writeEpisodeLogText(`${dir}/new/fixture/bank_run_M0_stable_s22.ndjson`, v5.ndjson!);
    await Deno.mkdir(`${dir}/old/fixture`, { recursive: true });
    await Deno.copyFile(FIXTURE, `${dir}/old/fixture/bank_run_M0_stable_s22.ndjson`);
    const oldEvents = parseEpisodeLog(await Deno.readTextFile(FIXTURE));
    const newEvents = parseEpisodeLog(v5.ndjson!);
    assertEquals(unhashed(newEvents), unhashed(oldEvents));
    assertEquals((await replayEpisode(newEvents)).ok, true);
    // The episodes frame differs only where the definition does: its hashing id and hash.
    await assertSameFrames(`${dir}/old`, `${dir}/new`, [
      "rounds",
      "decisions",
      "mechanisms",
      "corrections",
      "calls",
    ]);
    // The viewer reads the same events.
    const [va, vb] = [
      await readLogFile(`${dir}/old/fixture/bank_run_M0_stable_s22.ndjson`),
      await readLogFile(`${dir}/new/fixture/bank_run_M0_stable_s22.ndjson`),
    ];
    assertEquals([va.malformed, vb.malformed], [[], []]);
    assertEquals(
      unhashed(vb.episodes[0].events as unknown as EngineEvent[]),
      unhashed(va.episodes[0].events as unknown as EngineEvent[]),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lines-v5 hashes are SHA-256 over the block's bytes less the time members, agent-side events included", async () => {
  const r = await scriptedEpisode({ fail: true, hashing: "lines-v5" });
  const lines = r.ndjson!.trimEnd().split("\n");
  const header = lines.shift()!;
  let segment = header.replace(',"time":"2026-01-01T00:00:00.000Z"', "") + "\n";
  assertEquals(segment, '{"schema":3,"run":"adhoc","episode":"ep"}\n');
  const seen = { agentSide: 0, checkpoints: 0, ends: 0 };
  for (const line of lines) {
    // The clock never moves here: no line carries a time member.
    assert(!line.includes('"ms":') && !line.includes('"time":'), line);
    const e = JSON.parse(line) as Record<string, unknown>;
    if (typeof e.event_hash === "string") {
      const own = line.replace(`,"event_hash":"${e.event_hash}"}`, "}");
      assertEquals(e.event_hash, sha256Hex(own));
      seen.agentSide++;
    }
    if (e.type === "checkpoint") {
      assertEquals(e.events_hash, sha256Hex(segment), `round ${e.round}`);
      segment = "";
      seen.checkpoints++;
    } else if (e.type === "episode_end") {
      const own = line.replace(`,"events_hash":"${e.events_hash}"}`, "}");
      assertEquals(e.events_hash, sha256Hex(segment + own + "\n"));
      seen.ends++;
    } else segment += line + "\n";
  }
  assertEquals(seen, { agentSide: 296, checkpoints: 12, ends: 1 });
  // eventsHash() gives the same from the events, and replay verifies the log read back.
  const events = parseEpisodeLog(r.ndjson!);
  const cp = events.findIndex((e) => e.type === "checkpoint");
  assertEquals(
    eventsHash(events.slice(0, cp), { hashing: "lines-v5" }),
    (events[cp] as { events_hash?: string }).events_hash,
  );
  const check = await replayEpisode(events);
  assertEquals([check.ok, check.hashing, check.note], [true, "lines-v5", undefined]);
  // The state hashes are those of lines-v4 (the same states), the outcome too.
  const v4 = await scriptedEpisode({ fail: true, hashing: "lines-v4" });
  assertEquals([r.hashes, r.outcome], [v4.hashes, v4.outcome]);
});

Deno.test("a block line outside a block is an error naming the file and line, in every reader", async () => {
  const r = await bankRunM0(22);
  const lines = r.ndjson!.split("\n");
  const headless = lines.slice(1).join("\n");
  const message = `a block line (no "schema") outside a block (before any block header ` +
    `{"schema":3,...}, or after its block's episode_end): the header line is missing`;
  assertThrows(
    () => parseEpisodeLog(headless, "cut.ndjson"),
    SyntaxError,
    `cut.ndjson:1: ${message}`,
  );
  // After its block's episode_end, a block line has no header either.
  const after = r.ndjson! + lines[2] + "\n";
  assertThrows(
    () => parseEpisodeLog(after, "after.ndjson"),
    SyntaxError,
    `after.ndjson:107: ${message}`,
  );
  const dir = await makeTempDir();
  try {
    const file = `${dir}/run/cut.ndjson`;
    writeEpisodeLogText(file, headless);
    await assertRejects(
      () => loadRuns(dir, { strict: true }),
      SyntaxError,
      `${file}:1: ${message}`,
    );
    const lenient = await loadRuns(dir);
    assertEquals(lenient.malformed.length, 105);
    assertEquals(lenient.malformed[0], { file, line: 1, message });
    const viewed = await readLogFile(file);
    assertEquals([viewed.episodes.length, viewed.malformed[0]], [0, { file, line: 1, message }]);
    await assertRejects(() => readLogEpisodes(file), SyntaxError, `${file}:1: ${message}`);
    // A segment's recovery refuses such a block rather than guess whose it is.
    await Deno.mkdir(`${dir}/seg`);
    const writer = SegmentWriter.create(`${dir}/seg`, "t");
    writer.appendText({ run: "fixture", episode: "bank_run_M0_stable_s22", bytes: r.ndjsonBytes! });
    writer.close();
    const seg = writer.path;
    Deno.writeTextFileSync(seg, headless, { append: true });
    await assertRejects(
      () => recoverSegment(seg),
      RangeError,
      `holds a block line (no "schema") outside a block: its header line ({"schema":3,...}) is missing`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a segment holds blocks of both layouts; its readers and its recovery read both", async () => {
  const dir = await makeTempDir();
  try {
    const old = await bankRunM0(22, "lines-v4");
    const v5 = await bankRunM0(26);
    const writer = SegmentWriter.create(dir, "mix");
    const a = writer.appendText({
      run: "fixture",
      episode: "bank_run_M0_stable_s22",
      text: old.ndjson!,
    });
    const b = writer.appendText({
      run: "fixture",
      episode: "bank_run_M0_stable_s26",
      bytes: v5.ndjsonBytes!,
    });
    // The status is read from the last line when not given, in either layout.
    assertEquals([a.status, b.status, b.offset], ["ok", "ok", old.ndjsonBytes!.length]);
    assertThrows(
      () => writer.appendText({ run: "fixture", episode: "other", bytes: v5.ndjsonBytes! }),
      TypeError,
      'the lines of episode "other"',
    );
    writer.close();
    const episodes = await readLogEpisodes(writer.path);
    assertEquals(episodes.map((e) => e.events), [old.events, v5.events]);
    const frames = await loadRuns(dir, { frames: ["decisions"], strict: true });
    assertEquals(frames.episodes.height, 2);
    assertEquals(
      frames.decisions.height,
      [...old.events, ...v5.events].filter((e) => e.type === "decision").length,
    );
    // An index lost: recovery finds both blocks again from their lines.
    await Deno.remove(segmentIndexPath(writer.path));
    const recovered = await recoverSegment(writer.path);
    assertEquals(recovered.entries.map((e) => [e.episode, e.offset, e.bytes, e.status]), [
      ["bank_run_M0_stable_s22", a.offset, a.bytes, "ok"],
      ["bank_run_M0_stable_s26", b.offset, b.bytes, "ok"],
    ]);
    // A torn block-layout tail is cut, naming its episode from its header.
    Deno.writeTextFileSync(
      writer.path,
      new TextDecoder().decode(v5.ndjsonBytes!.subarray(0, 500)),
      {
        append: true,
      },
    );
    const torn = await recoverSegment(writer.path);
    assertEquals([torn.truncated, torn.entries.length], ["bank_run_M0_stable_s26", 2]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the recorder refuses a body that carries a member the block header or time holds; a body's own round is kept", () => {
  const record = (body: Record<string, unknown>) => {
    const rec = new EventRecorder({
      run: "r",
      episode: "e",
      keep: true,
      lines: true,
      hashes: true,
      hashing: "lines-v5",
      clock: () => "2026-12-01T12:00:00.000Z",
    });
    rec.tick();
    rec.emit(body as never);
    return rec;
  };
  for (const key of ["run", "episode", "time", "ms"]) {
    assertThrows(
      () => record({ type: "transition", kind: "k", [key]: "x" }),
      TypeError,
      `A "transition" event with its own "${key}" cannot be logged in the block layout ("lines-v5"), ` +
        `whose header and time member hold "${key}"`,
    );
  }
  // A body's own round takes the base's place, as in the event object.
  const rec = record({ type: "transition", kind: "asset_matured", round: 4 });
  assertEquals(
    rec.text.split("\n")[1],
    '{"round":4,"step":"setup","seq":0,"type":"transition","kind":"asset_matured"}',
  );
  assertEquals(parseEpisodeLog(rec.text), rec.events);
  // A line with neither a schema nor a round is not taken for a block line.
  assertThrows(
    () => parseEpisodeLog('{"type":"round_start"}\n', "x.ndjson"),
    RangeError,
    "x.ndjson:1: event schema undefined is not supported",
  );
});

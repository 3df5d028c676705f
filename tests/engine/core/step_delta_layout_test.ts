// "lines-v8" (issue 23): the delta layout's second edition (header schema 5),
// whose lines keep a template per (type, agent, step) and leave out an object
// or array member that is the same data as the template's. Hand-made events
// with their exact lines; the bank run's bytes beside lines-v7's.
import { assert, assertEquals, assertRejects, assertThrows } from "../../_assert.ts";
import { playEpisode } from "../../../engine/core/episode.ts";
import { deltaSchemaOf, eventsHash } from "../../../engine/core/events_hash.ts";
import {
  deltaBlockLines,
  isBlockHeaderLine,
  isBlockHeaderSchema,
  STEP_DELTA_SCHEMA_VERSION,
} from "../../../engine/core/event_layout.ts";
import { parseEpisodeLog, writeEpisodeLogText } from "../../../engine/core/log_file.ts";
import { frailSetup } from "../../../engine/frail/descriptor.ts";
import { bankRunGame } from "../../../engine/games/bank_run/descriptor.ts";
import { replayEpisode } from "../../../engine/run_episode.ts";
import { readLogEpisodes } from "../../../engine/grid/segments.ts";
import { loadRuns, loadRunsLazy } from "../../../analysis/load/load_runs.ts";
import { makeTempDir } from "../../_temp.ts";
import { perReadClock } from "./_log_layouts.ts";

/** Events of one block: every member but the body's own is the base's, `seq` counting up. */
function block(bodies: [round: number, step: string, body: Record<string, unknown>][]) {
  return bodies.map(([round, step, body], seq) => ({
    schema: 2,
    run: "r",
    episode: "e",
    round,
    step,
    seq,
    time: "t",
    ...body,
  }));
}

/** A player's turn and its second call each round, as a corrupted Stag Hunt player answers. */
const TWO_STEPS = block([
  [1, "start", { type: "round_start" }],
  [1, "turn", { type: "report", agent: "p1", report: { a: 1, list: [1, 2] } }],
  [1, "again", { type: "report", agent: "p1", report: { b: "x" } }],
  [2, "start", { type: "round_start" }],
  // New objects with the same data: left out under lines-v8.
  [2, "turn", { type: "report", agent: "p1", report: { a: 1, list: [1, 2] } }],
  [2, "again", { type: "report", agent: "p1", report: { b: "y" } }],
  [3, "start", { type: "round_start" }],
  // The same keys in another order, then an array of another length: written.
  [3, "turn", { type: "report", agent: "p1", report: { list: [1, 2], a: 1 } }],
  [3, "again", { type: "report", agent: "p1", report: { b: "y" }, seen: [[1, { c: null }]] }],
  [4, "start", { type: "round_start" }],
  [4, "turn", { type: "report", agent: "p1", report: { list: [1, 2], a: 1 } }],
  [4, "again", { type: "report", agent: "p1", report: { b: "y" }, seen: [[1, { c: null }]] }],
]);

Deno.test('deltaBlockLines() under "lines-v8" leaves out an object member its step\'s template repeats; "lines-v6" writes it', () => {
  const v8 = deltaBlockLines(TWO_STEPS).map((l) => l.line);
  assertEquals(v8, [
    '{"schema":5,"run":"r","episode":"e","time":"t"}',
    '{"round":1,"step":"start","type":"round_start"}',
    '{"step":"turn","type":"report","agent":"p1","report":{"a":1,"list":[1,2]}}',
    '{"step":"again","type":"report","agent":"p1","report":{"b":"x"}}',
    '{"round":2,"step":"start","type":"round_start"}',
    '{"step":"turn","type":"report","agent":"p1"}',
    '{"step":"again","type":"report","agent":"p1","report":{"b":"y"}}',
    '{"round":3,"step":"start","type":"round_start"}',
    '{"step":"turn","type":"report","agent":"p1","report":{"list":[1,2],"a":1}}',
    '{"step":"again","full":1,"type":"report","agent":"p1","report":{"b":"y"},"seen":[[1,{"c":null}]]}',
    '{"round":4,"step":"start","type":"round_start"}',
    '{"step":"turn","type":"report","agent":"p1"}',
    '{"step":"again","type":"report","agent":"p1"}',
  ]);
  // lines-v6's template is the agent's previous report, of either step: every object written.
  const v6 = deltaBlockLines(TWO_STEPS, 4).map((l) => l.line);
  assertEquals(v6[0], '{"schema":4,"run":"r","episode":"e","time":"t"}');
  assertEquals(v6[5], '{"step":"turn","type":"report","agent":"p1","report":{"a":1,"list":[1,2]}}');
  assertEquals(
    v6[12],
    '{"step":"again","full":1,"type":"report","agent":"p1","report":{"b":"y"},"seen":[[1,{"c":null}]]}',
  );
  // Both read back to the events, each with objects of its own.
  for (const lines of [v8, v6]) {
    const back = parseEpisodeLog(lines.join("\n") + "\n");
    assertEquals(back.map((e) => JSON.stringify(e)), TWO_STEPS.map((e) => JSON.stringify(e)));
    const [r2, r4] = [back[4], back[10]] as unknown as { report: { list: number[] } }[];
    assert(r2.report !== r4.report && r2.report.list !== r4.report.list);
  }
});

Deno.test('"lines-v8" writes again what it cannot tell is the same data: NaN, a class instance, no prototype, other keys', () => {
  class Box {
    constructor(readonly v: number) {}
  }
  const bare = Object.assign(Object.create(null), { v: 1 });
  const same = { v: 1 };
  const events = block([
    [1, "s", { type: "x", agent: "a", n: [NaN], box: new Box(1), bare, same }],
    [1, "s", { type: "x", agent: "a", n: [NaN], box: new Box(1), bare: { ...bare }, same }],
    [1, "s", { type: "x", agent: "a", n: [NaN], box: new Box(1), bare, same: { v: 1 } }],
    // A member fewer, then one more (undefined, so JSON has the same text): written each time.
    [1, "s", { type: "y", agent: "a", o: { a: 1, b: 2 } }],
    [1, "s", { type: "y", agent: "a", o: { a: 1 } }],
    [1, "s", { type: "y", agent: "a", o: { a: 1, c: undefined } }],
    [1, "s", { type: "y", agent: "a", o: { a: 1, c: undefined } }],
  ]);
  assertEquals(deltaBlockLines(events).map((l) => l.line).slice(1), [
    '{"round":1,"step":"s","type":"x","agent":"a","n":[null],"box":{"v":1},"bare":{"v":1},"same":{"v":1}}',
    // NaN is not === NaN; a Box is not a plain object; a prototype-less object is not either.
    '{"type":"x","agent":"a","n":[null],"box":{"v":1},"bare":{"v":1}}',
    '{"type":"x","agent":"a","n":[null],"box":{"v":1},"bare":{"v":1}}',
    '{"type":"y","agent":"a","o":{"a":1,"b":2}}',
    '{"type":"y","agent":"a","o":{"a":1}}',
    '{"type":"y","agent":"a","o":{"a":1}}',
    '{"type":"y","agent":"a"}',
  ]);
});

Deno.test('a "lines-v8" header is a block header to every reader, and its hashes cover its own bytes', () => {
  assertEquals(STEP_DELTA_SCHEMA_VERSION, 5);
  assertEquals([deltaSchemaOf("lines-v7"), deltaSchemaOf("lines-v8")], [4, 5]);
  assert(isBlockHeaderLine('{"schema":5,"run":"r","episode":"e","time":"t"}'));
  assert(isBlockHeaderSchema(5) && !isBlockHeaderSchema(6) && !isBlockHeaderSchema(2));
  // Its hashes cover its own bytes: the same events hash otherwise under lines-v7.
  const v8 = eventsHash(TWO_STEPS as never, { hashing: "lines-v8" });
  const v7 = eventsHash(TWO_STEPS as never, { hashing: "lines-v7" });
  assert(v8 !== v7 && /^[0-9a-f]{64}$/.test(v8));
});

Deno.test('a seeded bank-run M0 episode: "lines-v8" bytes against lines-v7\'s, the same events, outcome and state hashes', async () => {
  const play = (hashing: "lines-v7" | "lines-v8") =>
    playEpisode(bankRunGame.environment, {
      ...frailSetup(bankRunGame, { mechanism: "M0", regime: "stable" }),
      seed: 3,
      agents: bankRunGame.mockAgents({ seed: 3 }),
      run: "adhoc",
      episode: "bank_run_M0_stable_s3",
      ndjson: true,
      clock: perReadClock(),
      hashing,
    });
  const [v7, v8] = [await play("lines-v7"), await play("lines-v8")];
  // Every report's reasoning and probability change each round: what lines-v8 leaves out
  // here is the disclosure's public state in the rounds where nobody withdrew.
  assertEquals([v7.ndjsonBytes!.length, v8.ndjsonBytes!.length], [33632, 33032]);
  assert(v8.ndjson!.startsWith('{"schema":5,'));
  const events = parseEpisodeLog(v8.ndjson!);
  const untagged = (es: readonly unknown[]) =>
    es.map((e) => {
      const { hashing: _h, events_hash: _e, ...rest } = e as Record<string, unknown>;
      return JSON.stringify(rest);
    });
  assertEquals(untagged(events), untagged(parseEpisodeLog(v7.ndjson!)));
  assertEquals([v8.outcome, v8.hashes], [v7.outcome, v7.hashes]);
  assertEquals(await replayEpisode(events), {
    ok: true,
    rounds: 6,
    hashes: v8.hashes,
    hashing: "lines-v8",
  });
});

Deno.test("a log of a later layout (a header of schema 6) is refused by every reader, naming its schema, never loaded as nothing", async () => {
  // Before: parseEpisodeLog said "an event must be an object with a \"type\"", and loadRuns
  // listed the header as a malformed line and loaded no episode, without an error.
  const text = deltaBlockLines(TWO_STEPS).map((l) => l.line).join("\n").replace(
    '{"schema":5,',
    '{"schema":6,',
  ) + "\n";
  const message = "event schema 6 is not supported (this build reads 2)";
  assertThrows(() => parseEpisodeLog(text, "e.ndjson"), RangeError, `e.ndjson:1: ${message}`);
  const dir = await makeTempDir();
  try {
    const file = `${dir}/r/e.ndjson`;
    writeEpisodeLogText(file, text);
    await assertRejects(() => readLogEpisodes(file), RangeError, `${file}:1: ${message}`);
    await assertRejects(() => loadRuns(dir), RangeError, `${file}:1: ${message}`);
    await assertRejects(() => loadRunsLazy(dir), RangeError, `${file}:1: ${message}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// The writer and the loader's fast path share one layout
// (engine/core/event_layout.ts): every line the writer produces, for every
// event type of every game, is read back by the fast readers exactly as
// JSON.parse reads it; and what they cannot read exactly they refuse.
import { assert, assertEquals } from "../../_assert.ts";
import {
  type BlockHeader,
  type DecisionLine,
  type DeltaReader,
  eventsHashAt,
  isBlockHeaderLine,
  isoMs,
  LINE_PREFIX,
  lineHead,
  LineReader,
  LogLineDecoder,
  readDecision,
  readDeltaDecision,
  readRunEpisode,
  RUN_EPISODE_PATTERN,
  stepHead,
  TYPE_KEY,
  typeKeyAt,
} from "../../../engine/core/event_layout.ts";
import { EventRecorder } from "../../../engine/core/event_recorder.ts";
import type { EventBody } from "../../../engine/core/events.ts";
import { runEpisode } from "../../../engine/run_episode.ts";
import { runStagHuntEpisode } from "../../../engine/run_staghunt_episode.ts";
import { FRAIL_ENV_IDS } from "../../../engine/frail/registry.ts";
import { MECHANISMS } from "../../../engine/frail/types.ts";

/** Every event type the engine writes. */
const ALL_TYPES = [
  "episode_start",
  "round_start",
  "report",
  "correction",
  "agent_error",
  "llm_call",
  "decision",
  "override",
  "mechanism",
  "message",
  "transition",
  "failure",
  "disclosure",
  "turn",
  "checkpoint",
  "episode_end",
] as const;
// The list is the union's: a new event type fails to compile until listed.
type Unlisted = Exclude<EventBody["type"] | "checkpoint", (typeof ALL_TYPES)[number]>;
const _allListed: [Unlisted] extends [never] ? true : false = true;

/**
 * What the fast readers give for a line, in the shape JSON.parse gives it (or
 * why not); a block line (`"lines-v5"`) is read with its block's header.
 */
function fastRead(line: string, header?: BlockHeader): Record<string, unknown> {
  const at = typeKeyAt(line, 0, line.length);
  if (at === -1) return { refused: "type" };
  const block = !line.startsWith(LINE_PREFIX);
  const r = new LineReader(line, block ? 1 : LINE_PREFIX.length, line.length);
  const head = block ? header : readRunEpisode(r);
  if (head === undefined) return { refused: "head" };
  const typeEnd = line.indexOf('"', at + TYPE_KEY.length);
  const out: Record<string, unknown> = {
    run: head.run,
    episode: head.episode,
    type: line.slice(at + TYPE_KEY.length, typeEnd),
  };
  if (out.type === "decision") {
    const d = {} as DecisionLine;
    if (!readDecision(r, at, d)) return { refused: "decision" };
    Object.assign(out, d);
  }
  const hash = eventsHashAt(line, 0, line.length);
  if (hash !== undefined) out.events_hash = line.slice(hash[0], hash[1]);
  return out;
}

/**
 * What the fast readers give for a line of a `"lines-v6"` block (its head
 * read, a decision's body with its template), committing what they read; a
 * line they refuse (`"full":1`, written whole) is read by `skipParsed`.
 */
function fastDeltaRead(line: string, delta: DeltaReader): Record<string, unknown> {
  const at = delta.readHead(line, 0, line.length);
  if (at === -1) {
    delta.skipParsed(JSON.parse(line));
    return { refused: "head" };
  }
  const typeEnd = line.indexOf('"', at + TYPE_KEY.length);
  const type = line.slice(at + TYPE_KEY.length, typeEnd);
  const out: Record<string, unknown> = {
    run: delta.header.run,
    episode: delta.header.episode,
    type,
    ...delta.headRead,
  };
  if (type === "decision") {
    const d = {} as DecisionLine;
    if (!readDeltaDecision(delta, line, at, line.length, d)) return { refused: "decision" };
    Object.assign(out, d);
  } else delta.commitHead(type, true);
  const hash = eventsHashAt(line, 0, line.length);
  if (hash !== undefined) out.events_hash = line.slice(hash[0], hash[1]);
  return out;
}

/** The same members, read by JSON.parse (a block line rebuilt from its header by the decoder). */
function parsed(
  event: Record<string, unknown>,
  fast: Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(Object.keys(fast).map((k) => [k, event[k]]));
}

/** Checks every line of a log both ways; returns the types seen. */
function roundTrip(text: string, where: string): Set<string> {
  const types = new Set<string>();
  const lines = text.split("\n").filter((l) => l !== "");
  const decoder = new LogLineDecoder();
  // The fast readers' own decoder (a "lines-v6" block's state is theirs to keep).
  const fastDecoder = new LogLineDecoder();
  for (const [i, line] of lines.entries()) {
    const m = RUN_EPISODE_PATTERN.exec(line);
    const header = decoder.header;
    const delta = fastDecoder.delta;
    const event = decoder.decode(JSON.parse(line));
    if (delta === undefined) fastDecoder.decode(JSON.parse(line));
    if (event === undefined) {
      // A block header: it names the episode of the lines that follow.
      assert(isBlockHeaderLine(line), line);
      assertEquals([m?.[1], m?.[2]], [decoder.header?.run, decoder.header?.episode]);
      continue;
    }
    assert(typeof event === "object", `${where}:${i + 1}: ${event}`);
    const fast = delta !== undefined ? fastDeltaRead(line, delta) : fastRead(line, header);
    if (delta !== undefined && event.type === "episode_end") fastDecoder.delta = undefined;
    if (fast.refused === "head" && line.includes('"full":1,"type"')) {
      types.add(event.type as string);
      continue;
    }
    assertEquals(fast, parsed(event, fast), `${where}:${i + 1}: ${line.slice(0, 200)}`);
    if (header === undefined) {
      assertEquals([m?.[1], m?.[2]], [fast.run, fast.episode], `${where}:${i + 1}`);
    } else assertEquals(m, null, "a block line names no run");
    types.add(fast.type as string);
  }
  return types;
}

Deno.test("every line of every game's episodes reads back on the fast path as JSON.parse reads it", async () => {
  const seen = new Set<string>();
  for (const env of FRAIL_ENV_IDS) {
    for (const mechanism of MECHANISMS) {
      for (const seed of [1, 2]) {
        const { ndjson } = await runEpisode({ env, mechanism, seed, ndjson: true, run: "r" });
        for (const t of roundTrip(ndjson!, `${env}/${mechanism}/${seed}`)) seen.add(t);
      }
    }
  }
  const hunt = await runStagHuntEpisode({ N: 4, M: 2, T: 3, F: 1, seed: 3, ndjson: true });
  for (const t of roundTrip(hunt.ndjson!, "staghunt")) seen.add(t);
  // What mock episodes write: everything but the model-side events
  // (corrections, errors, calls, overrides: written below).
  assertEquals(
    [...seen].sort(),
    [
      "checkpoint",
      "decision",
      "disclosure",
      "episode_end",
      "episode_start",
      "failure",
      "mechanism",
      "message",
      "report",
      "round_start",
      "transition",
      "turn",
    ],
  );
});

for (const hashing of ["lines-v8", "lines-v6", "lines-v5", "lines-v4"] as const) {
  Deno.test(`a line of every event type the recorder writes reads back on the fast path as JSON.parse reads it (${hashing})`, () => {
    // The run and episode names hold a "y": the type key is then found the slow way.
    let ms = 0;
    const rec = new EventRecorder({
      run: "day-1",
      episode: "yes_e0",
      keep: false,
      lines: true,
      hashes: true,
      hashing,
      // The time moves: block lines carry "ms" members.
      clock: () => new Date(Date.UTC(2026, 11, 1, 10) + 3 * ms++).toISOString(),
    });
    const bodies: EventBody[] = [
      { type: "round_start" },
      { type: "report", agent: "d1", role: "depositor", call: "withdrawal", report: { p: 40 } },
      {
        type: "correction",
        agent: "d1",
        call: "withdrawal",
        field: "p",
        from: 140,
        to: 100,
        reason: "clamped",
      } as never,
      { type: "agent_error", agent: "d1", call: "withdrawal", error: "timeout" } as never,
      {
        type: "llm_call",
        agent: "d1",
        call: "withdrawal",
        model: "m",
        tokens_in: 10,
        tokens_out: 2,
      } as never,
      {
        type: "decision",
        agent: "d1",
        call: "withdrawal",
        action: "withdraw",
        alternative: "stay",
        reported: 40,
        probability: 0.4,
        draw: 0.123456789,
        realized: true,
        committed: false,
        amount: 1,
      },
      {
        type: "override",
        agent: "d1",
        call: "withdrawal",
        field: "p",
        from: 1,
        to: 2,
        reason: "r",
      },
      { type: "mechanism", action: "offer", agent: "bank", round: 3 },
      { type: "message", from: "bank", to: "all", text: 'a "quoted" line\n' } as never,
      { type: "transition", kind: "settle", cash: 1.5 },
      { type: "failure", kind: "crash", detail: "x" },
      { type: "disclosure", cash: 3 } as never,
      { type: "turn", agent: "p01", action: "Stag" } as never,
    ];
    rec.tick();
    rec.step = "withdrawal";
    rec.startRound(1);
    rec.round = 1;
    for (const body of bodies) {
      rec.tick();
      rec.emit(body);
    }
    rec.checkpoint({ cash: 1 });
    rec.emit({ type: "episode_end", status: "ok" } as never);
    const types = roundTrip(rec.text, "recorder");
    assertEquals(
      [...types].sort(),
      ALL_TYPES.filter((t) => t !== "episode_start").sort(),
    );
    // The decision line went through the fast reader, not around it.
    const decision = rec.text.split("\n").find((l) => l.includes('"type":"decision"'))!;
    const header = { run: "day-1", episode: "yes_e0", time: "", ms: NaN };
    if (hashing === "lines-v6" || hashing === "lines-v8") {
      // A delta layout's: its head is implied but for its time: the fast reader went past the time member.
      assertEquals(decision.slice(0, 36), '{"ms":15,"type":"decision","agent":"');
      return;
    }
    assertEquals(fastRead(decision, header).draw, 0.123456789);
    assertEquals(decision.startsWith(hashing === "lines-v5" ? '{"round":1,' : LINE_PREFIX), true);
    // The fast reader went past a compact time member.
    assertEquals(hashing === "lines-v4" || /,"ms":15,"type":"decision"/.test(decision), true);
  });
}

Deno.test("readDecision() refuses a decision line it cannot read exactly, leaving its output as it was", () => {
  const head = stepHead(lineHead("r", "e"), 1, "s") + '3,"time":"t",';
  const body =
    '"type":"decision","agent":"d1","call":"c","action":"stay","alternative":"withdraw",' +
    '"reported":40,"probability":0.4,"draw":0.5,"realized":false,"committed":true,"amount":1}';
  const read = (line: string, out = {} as DecisionLine) => {
    const at = typeKeyAt(line, 0, line.length);
    const r = new LineReader(line, LINE_PREFIX.length, line.length);
    return at !== -1 && readRunEpisode(r) !== undefined && readDecision(r, at, out);
  };
  const out = {} as DecisionLine;
  assertEquals(read(head + body, out), true);
  assertEquals(out, {
    round: 1,
    step: "s",
    seq: 3,
    agent: "d1",
    call: "c",
    action: "stay",
    alternative: "withdraw",
    reported: 40,
    probability: 0.4,
    draw: 0.5,
    realized: false,
    committed: true,
    amount: 1,
  });
  const before = { ...out };
  // Another key order, an escape, a non-finite number, a member more.
  assertEquals(
    read(head + body.replace('"agent":"d1","call":"c"', '"call":"c","agent":"d1"'), out),
    false,
  );
  assertEquals(read(head + body.replace('"agent":"d1"', '"agent":"d\\u0031"'), out), false);
  assertEquals(read(head + body.replace('"draw":0.5', '"draw":1e999'), out), false);
  assertEquals(read(head + body.replace('"amount":1}', '"amount":1,"extra":0}'), out), false);
  assertEquals(out, before);
  // Not an engine line at all.
  assertEquals(typeKeyAt('{"type":"decision"}', 0, 19), -1);
  assertEquals(typeKeyAt(`${LINE_PREFIX}"run":"r"`, 0, LINE_PREFIX.length + 9), -1);
});

Deno.test("isoMs() gives each text its own value when texts come again and alternate", () => {
  const texts = [
    "1970-01-01T00:00:01.500Z",
    "1970-01-01T00:00:01.500Z",
    "t",
    "1970-01-01T00:00:01Z",
    "1970-01-01T00:00:01.500Z",
    "",
    "2026-12-01T12:00:00.007Z",
    "t",
  ];
  assertEquals(texts.map(isoMs), [1500, 1500, NaN, NaN, 1500, NaN, 1796126400007, NaN]);
});

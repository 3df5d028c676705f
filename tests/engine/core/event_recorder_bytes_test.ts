// The recorder encodes each line once into one buffer per episode and hashes
// from those bytes (one SHA-256 update per segment): the lines, the state
// hashes and the events hashes are those the events hash defines, whether the
// text is ASCII or not, under "lines-v3" and "lines-v2", and whatever other
// recorders do in between.
import { assert, assertEquals } from "../../_assert.ts";
import { EventRecorder, recycleLogBytes } from "../../../engine/core/event_recorder.ts";
import type { EngineEvent, EventBody } from "../../../engine/core/events.ts";
import { eventsHash, type HashingVersion } from "../../../engine/core/events_hash.ts";
import { sha256Hex } from "../../../engine/core/hash.ts";
import { parseEpisodeLog } from "../../../engine/core/log_file.ts";
import { canonicalJson } from "../../../engine/core/canonical_json.ts";

/** Records two rounds with an agent-side event and `note` in a report; returns the recorder. */
function record(note: string, hashing: HashingVersion, between?: () => void): EventRecorder {
  const rec = new EventRecorder({
    run: "r",
    episode: "e",
    keep: true,
    lines: true,
    hashes: true,
    hashing,
    clock: () => "2026-01-01T00:00:00.000Z",
  });
  rec.tick();
  rec.emit({ type: "episode_start", game: "frail", env: "bank_run" } as never);
  for (const round of [1, 2]) {
    rec.startRound(round);
    rec.step = "withdraw";
    rec.emit({ type: "round_start" } as EventBody);
    rec.emit({ type: "llm_call", agent: "dep_01", reply: `${note} ${round}` } as never);
    between?.();
    rec.emit({ type: "report", agent: "dep_01", note } as never);
    // An open body that repeats a base field takes the slow path.
    rec.emit({ type: "mechanism", step: "override", note } as never);
    rec.checkpoint({ round, note });
  }
  rec.step = "end";
  rec.emit({ type: "episode_end", status: "ok" } as never);
  return rec;
}

/** Checks the log's hashes against the events-hash definition, from the parsed lines. */
function checkHashes(events: EngineEvent[], hashing: HashingVersion): void {
  let from = 0;
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as EngineEvent & Record<string, unknown>;
    if (e.type === "round_start" && e.round > 1) from = i;
    if (e.type === "checkpoint") {
      assertEquals(e.events_hash, eventsHash(events.slice(from, i), { hashing }));
      assertEquals(e.state_hash, sha256Hex(canonicalJson(e.state)));
      from = i + 1;
    }
    if (e.type === "llm_call" && hashing === "lines-v3") {
      const { time: _t, event_hash: _h, ...bare } = e;
      assertEquals(e.event_hash, sha256Hex(JSON.stringify(bare)));
    }
  }
  const end = events.at(-1) as EngineEvent & Record<string, unknown>;
  if (hashing === "lines-v3") {
    assertEquals(end.events_hash, eventsHash(events.slice(from), { hashing }));
  } else assertEquals(end.events_hash, undefined);
}

for (const hashing of ["lines-v3", "lines-v2"] as const) {
  for (const [label, note] of [["ASCII", "plain"], ["non-ASCII", "déjà vu ✓ 🏦"]]) {
    Deno.test(`EventRecorder.bytes holds the lines once, hashed as defined, for ${label} text (${hashing})`, () => {
      const rec = record(note, hashing);
      const text = new TextDecoder().decode(rec.bytes);
      assertEquals(text, rec.text);
      assertEquals(text, rec.events.map((e) => JSON.stringify(e) + "\n").join(""));
      const events = parseEpisodeLog(text, "bytes.ndjson");
      assertEquals(events.length, 12);
      checkHashes(events, hashing);
      assertEquals(rec.hashes, [1, 2].map((round) => sha256Hex(canonicalJson({ round, note }))));
    });
  }
}

Deno.test("EventRecorder gives the same lines when another recorder records in between", () => {
  const alone = record("déjà", "lines-v3").text;
  const other: EventRecorder[] = [];
  const interleaved = record("déjà", "lines-v3", () => other.push(record("x", "lines-v3")));
  assertEquals(interleaved.text, alone);
  assertEquals(other[1].text, record("x", "lines-v3").text);
});

Deno.test("EventRecorder hashes without lines as with them", () => {
  const rec = new EventRecorder({ run: "r", episode: "e", keep: true, lines: false, hashes: true });
  rec.tick();
  rec.startRound(1);
  rec.emit({ type: "round_start" } as EventBody);
  rec.checkpoint({ a: 1 });
  assertEquals(rec.text, "");
  assertEquals(rec.bytes.length, 0);
  const cp = rec.events[1] as EngineEvent & Record<string, unknown>;
  // The block header ("lines-v5") is hashed before the first event, whatever it is.
  assertEquals(cp.events_hash, eventsHash(rec.events.slice(0, 1), { opensBlock: true }));
});

Deno.test("recycleLogBytes() hands a written buffer to the next recorder and ignores other bytes", () => {
  const first = record("a", "lines-v3");
  const bytes = first.bytes;
  recycleLogBytes(new Uint8Array(1 << 17)); // not a recorder's: ignored
  recycleLogBytes(bytes);
  const second = record("b", "lines-v3");
  assert(second.bytes.buffer === bytes.buffer, "the recycled buffer is reused");
  assertEquals(second.text, record("b", "lines-v3").text);
});

Deno.test("recycleLogBytes() keeps the buffers of 8 episodes played at once (an in-process grid's) for the next 8", () => {
  const played = ["a", "b", "c", "d", "e", "f", "g", "h"].map((id) => record(id, "lines-v3").bytes);
  for (const bytes of played) recycleLogBytes(bytes);
  const buffers = new Set(played.map((b) => b.buffer));
  const next = ["i", "j", "k", "l", "m", "n", "o", "p"].map((id) => record(id, "lines-v3").bytes);
  assertEquals(next.filter((b) => buffers.has(b.buffer)).length, 8);
});

Deno.test("EventRecorder.checkpoint() gives sha256Hex() of the state text, small, large, non-ASCII or not", () => {
  const texts = [
    '{"a":1}',
    JSON.stringify({ note: "déjà vu ✓ 🏦" }),
    // Past 1 MiB a state is hashed as text, below from its bytes: the same hash.
    JSON.stringify({ big: "x".repeat((1 << 20) + 5) }),
    JSON.stringify({ big: "é".repeat(1 << 19) }),
    // A lone surrogate (a state writer's text as given): both ways give U+FFFD's bytes.
    '{"s":"\ud800"}',
  ];
  const rec = new EventRecorder({ run: "r", episode: "e", keep: false, lines: true, hashes: true });
  rec.tick();
  rec.startRound(1);
  const got = texts.map((t) => rec.checkpoint(undefined, t));
  assertEquals(got, texts.map(sha256Hex));
  assertEquals(rec.hashes, texts.map(sha256Hex));
});

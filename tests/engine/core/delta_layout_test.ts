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
import {
  deltaSchemaOf,
  eventsHash,
  HASHING_VERSION,
  type HashingVersion,
} from "../../../engine/core/events_hash.ts";
import { blockHeader, deltaBlockLines, DeltaWriter } from "../../../engine/core/event_layout.ts";
import { EventRecorder } from "../../../engine/core/event_recorder.ts";
import { sha256Hex } from "../../../engine/core/hash.ts";
import { parseEpisodeLog, writeEpisodeLogText } from "../../../engine/core/log_file.ts";
import { frailSetup } from "../../../engine/frail/descriptor.ts";
import { FRAIL_ENV_IDS } from "../../../engine/frail/registry.ts";
import { MECHANISMS } from "../../../engine/frail/types.ts";
import { bankRunGame } from "../../../engine/games/bank_run/descriptor.ts";
import { replayEpisode } from "../../../engine/run_episode.ts";
import { gameDescriptor } from "../../../engine/games/registry.ts";
import { replayWith } from "../../../engine/core/replay.ts";
import { bankRun } from "../../../engine/games/bank_run/environment.ts";
import {
  readLogEpisodes,
  recoverSegment,
  segmentIndexPath,
  SegmentWriter,
} from "../../../engine/grid/segments.ts";
import { loadRuns } from "../../../analysis/load/load_runs.ts";
import { assertSameFrames, perReadClock } from "./_log_layouts.ts";
import { fuzzStates } from "./_delta_fuzz.ts";
import { readLogFile } from "../../../analysis/viewer/_log_source.ts";
import { scriptedEpisode } from "./_scripted_llm.ts";
import { makeTempDir } from "../../_temp.ts";

/** A clock that moves 7 ms every other read from 2026-12-01T12:00:00Z. */
function steppingClock(): () => string {
  let n = 0;
  return () => new Date(Date.UTC(2026, 11, 1, 12) + 7 * Math.floor(n++ / 2)).toISOString();
}

/** A bank-run M0 episode of the default (defensive) mock agents. */
async function bankRunM0(
  seed: number,
  hashing?: HashingVersion,
  run = "adhoc",
  clock = steppingClock(),
) {
  return await playEpisode(bankRunGame.environment, {
    ...frailSetup(bankRunGame, { mechanism: "M0", regime: "stable" }),
    seed,
    agents: bankRunGame.mockAgents({ seed }),
    run,
    episode: `bank_run_M0_stable_s${seed}`,
    ndjson: true,
    clock,
    ...(hashing ? { hashing } : {}),
  });
}

/** Each event's JSON text: equal texts are equal events with their members in the same order. */
function texts(events: readonly object[]): string[] {
  return events.map((e) => JSON.stringify(e));
}

/** Checks a delta-layout log (written as `hashing`) against the events its recorder had, and its segment hashes against eventsHash. */
async function checkLog(
  ndjson: string,
  events: readonly EngineEvent[],
  where: string,
  hashing: HashingVersion,
) {
  const schema = deltaSchemaOf(hashing);
  assert(ndjson.startsWith(`{"schema":${schema},`), where);
  const decoded = parseEpisodeLog(ndjson, where);
  assertEquals(texts(decoded), texts(events), where);
  // deltaBlockLines() rebuilds the same bytes from the events.
  assertEquals(deltaBlockLines(events, schema).map((l) => l.line + "\n").join(""), ndjson, where);
  // Every segment's hash, recomputed from the events with the ones before them.
  let from = 0;
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as Record<string, unknown>;
    if (e.type === "round_start" && from > 0) from = i;
    if (e.type === "checkpoint") {
      const h = eventsHash(events.slice(from, i), { hashing, before: events.slice(0, from) });
      assertEquals(h, e.events_hash, `${where}: round ${e.round}`);
      from = i + 1;
    }
  }
  const replay = await replayEpisode(decoded);
  assertEquals(
    [replay.ok, replay.hashing],
    [true, hashing],
    `${where}: ${JSON.stringify(replay.mismatch)}`,
  );
}

/** An episode of a registered game's mock agents, logged under `hashing`. */
async function gameEpisode(
  id: string,
  fields: Readonly<Record<string, unknown>>,
  seed: number,
  hashing: HashingVersion,
) {
  const game = gameDescriptor(id);
  const setup = game.setup(fields);
  return await playEpisode(game.environment, {
    ...setup,
    seed,
    agents: game.mockAgents({ seed }),
    run: "adhoc",
    episode: game.episodeId(setup, seed),
    ndjson: true,
    clock: steppingClock(),
    hashing,
  });
}

for (const hashing of ["lines-v7", "lines-v8"] as const) {
  Deno.test(`every game's delta-layout log (${hashing}) decodes to exactly its recorder's events and replays`, async () => {
    for (const env of FRAIL_ENV_IDS) {
      for (const mechanism of MECHANISMS) {
        for (const seed of [1, 2]) {
          const r = await gameEpisode(env, { mechanism }, seed, hashing);
          await checkLog(r.ndjson!, r.events, `${env}/${mechanism}/${seed}`, hashing);
        }
      }
    }
    for (const corruption of ["base", "communication_only"]) {
      const hunt = await gameEpisode(
        "staghunt",
        { N: 4, M: 2, T: 3, F: 1, corruption },
        3,
        hashing,
      );
      await checkLog(hunt.ndjson!, hunt.events, `staghunt ${corruption}`, hashing);
    }
    const effort = await gameEpisode("min_effort", {}, 3, hashing);
    await checkLog(effort.ndjson!, effort.events, "min_effort", hashing);
    for (const fail of [false, true]) {
      const llm = await scriptedEpisode({ fail, hashing });
      await checkLog(llm.ndjson!, llm.events, `scripted fail=${fail}`, hashing);
      // The state hashes and the outcome are those of lines-v5.
      const v5 = await scriptedEpisode({ fail, hashing: "lines-v5" });
      assertEquals([llm.hashes, llm.outcome], [v5.hashes, v5.outcome]);
    }
  });
}

Deno.test("a seeded bank-run M0 episode takes exactly these bytes under lines-v7 (the layout of lines-v6)", async () => {
  // Defensive mock agents, seed 3, run "adhoc", the clock of block_layout_test (7 ms per read).
  const r = await bankRunM0(3, "lines-v7", "adhoc", perReadClock());
  const lines = r.ndjson!.trimEnd().split("\n");
  assertEquals([r.ndjsonBytes!.length, lines.length], [33632, 197]);
  assertEquals(lines[2], '{"round":1,"step":"start","ms":7,"type":"round_start"}');
  // A decision of round 2 carries only what its agent's decision of round 1 does not.
  const decisions = lines.filter((l) => l.includes('"type":"decision","agent":"dep_01"'));
  assertEquals(
    decisions[1],
    '{"step":"settlement","type":"decision","agent":"dep_01","reported":6,"probability":0.06,"draw":0.513098962499431}',
  );
  // The second checkpoint is the first's state with one piece changed.
  const checkpoints = lines.filter((l) => l.includes('"type":"checkpoint"'));
  assert(checkpoints[0].includes('"type":"checkpoint","state":{"assets":15.075,'));
  assert(
    checkpoints[1].startsWith(
      '{"step":"checkpoint","type":"checkpoint","delta":[[93,1,"\\"round\\":2}"]],',
    ),
  );
});

Deno.test("lines-v6 hashes are SHA-256 over the lines' bytes less their time members", async () => {
  const r = await bankRunM0(22, "lines-v7");
  const lines = r.ndjson!.trimEnd().split("\n");
  let segment = lines[0].replace(/,"time":"[^"]*"\}$/, "}") + "\n";
  assertEquals(segment, '{"schema":4,"run":"adhoc","episode":"bank_run_M0_stable_s22"}\n');
  let checkpoints = 0;
  for (const line of lines.slice(1)) {
    const bare = line.replace(/"ms":\d+,/, "");
    const e = JSON.parse(line) as Record<string, unknown>;
    if (e.type === "checkpoint") {
      assertEquals(e.events_hash, sha256Hex(segment));
      segment = "";
      checkpoints++;
    } else if (e.type === "episode_end") {
      const own = bare.replace(`,"events_hash":"${e.events_hash}"}`, "}");
      assertEquals(e.events_hash, sha256Hex(segment + own + "\n"));
    } else segment += bare + "\n";
  }
  assertEquals(checkpoints, 3);
  // The state hashes and the outcome are those of lines-v5.
  const v5 = await bankRunM0(22, "lines-v5");
  assertEquals([r.hashes, r.outcome], [v5.hashes, v5.outcome]);
});

Deno.test("the lines-v6 log of an episode loads to the same frames and viewer events as its lines-v5 log", async () => {
  const dir = await makeTempDir();
  try {
    for (const seed of [22, 23, 24]) {
      const v5 = await bankRunM0(seed, "lines-v5", "fixture");
      const v6 = await bankRunM0(seed, undefined, "fixture");
      writeEpisodeLogText(`${dir}/old/fixture/s${seed}.ndjson`, v5.ndjson!);
      writeEpisodeLogText(`${dir}/new/fixture/s${seed}.ndjson`, v6.ndjson!);
      const [va, vb] = [
        await readLogFile(`${dir}/old/fixture/s${seed}.ndjson`),
        await readLogFile(`${dir}/new/fixture/s${seed}.ndjson`),
      ];
      assertEquals([va.malformed, vb.malformed], [[], []]);
      assertEquals(texts(vb.episodes[0].events), texts(v6.events));
    }
    const frames = ["rounds", "decisions", "mechanisms", "corrections", "calls"] as const;
    // Each frame alone (the fast path skips the lines of the others) and all together.
    for (const asked of [...frames.map((f) => [f]), [...frames]]) {
      await assertSameFrames(`${dir}/old`, `${dir}/new`, asked);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an LLM-scripted lines-v6 log loads its calls and corrections as its lines-v5 log does", async () => {
  const dir = await makeTempDir();
  try {
    const v5 = await scriptedEpisode({ fail: true, hashing: "lines-v5" });
    const v6 = await scriptedEpisode({ fail: true });
    writeEpisodeLogText(`${dir}/old/adhoc/ep.ndjson`, v5.ndjson!);
    writeEpisodeLogText(`${dir}/new/adhoc/ep.ndjson`, v6.ndjson!);
    const frames = ["decisions", "corrections", "calls"] as const;
    const [a, b] = [
      await loadRuns(`${dir}/old`, { frames: [...frames], strict: true }),
      await loadRuns(`${dir}/new`, { frames: [...frames], strict: true }),
    ];
    for (const name of frames) assertEquals(b[name].toRecords(), a[name].toRecords(), name);
    assertEquals(b.calls.height, 147);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a segment holds lines-v5, lines-v7 and lines-v8 blocks; its readers and its recovery read each", async () => {
  const dir = await makeTempDir();
  try {
    const v5 = await bankRunM0(22, "lines-v5", "fixture");
    const v6 = await bankRunM0(26, "lines-v7", "fixture");
    const v8 = await bankRunM0(26, "lines-v8", "fixture");
    const writer = SegmentWriter.create(dir, "mix");
    const a = writer.appendText({
      run: "fixture",
      episode: "bank_run_M0_stable_s22",
      bytes: v5.ndjsonBytes!,
    });
    const b = writer.appendText({
      run: "fixture",
      episode: "bank_run_M0_stable_s26",
      bytes: v6.ndjsonBytes!,
    });
    const c = writer.appendText({
      run: "fixture",
      episode: "bank_run_M0_stable_s26",
      bytes: v8.ndjsonBytes!,
      status: "ok",
    });
    assertEquals([a.status, b.status, c.status], ["ok", "ok", "ok"]);
    writer.close();
    const episodes = await readLogEpisodes(writer.path);
    assertEquals(episodes.map((e) => texts(e.events)), [
      texts(v5.events),
      texts([...v6.events, ...v8.events]),
    ]);
    await Deno.remove(segmentIndexPath(writer.path));
    const recovered = await recoverSegment(writer.path);
    assertEquals(recovered.entries.map((e) => [e.episode, e.offset, e.bytes, e.status]), [
      ["bank_run_M0_stable_s22", a.offset, a.bytes, "ok"],
      ["bank_run_M0_stable_s26", b.offset, b.bytes, "ok"],
      ["bank_run_M0_stable_s26", c.offset, c.bytes, "ok"],
    ]);
    // A torn lines-v8 tail is cut, naming its episode from its header.
    Deno.writeTextFileSync(
      writer.path,
      new TextDecoder().decode(v8.ndjsonBytes!.subarray(0, 3000)),
      { append: true },
    );
    const torn = await recoverSegment(writer.path);
    assertEquals([torn.truncated, torn.entries.length], ["bank_run_M0_stable_s26", 3]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a malformed lines-v6 line is an error naming its file and line, in every reader", async () => {
  const r = await bankRunM0(22);
  const lines = r.ndjson!.split("\n");
  const cp = lines.findIndex((l) => l.includes('"delta":['));
  const bad = [...lines];
  bad[cp] = bad[cp].replace(/"delta":\[\[(\d+),/, '"delta":[[9999,');
  const text = bad.join("\n");
  const message = `a checkpoint's "delta" op 0 [9999,2,"{\\"assets\\":9.339705882352943,` +
    `\\"assetsSold\\":5.73529411764706"] does not fit the previous state's 94 pieces after 0`;
  assertThrows(
    () => parseEpisodeLog(text, "bad.ndjson"),
    SyntaxError,
    `bad.ndjson:${cp + 1}: ${message}`,
  );
  // A delta that does not give JSON, a member before the type, a member its template lacks.
  const cases: [string, string][] = [
    [
      JSON.stringify({ ...JSON.parse(lines[cp]), delta: [[0, 1, "{"]] }),
      `a checkpoint's "delta" does not give JSON`,
    ],
    [
      lines[2].replace('"type":', '"x":1,"type":'),
      `a delta-layout line's member "x" comes before its "type"`,
    ],
    [
      lines.filter((l) => l.includes('"type":"decision","agent":"dep_01",'))[1].replace(
        '"draw"',
        '"zzz":1,"draw"',
      ),
      `a delta-layout line's member "zzz" is not one of the members of the previous "decision" line`,
    ],
  ];
  for (const [line, expected] of cases) {
    const original = lines.findIndex((l) =>
      l === line.replace('"x":1,', "").replace('"zzz":1,', "") ||
      (line.includes('"delta":[[') && l.includes('"delta":[[') &&
        l.slice(l.indexOf('"state_hash"')) === line.slice(line.indexOf('"state_hash"')))
    );
    const edited = [...lines];
    edited[original] = line;
    assertThrows(
      () => parseEpisodeLog(edited.join("\n"), "e.ndjson"),
      SyntaxError,
      `e.ndjson:${original + 1}: ${expected}`,
    );
    if (line.includes('"delta"')) continue;
    // The loaders (their fast path refuses the line, and the decoder says why).
    const dir = await makeTempDir();
    try {
      writeEpisodeLogText(`${dir}/run/e.ndjson`, edited.join("\n"));
      await assertRejects(
        () => loadRuns(dir, { frames: ["decisions"], strict: true }),
        SyntaxError,
        `${dir}/run/e.ndjson:${original + 1}: ${expected}`,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  const dir = await makeTempDir();
  try {
    const file = `${dir}/run/bad.ndjson`;
    writeEpisodeLogText(file, text);
    // The loaders read a checkpoint's events hash, not its state (as under every layout).
    assertEquals((await loadRuns(dir, { strict: true })).episodes.height, 1);
    await assertRejects(() => readLogEpisodes(file), SyntaxError, `${file}:${cp + 1}: ${message}`);
    const viewed = await readLogFile(file);
    assertEquals(viewed.malformed[0], { file, line: cp + 1, message });
    // A line that is not JSON: the lines after it in its block cannot be rebuilt, and say so.
    const torn = [...lines];
    torn[5] = torn[5].slice(0, 20);
    writeEpisodeLogText(file, torn.join("\n"));
    const lenient = await readLogFile(file);
    assertEquals(lenient.malformed[1], {
      file,
      line: 7,
      message:
        `a delta-layout line after a line of its block that could not be read: what it leaves out is unknown`,
    });
    const loaded = await loadRuns(dir);
    assertEquals(loaded.malformed[1], lenient.malformed[1]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("replayWith() names an edited model call of a lines-v6 log by its event_hash, a reordered line and a removed one by their round", async () => {
  const log = parseEpisodeLog((await scriptedEpisode({})).ndjson!);
  // An edited reply: the hash of its line as edited (less its time, in its block's context).
  const at = log.findIndex((e) => e.type === "llm_call" && e.round === 3);
  const copy = structuredClone(log) as unknown as Record<string, unknown>[];
  copy[at].content = '{"withdraw_probability": 95}';
  const events = copy as unknown as EngineEvent[];
  const check = await replayWith(bankRun, events);
  const segment = events.findIndex((e) => e.type === "round_start" && e.round === 3);
  const line = deltaBlockLines(events)[at + 1].hashed!;
  const own = line.replace(/,"event_hash":"[0-9a-f]{64}"\}$/, "}");
  assertEquals(check.mismatch?.field, `events[${at - segment}].event_hash`);
  assertEquals([check.mismatch?.recorded, check.mismatch?.replayed], [
    copy[at].event_hash,
    sha256Hex(own),
  ]);
  // A decision with its members reordered is the same event, but not the text that was hashed.
  const d = log.findIndex((e) => e.type === "decision" && e.round === 2);
  const { type, ...rest } = log[d] as unknown as Record<string, unknown>;
  const reordered = log.map((e, i) => i === d ? { ...rest, type } as unknown as EngineEvent : e);
  const cp = log.findIndex((e) => e.type === "checkpoint" && e.round === 2);
  const round = log.findIndex((e) => e.type === "round_start" && e.round === 2);
  assertEquals((await replayWith(bankRun, reordered)).mismatch, {
    round: 2,
    kind: "events",
    field: `events[${cp - round}].events_hash`,
    recorded: (log[cp] as { events_hash: string }).events_hash,
    // A body not led by its type has no delta-layout line: it cannot be what was hashed.
    replayed:
      `(no ${HASHING_VERSION} text: A "decision" body whose first member is not its "type" has ` +
      `no delta-layout line)`,
    event: { type: "checkpoint", seq: log[cp].seq, step: "checkpoint", round: 2, index: cp },
  });
  // A model call left out: its round is named.
  const removed = log.filter((e) =>
    !(e.type === "llm_call" && e.round === 4 && e.agent === "dep_03")
  );
  const gone = await replayWith(bankRun, removed);
  assertEquals([gone.ok, gone.mismatch?.round], [false, 4]);
});

Deno.test("a lines-v5 log (real bytes of efb2320) still reads, replays, and is what the lines-v5 writer writes", async () => {
  const file = new URL(
    "../../fixtures/lines_v5/fixture/bank_run_M0_stable_s22.ndjson",
    import.meta.url,
  ).pathname;
  const text = await Deno.readTextFile(file);
  const events = parseEpisodeLog(text, file);
  assertEquals([events.length, (events[0] as { hashing?: string }).hashing], [105, "lines-v5"]);
  const replay = await replayEpisode(events);
  assertEquals([replay.ok, replay.hashing, replay.rounds], [true, "lines-v5", 3]);
  const again = await bankRunM0(22, "lines-v5", "fixture", perReadClock());
  assertEquals(again.ndjson, text);
  const [one] = await readLogEpisodes(file);
  assertEquals(texts(one.events), texts(events));
});

Deno.test("the lines-v6 recorder refuses a body whose first member is not its type, or that carries a header's member", () => {
  const record = (body: Record<string, unknown>) => {
    const rec = new EventRecorder({
      run: "r",
      episode: "e",
      keep: true,
      lines: true,
      hashes: true,
    });
    rec.tick();
    rec.emit(body as never);
    return rec;
  };
  assertThrows(
    () => record({ kind: "k", type: "transition" }),
    TypeError,
    `A "transition" body whose first member is not its "type" has no delta-layout line`,
  );
  assertThrows(
    () => record({ type: "transition", kind: "k", run: "x" }),
    TypeError,
    `A "transition" event with its own "run" cannot be logged in the block layout ("${HASHING_VERSION}")`,
  );
  // A body's own round is the event's, and the next line's implied one.
  const rec = record({ type: "transition", kind: "asset_matured", round: 4 });
  rec.emit({ type: "transition", kind: "asset_matured" } as never);
  assertEquals(rec.text.split("\n").slice(1, 3), [
    '{"round":4,"type":"transition","kind":"asset_matured"}',
    '{"round":0,"type":"transition"}',
  ]);
  assertEquals(texts(parseEpisodeLog(rec.text)), texts(rec.events));
});

Deno.test("the loaders read a lines-v6 checkpoint they cannot read on the fast path without decoding its delta", async () => {
  // An escape in its step (the same text read back) sends the line to JSON.parse; its state is a
  // delta of states the loader never decoded, and it needs only its events hash.
  const r = await bankRunM0(22);
  const lines = r.ndjson!.split("\n");
  const cp = lines.findIndex((l) => l.includes('"delta":['));
  assert(lines[cp].startsWith('{"step":"checkpoint",'), lines[cp]);
  const edited = [...lines];
  edited[cp] = lines[cp].replace('"step":"checkpoint"', '"step":"check\\u0070oint"');
  assertEquals(texts(parseEpisodeLog(edited.join("\n"))), texts(r.events));
  const dir = await makeTempDir();
  try {
    writeEpisodeLogText(`${dir}/a/run/e.ndjson`, r.ndjson!);
    writeEpisodeLogText(`${dir}/b/run/e.ndjson`, edited.join("\n"));
    const [a, b] = [
      await loadRuns(`${dir}/a`, { frames: ["decisions"], strict: true }),
      await loadRuns(`${dir}/b`, { frames: ["decisions"], strict: true }),
    ];
    assertEquals(b.decisions.toRecords(), a.decisions.toRecords());
    const hashes = (f: typeof a) =>
      f.episodes.columns.filter((c) => /hash/.test(c)).map((c) =>
        f.episodes.getColumn(c).toArray()
      );
    assertEquals(hashes(b), hashes(a));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("DeltaWriter.state() gives the piece-by-piece delta for 8,000 seeded edits of state texts", () => {
  // 6,107 of the 8,000 states are written as a delta, the rest whole
  // (delta_layout_long_test.ts: 40,000 edits).
  assertEquals(fuzzStates(1600), { checked: 8000, deltas: 6107 });
});

/**
 * A copy of `list` in an order drawn from `rnd` (Fisher-Yates). A sort with a random
 * comparator is not one: V8 calls it a different number of times from run to run, so the
 * seeded stream after it differed between runs, and a failure named a body no run would meet
 * again (the two sweeps below drew their member orders so).
 */
function shuffled<T>(list: readonly T[], rnd: (n: number) => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rnd(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * A body's text as the layout defines it (`DeltaWriter.body`), from the
 * templates of one writer: the first body of a type and agent whole, a body
 * its template fits the members that differ, any other whole after
 * `"full":1,` with a new template. Each writer its own, nothing shared.
 */
class ReferenceBodies {
  private readonly templates = new Map<
    string,
    { keys: string[]; count: number; values: unknown[] }
  >();
  private last: unknown[] = [];
  body(body: Record<string, unknown>, trailing?: string): string {
    const agent = typeof body.agent === "string" ? body.agent : undefined;
    const key = `${JSON.stringify(body.type)}\n${
      agent === undefined ? "-" : JSON.stringify(agent)
    }`;
    const t = this.templates.get(key);
    const json = JSON.stringify(body);
    const decoded = JSON.parse(json) as Record<string, unknown>;
    const written = Object.keys(decoded);
    const fits = t !== undefined && (trailing === undefined) === (t.count === t.keys.length) &&
      written.length === t.count && Object.keys(body).length === t.count &&
      written.every((k, i) => k === t.keys[i]);
    if (t !== undefined && fits) {
      let text = `"type":${JSON.stringify(body.type)}`;
      written.forEach((k, i) => {
        if (i === 0) return;
        if (k === "agent" && agent !== undefined) {
          text += `,"agent":${JSON.stringify(agent)}`;
          return;
        }
        const v = body[k];
        const same = v === t.values[i] && (typeof v !== "object" || v === null);
        t.values[i] = v;
        if (!same) text += `,${JSON.stringify(k)}:${JSON.stringify(v)}`;
      });
      this.last = t.values;
      return text + "}";
    }
    // The values compared next: the body's own, or what a reader gets back of a body with a
    // member JSON.stringify leaves out.
    const own = Object.values(body);
    const clean = own.every((v) => v !== undefined && typeof v !== "function");
    const keys = [...written, ...(trailing === undefined ? [] : [trailing])];
    const values = [
      ...(clean ? own : Object.values(decoded)),
      ...(trailing === undefined ? [] : [undefined]),
    ];
    this.templates.set(key, { keys, count: written.length, values });
    this.last = values;
    return t === undefined ? json.slice(1) : `"full":1,${json.slice(1)}`;
  }
  trail(value: string): void {
    this.last[this.last.length - 1] = value;
  }
}

Deno.test("DeltaWriter.body() gives the reference text for 30,000 seeded bodies of shared types across writers", () => {
  let x = 4242;
  const rnd = (n: number) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
  // Few types, agents, members and values, so that shapes and templates are met again,
  // in other orders, with members missing or extra, undefined, objects and nulls.
  const types = ["decision", "report", "t"];
  const agents = ["a1", "a2", undefined, 7];
  const names = ["v", "w", "q", "z"];
  const values = [0, -0, 1, 0.25, NaN, "s", "t", true, false, null, undefined, { k: 1 }, [1, 2]];
  let checked = 0;
  let full = 0;
  for (let w = 0; w < 1000; w++) {
    const writer = new DeltaWriter(blockHeader("r", "e", "2026-12-01T00:00:00.000Z"));
    const reference = new ReferenceBodies();
    for (let b = 0; b < 30; b++) {
      const body: Record<string, unknown> = { type: types[rnd(types.length)] };
      const agent = agents[rnd(agents.length)];
      const order = shuffled(names, rnd).slice(0, 4 - rnd(2) * rnd(3));
      if (rnd(4) > 0 && agent !== undefined) body.agent = agent;
      for (const k of rnd(3) === 0 ? order : names.slice(0, order.length)) {
        body[k] = values[rnd(values.length)];
      }
      const trailing = rnd(3) === 0 ? "event_hash" : undefined;
      const text = writer.body(body, trailing);
      assertEquals(text, reference.body(body, trailing), `writer ${w}, body ${b}`);
      if (text.startsWith('"full":1,')) full++;
      if (trailing !== undefined) {
        const hash = `h${rnd(2)}`;
        writer.trail(hash);
        reference.trail(hash);
      }
      checked++;
    }
  }
  // The lines written whole after "full":1: the seeded stream is the same in every run.
  assertEquals([checked, full], [30000, 20804]);
});

Deno.test("DeltaWriter.body() writes an object member as JSON.stringify does, for 20,000 seeded objects of shared shapes", () => {
  let x = 777;
  const rnd = (n: number) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
  // Members met again in the same order (the memo's case), in others, missing, extra or
  // integer-like; values a memo writes, strings met again (one reasoning for many agents)
  // and needing escapes, and values it must leave to JSON.stringify.
  const keys = ["withdraw_probability", "reasoning", "7", "x"];
  const strings = ["same reasoning", 'a "quoted" \\ text\n', "é ✓", "\ud800 lone", ""];
  const values = [0, -0, 14, 0.125, NaN, Infinity, true, false, null, undefined, { n: 1 }, [1]];
  class Report {
    constructor(readonly withdraw_probability: number, readonly reasoning: string) {}
  }
  const special = () => {
    switch (rnd(5)) {
      case 0:
        return new Report(rnd(100), strings[rnd(strings.length)]);
      case 4: {
        // The memo's members, with a toJSON that a for-in does not see.
        const hidden = { withdraw_probability: rnd(100), reasoning: strings[0] };
        Object.defineProperty(hidden, "toJSON", { value: () => ({ hidden: true }) });
        return hidden;
      }
      case 1: {
        const bare = Object.create(null) as Record<string, unknown>;
        bare.withdraw_probability = rnd(100);
        return bare;
      }
      case 2:
        return { withdraw_probability: 1, toJSON: () => ({ swapped: true }) };
      default:
        return new Date(Date.UTC(2026, 11, 1));
    }
  };
  let checked = 0;
  let bytes = 0;
  for (let w = 0; w < 400; w++) {
    const writer = new DeltaWriter(blockHeader("r", "e", "2026-12-01T00:00:00.000Z"));
    const reference = new ReferenceBodies();
    for (let b = 0; b < 50; b++) {
      let report: unknown;
      if (rnd(12) === 0) report = special();
      else {
        const o: Record<string, unknown> = {};
        const order = rnd(5) === 0 ? shuffled(keys, rnd) : keys;
        for (const k of order.slice(0, 2 + rnd(3) - (rnd(6) === 0 ? 2 : 0))) {
          o[k] = rnd(3) === 0 ? values[rnd(values.length)] : strings[rnd(strings.length)];
          if (k === "withdraw_probability" && rnd(2) === 0) o[k] = rnd(100);
        }
        report = o;
      }
      const body = { type: "report", agent: `dep_${rnd(3)}`, call: "withdrawal", report };
      const text = writer.body(body);
      assertEquals(text, reference.body(body), `writer ${w}, body ${b}`);
      bytes += text.length;
      checked++;
    }
  }
  // The characters written: the seeded stream is the same in every run.
  assertEquals([checked, bytes], [20000, 1_981_538]);
});

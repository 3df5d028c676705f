// The events hash ("lines-v3") covers every event: model calls, agent errors
// and corrections (each with its own event_hash), checkpoints, and
// episode_end (its events_hash covers the events from the last checkpoint
// on). Replay names the first event that differs; a "lines-v2" log (written
// before) replays as it was hashed, with a note saying what it does not cover.
import { assert, assertEquals, assertRejects, assertThrows } from "../../_assert.ts";
import { scriptedEpisode } from "./_scripted_llm.ts";
import { EpisodeError, playEpisode } from "../../../engine/core/episode.ts";
import type { EngineEvent } from "../../../engine/core/events.ts";
import {
  checkHashing,
  eventsHash,
  HASHING_VERSION,
  hashingNote,
} from "../../../engine/core/events_hash.ts";
import { sha256Hex } from "../../../engine/core/hash.ts";
import { parseEpisodeLog } from "../../../engine/core/log_file.ts";
import { replayWith } from "../../../engine/core/replay.ts";
import { bankRun } from "../../../engine/games/bank_run/environment.ts";
import { bankRunGame } from "../../../engine/games/bank_run/descriptor.ts";
import { frailSetup } from "../../../engine/frail/descriptor.ts";
import { serveLocalModel } from "../../../engine/agents/llm/server/local_server.ts";
import { LlmRuntime } from "../../../engine/agents/llm/runtime.ts";
import { llmPopulation } from "../../../engine/agents/llm/llm_agent.ts";
import type { Environment } from "../../../engine/core/environment.ts";

const TIME = ',"time":"2026-01-01T00:00:00.000Z"';
const AGENT_SIDE = ["llm_call", "agent_error", "correction"];

type Loose = Record<string, unknown> & { type: string; round: number };

/** The log's events read back from its text. */
async function logOf(options: Parameters<typeof scriptedEpisode>[0] = {}): Promise<EngineEvent[]> {
  return parseEpisodeLog((await scriptedEpisode(options)).ndjson!, "scripted.ndjson");
}

/** A copy of the log with the first event `pick` selects changed by `edit`, and its index. */
function edited(
  events: readonly EngineEvent[],
  pick: (e: Loose) => boolean,
  edit: (e: Loose) => void,
): [EngineEvent[], number] {
  const copy = structuredClone(events) as unknown as Loose[];
  const at = copy.findIndex(pick);
  assert(at >= 0, "no event to edit");
  edit(copy[at]);
  return [copy as unknown as EngineEvent[], at];
}

Deno.test("playEpisode() under lines-v2 reproduces the hashes and the log text written before lines-v3", async () => {
  // Pinned with the toolkit before lines-v3 (its only definition, lines-v2).
  for (
    const [fail, checkpoints, text] of [
      [
        false,
        "e51b632237cee9935740a941de43bc174ab4a43c00eb5de7ae509e8b3fd66f9f",
        "fc9d2dab519026c29a9d940b49538baa873ae24b353f964a5905edacac1df0a8",
      ],
      [
        true,
        "3a048fb284e9c59527a60f129ae0c0732811aa95f99d1f76f04bcfc99e838f5d",
        "5e27279e8cefb918e8dbaad6ddbdf027471abf6a463135d2428c0ddd01f24d26",
      ],
    ] as const
  ) {
    const r = await scriptedEpisode({ fail, hashing: "lines-v2" });
    const hashes = r.events.flatMap((e) => e.type === "checkpoint" ? [e.events_hash] : []);
    assertEquals(sha256Hex(hashes.join("")), checkpoints);
    assertEquals(sha256Hex(r.ndjson!), text);
    assertEquals([r.outcome.rounds, r.outcome.welfare], [12, 16.23261911764706]);
  }
});

Deno.test("a lines-v3 or lines-v4 log hashes every event: agent-side events by their own event_hash, the tail in episode_end", async () => {
  assertEquals(HASHING_VERSION, "lines-v8"); // the block layouts: their own tests (block_layout_test.ts, delta_layout_test.ts)
  for (
    const [fail, hashing] of [[false, "lines-v4"], [true, "lines-v4"], [false, "lines-v3"]] as const
  ) {
    const r = await scriptedEpisode({ fail, hashing });
    assertEquals((r.events[0] as { hashing?: string }).hashing, hashing);
    let segment = "";
    const seen = { agentSide: 0, checkpoints: 0, ends: 0 };
    for (const line of r.ndjson!.trimEnd().split("\n")) {
      const e = JSON.parse(line) as Loose;
      assert(line.includes(TIME));
      const bare = line.replace(TIME, "");
      if (AGENT_SIDE.includes(e.type)) {
        const own = bare.replace(`,"event_hash":"${e.event_hash}"}`, "}");
        assertEquals(e.event_hash, sha256Hex(own), line);
        assert(own !== bare && own.endsWith("}"));
        seen.agentSide++;
      }
      if (e.type === "checkpoint") {
        assertEquals(e.events_hash, sha256Hex(segment), `round ${e.round}`);
        segment = "";
        seen.checkpoints++;
        continue;
      }
      if (e.type === "episode_end") {
        const own = bare.replace(`,"events_hash":"${e.events_hash}"}`, "}");
        assert(own !== bare);
        assertEquals(e.events_hash, sha256Hex(segment + own + "\n"));
        seen.ends++;
        continue;
      }
      segment += bare + "\n";
    }
    // 147 model calls, 148 corrections, and the failed call's agent_error.
    assertEquals(seen, { agentSide: fail ? 296 : 295, checkpoints: 12, ends: 1 });
    // The events kept in memory carry the same members, and eventsHash() reproduces every hash.
    const parsed = parseEpisodeLog(r.ndjson!);
    assertEquals(r.events.map((e) => JSON.stringify(e)), parsed.map((e) => JSON.stringify(e)));
    let from = 0;
    parsed.forEach((e, i) => {
      if (e.type === "checkpoint") {
        assertEquals(eventsHash(parsed.slice(from, i), { hashing }), e.events_hash);
        from = i + 1;
      } else if (e.type === "episode_end") {
        assertEquals(eventsHash(parsed.slice(from, i + 1), { hashing }), e.events_hash);
      }
    });
  }
  // Outcomes do not depend on the definition, nor state hashes up to lines-v3 (whole states).
  const v2 = await scriptedEpisode({ fail: true, hashing: "lines-v2" });
  const v3 = await scriptedEpisode({ fail: true, hashing: "lines-v3" });
  const v4 = await scriptedEpisode({ fail: true, hashing: "lines-v4" });
  assertEquals([v3.outcome, v3.hashes], [v2.outcome, v2.hashes]);
  assertEquals(v4.outcome, v3.outcome);
  assert(v4.hashes.every((h, i) => h !== v3.hashes[i]), "lines-v4 states leave out the histories");
  const hashes = v3.events.flatMap((e) => e.type === "checkpoint" ? [e.events_hash] : []);
  assertEquals(
    sha256Hex(hashes.join("")),
    "a8115d44801eb8b856840a8f4616ca160416718d57a34808a9e52075f001f5b1",
  );
});

Deno.test("a lines-v3 or lines-v4 log replays, read back from its text or played unhashed, ok and degraded alike, without a note", async () => {
  for (
    const [fail, hashing] of [[false, "lines-v4"], [true, "lines-v4"], [true, "lines-v3"]] as const
  ) {
    const events = await logOf({ fail, hashing });
    const check = await replayWith(bankRun, events);
    assertEquals([check.ok, check.hashing, check.note, check.rounds], [
      true,
      hashing,
      undefined,
      12,
    ]);
    assertEquals((events.at(-1) as { status: string }).status, fail ? "degraded" : "ok");
    // Played in memory without hashes, its events carry none and replay alike.
    const bare = (await scriptedEpisode({ fail, unhashed: true })).events;
    assert(bare.every((e) => !("event_hash" in e) && !("events_hash" in e) && !("state" in e)));
    assertEquals(bare.filter((e) => e.type === "llm_call").length, 147);
    assertEquals((await replayWith(bankRun, bare)).ok, true);
    const [relabelled] = edited(bare, (e) => e.type === "episode_end", (e) => {
      e.status = fail ? "ok" : "degraded";
    });
    assertEquals(
      (await replayWith(bankRun, relabelled)).mismatch?.field.endsWith("].status"),
      true,
    );
  }
});

Deno.test("replayWith() names the edited llm_call, correction or agent_error of a lines-v5 log by its event_hash", async () => {
  const ok = await logOf({ hashing: "lines-v5" });
  const degraded = await logOf({ fail: true, hashing: "lines-v5" });
  const cases: [EngineEvent[], (e: Loose) => boolean, (e: Loose) => void][] = [
    [ok, (e) => e.type === "llm_call" && e.round === 3, (e) => {
      e.content = '{"withdraw_probability": 95}';
    }],
    [ok, (e) => e.type === "llm_call" && e.round === 3, (e) => {
      e.cost = 0;
    }],
    [ok, (e) => e.type === "llm_call" && e.round === 7 && e.agent === "dep_05", (e) => {
      e.tokens_out = 2;
    }],
    [ok, (e) => e.type === "correction" && e.round === 2, (e) => {
      e.reason = "nothing was repaired";
    }],
    [degraded, (e) => e.type === "agent_error", (e) => {
      e.message = "all fine";
    }],
  ];
  for (const [log, pick, edit] of cases) {
    const [events, at] = edited(log, pick, edit);
    const e = events[at] as unknown as Loose;
    const check = await replayWith(bankRun, events);
    const segment = events.findLastIndex((x, i) =>
      i <= at && (x.type === "round_start" && x.round === e.round)
    );
    assertEquals(check.ok, false);
    assertEquals(check.mismatch, {
      round: e.round,
      kind: "events",
      field: `events[${at - segment}].event_hash`,
      recorded: e.event_hash,
      // The hash of the event's text as edited: its block line less its time ("lines-v5").
      replayed: sha256Hex(JSON.stringify({
        ...e,
        schema: undefined,
        run: undefined,
        episode: undefined,
        time: undefined,
        event_hash: undefined,
      })),
      event: {
        type: e.type,
        seq: e.seq as number,
        step: e.step as string,
        agent: e.agent as string,
        round: e.round,
        index: at,
      },
    });
  }
});

Deno.test("replayWith() names episode_end's status edited ok to degraded, degraded to ok, or error to ok", async () => {
  const ok = await logOf();
  const degraded = await logOf({ fail: true });
  for (
    const [log, from, to] of [[ok, "ok", "degraded"], [degraded, "degraded", "ok"]] as const
  ) {
    const [events, at] = edited(log, (e) => e.type === "episode_end", (e) => {
      e.status = to;
    });
    const tail = events.findLastIndex((e) => e.type === "checkpoint") + 1;
    const check = await replayWith(bankRun, events);
    assertEquals(check.mismatch, {
      round: 12,
      kind: "events",
      field: `events[${at - tail}].status`,
      recorded: to,
      replayed: from,
      event: { type: "episode_end", seq: events[at].seq, step: "end", round: 12, index: at },
    });
  }
  // A crash in round 3: the log replays (the replay crashes alike) until its status is edited.
  const crashing = {
    ...bankRun,
    startRound(state, round) {
      if (round === 3) throw new Error("boom in round 3");
      return bankRun.startRound(state, round);
    },
  } as typeof bankRun;
  const err = await assertRejects(
    () => scriptedEpisode({ env: crashing as Environment<unknown, unknown> }),
    EpisodeError,
  ) as EpisodeError;
  const crashed = parseEpisodeLog(err.ndjson!);
  assertEquals(
    [(await replayWith(crashing, crashed)).ok, (await replayWith(bankRun, crashed)).ok],
    [true, false],
  );
  const [events, at] = edited(crashed, (e) => e.type === "episode_end", (e) => {
    assertEquals([e.status, e.error], ["error", "boom in round 3"]);
    e.status = "ok";
  });
  assertEquals(at, events.length - 1);
  assertEquals((await replayWith(crashing, events)).mismatch, {
    round: 3,
    kind: "events",
    field: "events[0].status",
    recorded: "ok",
    replayed: "error",
    event: { type: "episode_end", seq: events[at].seq, step: "end", round: 3, index: at },
  });
});

Deno.test("replayWith() names an edited checkpoint events_hash or episode_end events_hash, and a removed llm_call at its checkpoint", async () => {
  // "lines-v5": under "lines-v6" a removed line changes the text of the lines after it
  // (delta_layout_test.ts).
  const log = await logOf({ hashing: "lines-v5" });
  const zero = "0".repeat(64);
  for (const type of ["checkpoint", "episode_end"]) {
    const [events, at] = edited(log, (e) => e.type === type && e.round === 12, (e) => {
      e.events_hash = zero;
    });
    const check = await replayWith(bankRun, events);
    assertEquals(check.mismatch?.field.endsWith("].events_hash"), true);
    assertEquals([check.mismatch?.recorded, check.mismatch?.replayed], [
      zero,
      (log[at] as { events_hash: string }).events_hash,
    ]);
    assertEquals(check.mismatch?.event?.index, at);
  }
  // A model call left out of the log is fed back as absent: its round's hash names the checkpoint.
  const at = log.findIndex((e) => e.type === "llm_call" && e.round === 4);
  const removed = log.filter((_, i) => i !== at);
  const check = await replayWith(bankRun, removed);
  const cp = removed.findIndex((e) => e.type === "checkpoint" && e.round === 4);
  assertEquals([check.mismatch?.round, check.mismatch?.event?.type], [4, "checkpoint"]);
  assertEquals(check.mismatch?.event?.index, cp);
  assertEquals(check.mismatch?.recorded, (log[cp + 1] as { events_hash: string }).events_hash);
});

Deno.test("a lines-v2 log replays without error, with the note that its agent-side events and end are not covered", async () => {
  const log = await logOf({ fail: true, hashing: "lines-v2" });
  assert(log.every((e) => !("event_hash" in e)));
  assert(!("events_hash" in log.at(-1)!));
  const note = `The log's events hash is "lines-v2", written before "lines-v3": its llm_call, ` +
    `agent_error and correction events, the events after its last checkpoint and episode_end ` +
    `(status included) are not covered by the hash; the replay checked its game events and ` +
    `outcome only.`;
  const check = await replayWith(bankRun, log);
  assertEquals([check.ok, check.hashing, check.note, check.rounds], [true, "lines-v2", note, 12]);
  assertEquals(hashingNote("lines-v2"), note);
  // It is replayed as lines-v2 hashed it, not re-hashed: what lines-v2 does not cover is not checked.
  const [events] = edited(log, (e) => e.type === "llm_call", (e) => {
    e.cost = 99;
  });
  (events.at(-1) as unknown as Loose).status = "ok";
  assertEquals((await replayWith(bankRun, events)).ok, true);
  // What it covers still is.
  const [report] = edited(log, (e) => e.type === "decision" && e.round === 2, (e) => {
    e.draw = 0.5;
  });
  const bad = await replayWith(bankRun, report);
  assertEquals([bad.ok, bad.mismatch?.round, bad.mismatch?.kind, bad.note], [
    false,
    2,
    "events",
    note,
  ]);
  assertEquals(bad.mismatch?.field.endsWith("].draw"), true);
});

Deno.test("replayWith() refuses an unknown hashing id naming both it knows; the recorder and eventsHash() too", async () => {
  const log = await logOf();
  const other = log.map((e) => e.type === "episode_start" ? { ...e, hashing: "lines-v9" } : e);
  await assertRejects(
    () => replayWith(bankRun, other as EngineEvent[]),
    RangeError,
    `Cannot replay: the log names an unknown hashing, "lines-v9": this build replays hashing ` +
      `"lines-v2" or "lines-v3"`,
  );
  assertThrows(
    () => checkHashing("lines-v9"),
    RangeError,
    `Unknown events-hash definition "lines-v9": this build computes "lines-v2", "lines-v3", "lines-v4", "lines-v5"`,
  );
  assertThrows(() => eventsHash([], { hashing: "x" as never }), RangeError, `definition "x"`);
  await assertRejects(
    () => scriptedEpisode({ hashing: "x" as never }),
    RangeError,
    `Unknown events-hash definition "x"`,
  );
});

Deno.test("a model-backed episode through the local server round-trips its lines-v3 log, and an edited reply is named", async () => {
  const server = serveLocalModel({ seed: 3 });
  try {
    const runtime = new LlmRuntime({
      models: [{
        id: "local",
        baseURL: server.url,
        model: "coordlab-defensive",
        testDouble: true,
        concurrency: 32,
      }],
    });
    const r = await playEpisode(bankRun, {
      ...frailSetup(bankRunGame, { mechanism: "M0", regime: "stable" }),
      seed: 3,
      ndjson: true,
      agents: llmPopulation({ runtime, env: "bank_run", models: "local", sample: 3 }),
    });
    const log = parseEpisodeLog(r.ndjson!);
    assertEquals(log.filter((e) => e.type === "llm_call").length, 78);
    const check = await replayWith(bankRun, log);
    assertEquals([check.ok, check.note, check.hashes], [true, undefined, r.hashes]);
    const [events, at] = edited(log, (e) => e.type === "llm_call" && e.round === 2, (e) => {
      e.content = String(e.content).replace(/\d+/, "99");
    });
    const bad = await replayWith(bankRun, events);
    assertEquals([bad.mismatch?.round, bad.mismatch?.kind], [2, "events"]);
    assertEquals(bad.mismatch?.event?.type, "llm_call");
    assertEquals(bad.mismatch?.event?.index, at);
    assertEquals(bad.mismatch?.field.endsWith("].event_hash"), true);
  } finally {
    await server.close();
  }
});

Deno.test("replayWith() names the checkpoint of a lines-v3 round whose event text was rewritten with its keys reordered", async () => {
  const log = await logOf({ hashing: "lines-v5" });
  const at = log.findIndex((e) => e.type === "decision" && e.round === 2);
  const { type, ...rest } = log[at] as unknown as Loose;
  const reordered = log.map((e, i) => i === at ? { ...rest, type } as unknown as EngineEvent : e);
  const check = await replayWith(bankRun, reordered);
  const cp = log.findIndex((e) => e.type === "checkpoint" && e.round === 2);
  const round = log.findIndex((e) => e.type === "round_start" && e.round === 2);
  assertEquals(check.mismatch, {
    round: 2,
    kind: "events",
    field: `events[${cp - round}].events_hash`,
    recorded: (log[cp] as { events_hash: string }).events_hash,
    replayed: eventsHash(reordered.slice(round, cp), { hashing: "lines-v5" }),
    event: { type: "checkpoint", seq: log[cp].seq, step: "checkpoint", round: 2, index: cp },
  });
});

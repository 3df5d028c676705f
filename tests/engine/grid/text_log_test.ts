// The grid writes the log text the engine built (no event object is built):
// it holds, line for line, the events the runner gives (times aside, as two
// plays read the clock apart), and its tally summarises it as the events do.
import { assert, assertEquals, assertThrows } from "../../_assert.ts";
import { parseEpisodeLog } from "../../../engine/core/log_file.ts";
import type { GridEpisode } from "../../../engine/grid/cells.ts";
import { summarizeEpisode, summarizeTally } from "../../../engine/grid/execute.ts";
import { playGridLog } from "../../../engine/grid/runners.ts";
import { readLogEpisodes, SegmentWriter } from "../../../engine/grid/segments.ts";
import { frailEpisode } from "./_logs.ts";
import { makeTempDir } from "../../_temp.ts";

const frail = frailEpisode;

const stagHunt = (seed: number): GridEpisode => ({
  id: `sh_s${seed}`,
  index: 0,
  run: "t",
  cell: "c",
  replicate: 0,
  seed,
  condition: {
    game: "staghunt",
    N: 5,
    M: 3,
    T: 4,
    F: 2,
    corruption: "b3",
    heterogeneity: "h1",
    payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 },
  },
  agents: { kind: "mock", mock: {} },
} as GridEpisode);

const untimed = (line: unknown) => {
  const { time: _t, ...rest } = line as Record<string, unknown>;
  return rest;
};

Deno.test("playGridLog() gives the text of the events the runner plays, with the same summary", async () => {
  for (const ep of [frail("M0", 1), frail("M1", 2), frail("M3", 3), stagHunt(4)]) {
    const text = await playGridLog(ep, { text: true });
    const events = await playGridLog(ep);
    assertEquals([text.events, events.text], [undefined, undefined]);
    // The block header ("lines-v8") and its lines, read back as the events they stand for.
    assert(text.text!.startsWith('{"schema":5,"run":"t",'));
    const lines = parseEpisodeLog(text.text!).map(untimed);
    assertEquals(lines, events.events!.map(untimed));
    assertEquals(summarizeTally(text.tally), summarizeEpisode(events.events!));
  }
});

Deno.test("playGridLog() gives a crashed episode's text and tally", async () => {
  const ep = frail("M0", 5);
  const crash = await playGridLog(ep, {
    text: true,
    agents: () => {
      throw new Error("no agents today");
    },
  });
  const [end, more] = parseEpisodeLog(crash.text!) as unknown as Record<string, unknown>[];
  assertEquals([crash.text!.trimEnd().split("\n").length, more], [2, undefined]); // header, end
  assertEquals([end.type, end.status, end.error], ["episode_end", "error", "no agents today"]);
  assertEquals(summarizeTally(crash.tally).error, "no agents today");
});

Deno.test("SegmentWriter.appendText() takes only the lines of the episode it is told, ending with its episode_end", async () => {
  const dir = await makeTempDir();
  const writer = SegmentWriter.create(dir, "t");
  const { text } = await playGridLog(frail("M0", 6), { text: true });
  const refused = [
    { run: "t", episode: "other", text: text! },
    { run: "x", episode: "bank_run_M0_s6", text: text! },
    { run: "t", episode: "bank_run_M0_s6", text: text!.slice(0, -1) },
    { run: "t", episode: "bank_run_M0_s6", text: text!.slice(0, text!.lastIndexOf("{")) },
  ];
  for (const log of refused) {
    assertThrows(() => writer.appendText(log), TypeError, "A segment block must be the lines");
  }
  const entry = writer.appendText({ run: "t", episode: "bank_run_M0_s6", text: text! });
  writer.close();
  assertEquals([entry.offset, entry.status], [0, "ok"]);
  const [one] = await readLogEpisodes(writer.path);
  assertEquals(one.events.length, text!.trimEnd().split("\n").length - 1); // less the header
});

Deno.test("SegmentWriter.appendText() writes the engine's bytes as they are, checked against the status it is told", async () => {
  const dir = await makeTempDir();
  const writer = SegmentWriter.create(dir, "b");
  const log = await playGridLog(frail("M0", 6), { text: true });
  const bytes = log.bytes!;
  assertEquals(new TextDecoder().decode(bytes), log.text);
  const names = { run: "t", episode: "bank_run_M0_s6" };
  const refused: [Parameters<typeof writer.appendText>[0], string][] = [
    [{ ...names, bytes, status: "error" }, 'ending with its episode_end of status "error"'],
    [{ run: "t", episode: "other", bytes, status: "ok" }, 'episode "other"'],
    [{ ...names, bytes: bytes.subarray(0, bytes.length - 1), status: "ok" }, "ending with"],
    [{ ...names, status: "ok" }, 'The log of episode "bank_run_M0_s6" has neither text nor bytes'],
  ];
  for (const [bad, message] of refused) {
    assertThrows(() => writer.appendText(bad), TypeError, message);
  }
  // With bytes but no status, the last line is parsed for it.
  writer.appendText({ ...names, bytes: bytes.slice() });
  const entry = writer.appendText({ ...names, bytes, status: "ok", text: "ignored" });
  writer.close();
  assertEquals([entry.offset, entry.bytes, entry.status], [bytes.length, bytes.length, "ok"]);
  assertEquals(await Deno.readTextFile(writer.path), log.text! + log.text!);
  const index = (await Deno.readTextFile(writer.indexPath)).trimEnd().split("\n").map((l) =>
    JSON.parse(l)
  );
  assertEquals(index.map((e) => [e.offset, e.status]), [[0, "ok"], [bytes.length, "ok"]]);
});

import { assert, assertEquals } from "../_assert.ts";
import { promptHash } from "../../engine/agents/llm/cache.ts";
import { sha256Hex } from "../../engine/core/hash.ts";
import type { EngineEvent } from "../../engine/core/events.ts";
import { replayEpisode } from "../../engine/run_episode.ts";
import { loadRuns } from "../../analysis/load/load_runs.ts";
import { episodeTranscript } from "../../analysis/transcript.ts";
import { llmEpisode } from "./_llm_episode.ts";
import { tempDirRunner } from "./_temp_dir.ts";

const inTempDir = tempDirRunner("transcript_");

/** The `llm_call` events of a log text, with its lines. */
function llmLines(text: string): { lines: string[]; calls: number[] } {
  const lines = text.split("\n");
  const calls = lines.flatMap((l, i) => l.includes(`"type":"llm_call"`) ? [i] : []);
  return { lines, calls };
}

Deno.test("episodeTranscript() reads back exactly what renderCall produced and the server received", async () => {
  await inTempDir(async (dir) => {
    const { result, file, received, rendered } = await llmEpisode(dir);
    const calls = await episodeTranscript(file);
    // Bank run, M0, seed 1: the bank fails in round 4 after 48 depositor calls.
    assertEquals([calls.length, received.length, result.outcome.rounds], [48, 48, 4]);
    assertEquals(calls.filter((c) => !c.verified || c.problem !== null), []);
    for (const c of calls) {
      assertEquals(c.messages, rendered.get(`${c.round}/${c.agent}/${c.call}`), c.agent);
      assertEquals([c.role, c.call, c.model, c.status], ["depositor", "withdrawal", "local", "ok"]);
    }
    const sorted = (all: unknown[][]) => all.map((m) => JSON.stringify(m)).sort();
    assertEquals(sorted(calls.map((c) => c.messages!)), sorted(received));
    // The reply and reasoning are the logged ones.
    const events = result.events.filter((e) => e.type === "llm_call");
    assertEquals(
      calls.map((c) => [c.reply, c.reasoning]),
      events.map((e) => [e.content, e.reasoning]),
    );
    assertEquals(calls.map((c) => c.promptHash), events.map((e) => e.prompt_hash));
    // The same from the events in memory.
    assertEquals(await episodeTranscript(result), calls);
    // The log stays replayable.
    assertEquals((await replayEpisode(result.events)).ok, true);
  });
});

Deno.test("an LLM episode stores each distinct system prompt once and every user message with its call", async () => {
  await inTempDir(async (dir) => {
    const first = await llmEpisode(dir, { seed: 1 });
    const second = await llmEpisode(dir, { seed: 2 });
    for (const { result, rendered } of [first, second]) {
      const logged = result.events.flatMap((e) => e.type === "llm_call" ? e.messages ?? [] : []);
      const systems = [...new Set([...rendered.values()].map((m) => m[0].content))];
      assertEquals(systems.length, 1);
      const full = logged.filter((m) => m.role === "system" && "content" in m);
      const named = logged.filter((m) => "content_sha256" in m);
      // Once per episode: the second episode writes its system prompt again.
      assertEquals(full, [{ role: "system", content: systems[0] }]);
      assertEquals(named.length, rendered.size - 1);
      assertEquals(
        new Set(named.map((m) => JSON.stringify(m))),
        new Set([JSON.stringify({ role: "system", content_sha256: sha256Hex(systems[0]) })]),
      );
      assertEquals(logged.filter((m) => m.role === "user" && "content" in m).length, rendered.size);
    }
  });
});

Deno.test("episodeTranscript() shows a mismatch when a stored message is edited", async () => {
  await inTempDir(async (dir) => {
    const { file } = await llmEpisode(dir);
    const original = await Deno.readTextFile(file);
    const { lines, calls } = llmLines(original);

    // Edit the user message of the third call.
    const third = JSON.parse(lines[calls[2]]);
    const hash = third.prompt_hash as string;
    third.messages[1].content = third.messages[1].content.replace("Depositor ID", "Depositor");
    const edited = [...lines];
    edited[calls[2]] = JSON.stringify(third);
    await Deno.writeTextFile(file, edited.join("\n"));
    const after = await episodeTranscript(file);
    const system = after[0].messages![0];
    const got = promptHash([system, third.messages[1]]);
    assertEquals(after.map((c) => c.verified).indexOf(false), 2);
    assertEquals(after.filter((c) => !c.verified).length, 1);
    assertEquals(
      after[2].problem,
      `The logged messages do not match the call's prompt_hash: they hash to ${
        got.slice(0, 12)
      }..., the call recorded ${hash.slice(0, 12)}...`,
    );
    // What was read is still shown, edit included.
    assertEquals(after[2].messages?.[1].content, third.messages[1].content);

    // Edit the one stored system prompt: its call mismatches, and the later
    // calls, which name it by hash, cannot be joined.
    const firstCall = JSON.parse(lines[calls[0]]);
    const sha = sha256Hex(firstCall.messages[0].content);
    firstCall.messages[0].content += " ";
    const edited2 = [...lines];
    edited2[calls[0]] = JSON.stringify(firstCall);
    await Deno.writeTextFile(file, edited2.join("\n"));
    const broken = await episodeTranscript(file);
    assertEquals(broken.filter((c) => c.verified), []);
    assert(broken[0].problem!.startsWith("The logged messages do not match"));
    assertEquals(
      broken[1].problem,
      `The logged messages are incomplete: message 1 (system) names a text by SHA-256 ${
        sha.slice(0, 12)
      }... that no earlier call of the episode logged`,
    );
    assertEquals(broken[1].messages?.map((m) => m.content === null), [true, false]);
  });
});

Deno.test("episodeTranscript() says when a log holds no messages, and reads rows of the decisions frame", async () => {
  await inTempDir(async (dir) => {
    const { result } = await llmEpisode(dir);
    const old = result.events.map((e) => {
      if (e.type !== "llm_call") return e;
      const { messages: _, ...rest } = e;
      return rest;
    }) as EngineEvent[];
    const calls = await episodeTranscript(old);
    assertEquals(calls.length, 48);
    assertEquals(calls.every((c) => c.messages === null && !c.verified), true);
    assertEquals(
      calls[0].problem,
      "The log holds no messages for this call (its llm_call event has no messages field)",
    );
    // A decisions row names one call; options override it.
    const { decisions } = await loadRuns(dir, { frames: ["decisions"] });
    const rows = decisions.toRecords();
    const row = rows.find((r) => r.round === 3 && r.agent === "dep_05")!;
    const all = await episodeTranscript(result);
    const [one, ...more] = await episodeTranscript(row as never, { dir });
    assertEquals([one, more], [all.find((c) => c.round === 3 && c.agent === "dep_05"), []]);
    const round3 = await episodeTranscript(row as never, { dir, agent: "dep_06" });
    assertEquals(round3, all.filter((c) => c.round === 3 && c.agent === "dep_06"));
    const episodesRow = (await loadRuns(dir, { frames: [] })).episodes.toRecords()[0];
    assertEquals((await episodeTranscript(episodesRow as never)).length, 48);
  });
});

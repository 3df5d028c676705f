// Loader strictness: a wrongly typed outcome field, a second episode_start or
// episode_end, and an llm_call whose counts are not numbers are malformed
// lines: strict mode throws naming file, line and field; otherwise the line
// is skipped and listed, never loaded as a quiet null.
import assert from "node:assert/strict";
import { loadRuns } from "../../../analysis/mod.ts";
import type { EngineEvent } from "../../../engine/core/events.ts";
import { episodeEvents, EPISODES, ndjson } from "../_fixture.ts";
import { tempDirRunner } from "../_temp_dir.ts";

const withTempDir = tempDirRunner("coordlab_strict_");

/** Writes E1 with its episode_end's outcome changed, and returns the file and that line. */
async function writeWithOutcome(
  dir: string,
  change: Record<string, unknown>,
): Promise<{ file: string; line: number }> {
  const events = episodeEvents(EPISODES[0]) as (EngineEvent & Record<string, unknown>)[];
  const end = events.at(-1)! as Record<string, unknown>;
  end.outcome = { ...(end.outcome as Record<string, unknown>), ...change };
  const file = `${dir}/E1.ndjson`;
  await Deno.writeTextFile(file, ndjson(events));
  return { file, line: events.length };
}

Deno.test("loadRuns() refuses an ok episode whose welfare is a string, naming file, line and field", async () => {
  await withTempDir(async (dir) => {
    const { file, line } = await writeWithOutcome(dir, { welfare: "high" });
    const message = `${file}:${line}: episode_end of run "hand" episode "E1" has outcome field ` +
      `"welfare" "high": expected a number`;
    await assert.rejects(() => loadRuns(dir, { strict: true }), { name: "SyntaxError", message });
    // Not strict: the line is listed as malformed and the episode has no end (so no table counts it).
    const { episodes, malformed } = await loadRuns(dir);
    assert.deepEqual(malformed, [{
      file,
      line,
      message: message.slice(`${file}:${line}: `.length),
    }]);
    assert.deepEqual(episodes.select("episode", "status", "welfare").toRecords(), [
      { episode: "E1", status: "incomplete", welfare: null },
    ]);
  });
});

Deno.test("loadRuns() checks the type of every outcome field it reads", async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ success: "yes" }, `"success" "yes": expected a boolean`],
    [{ failure: 3 }, `"failure" 3: expected a string or null`],
    [{ rounds: 2.5 }, `"rounds" 2.5: expected a non-negative integer`],
    [{ welfareRealization: null }, `"welfareRealization" null: expected a number`],
    [{ payoffs: { bank: "0" } }, `"payoffs.bank" "0": expected a number`],
    [{ bounds: { worst: 0 } }, `"bounds" {"worst":0}: expected { worst, best } numbers`],
  ];
  for (const [change, detail] of cases) {
    await withTempDir(async (dir) => {
      const { file, line } = await writeWithOutcome(dir, change);
      await assert.rejects(() => loadRuns(dir, { strict: true }), {
        name: "SyntaxError",
        message:
          `${file}:${line}: episode_end of run "hand" episode "E1" has outcome field ${detail}`,
      });
    });
  }
});

Deno.test("loadRuns() flags a second episode_start or episode_end of an episode in one file", async () => {
  await withTempDir(async (dir) => {
    const lines = ndjson(episodeEvents(EPISODES[0])).trimEnd().split("\n");
    const file = `${dir}/E1.ndjson`;
    await Deno.writeTextFile(file, [...lines.slice(0, 3), lines[0], ...lines.slice(3)].join("\n"));
    await assert.rejects(() => loadRuns(dir, { strict: true }), {
      name: "SyntaxError",
      message:
        `${file}:4: a second episode_start of run "hand" episode "E1" (the first is at line 1)`,
    });
    const loose = await loadRuns(dir);
    assert.deepEqual(loose.malformed.map((m) => m.line), [4]);
    assert.equal(loose.episodes.height, 1);
    assert.equal(loose.episodes.getColumn("status").toArray()[0], "ok");
    await Deno.writeTextFile(file, [...lines, lines.at(-1)].join("\n"));
    await assert.rejects(() => loadRuns(dir, { strict: true }), {
      name: "SyntaxError",
      message: `${file}:${lines.length + 1}: a second episode_end of run "hand" episode "E1" ` +
        `(the first is at line ${lines.length})`,
    });
  });
});

Deno.test("loadRuns() refuses an llm_call whose token count is not a number", async () => {
  await withTempDir(async (dir) => {
    const events = episodeEvents(EPISODES[0]);
    const at = events.findIndex((e) => e.type === "decision");
    const decision = events[at] as Record<string, unknown>;
    const call: Record<string, unknown> = {
      ...decision,
      type: "llm_call",
      model: "m",
      provider: "p",
      provider_model: "pm",
      status: "ok",
      cache: "miss",
      attempts: 1,
      failures: [],
      latency_ms: 5,
      wall_ms: 6,
      tokens_in: "12",
      tokens_out: 3,
      tokens_reasoning: 0,
      cost: null,
      finish_reason: "stop",
      content: "{}",
      reasoning: null,
      prompt_hash: "h",
      cache_key: "k",
      error: null,
      usage_warning: null,
    };
    for (
      const k of ["action", "alternative", "reported", "probability", "draw", "realized", "amount"]
    ) delete call[k];
    delete call.committed;
    const file = `${dir}/E1.ndjson`;
    await Deno.writeTextFile(file, ndjson([...events.slice(0, at), call, ...events.slice(at)]));
    await assert.rejects(() => loadRuns(dir, { strict: true, frames: [] }), {
      name: "SyntaxError",
      message: `${file}:${at + 1}: llm_call of run "hand" episode "E1" has field "tokens_in" ` +
        `"12": expected a non-negative integer`,
    });
    // Not strict: the line is listed, and its episode's usage is unknown, not 0.
    const { episodes, malformed } = await loadRuns(dir, { frames: [] });
    assert.deepEqual(malformed.map((m) => m.line), [at + 1]);
    assert.deepEqual(episodes.select("model_calls", "tokens_in", "cost").toRecords(), [
      { model_calls: 1, tokens_in: null, cost: null },
    ]);
  });
});

import { assert, assertEquals, assertRejects } from "../../_assert.ts";
import type { Agent } from "../../../engine/core/agent.ts";
import { llmPopulation } from "../../../engine/agents/llm/llm_agent.ts";
import { LlmRuntime } from "../../../engine/agents/llm/runtime.ts";
import { serveLocalModel } from "../../../engine/agents/llm/server/local_server.ts";
import type { GridEpisode } from "../../../engine/grid/cells.ts";
import { readManifest } from "../../../engine/grid/manifest.ts";
import type { GridProgress } from "../../../engine/grid/progress.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { readRunEpisodes } from "../../../engine/grid/segments.ts";
import { digestFolder, episodeLog, fileNames, segmentFiles } from "./_logs.ts";
import { quiet, SMALL } from "./_grid_fixture.ts";
import { makeTempDir } from "../../_temp.ts";

Deno.test("runGrid() resumes by skipping finished logs, indexing complete blocks and redoing a torn one", async () => {
  const out = await makeTempDir();
  const first = await runGrid(SMALL, { out, ...quiet });
  assertEquals([first.total, first.played, first.skipped, first.remaining], [6, 6, 0, 0]);
  const before = await digestFolder(out);
  assertEquals(before.size, 6);
  // What a kill can leave: the last two blocks not yet indexed, the last one
  // cut in half; a temporary manifest; and a user's own file, to be kept.
  const [data, index] = (await segmentFiles(out)).filter((n) => !n.endsWith(".tmp")).sort()
    .reverse();
  const lines = (await Deno.readTextFile(`${out}/${index}`)).trimEnd().split("\n");
  const last = JSON.parse(lines.at(-1)!) as { offset: number; bytes: number };
  await Deno.writeTextFile(`${out}/${index}`, lines.slice(0, -2).join("\n") + "\n");
  await Deno.truncate(`${out}/${data}`, last.offset + Math.floor(last.bytes / 2));
  await Deno.writeTextFile(`${out}/manifest.json.${crypto.randomUUID()}.tmp`, "{");
  await Deno.writeTextFile(`${out}/notes.tmp`, "mine");
  const again = await runGrid(SMALL, { out, ...quiet });
  assertEquals(
    [again.skipped, again.played, again.removedTemporary, again.removedPartial, again.remaining],
    [5, 1, 1, 1, 0],
  );
  assertEquals(await digestFolder(out), before);
  assertEquals(await Deno.readTextFile(`${out}/notes.tmp`), "mine");
  assertEquals((await fileNames(out)).length, 1 + 1 + 2 * 2);
  const m = (await readManifest(out))!;
  assertEquals([m.status, m.sessions.length, m.episodes, m.total], ["complete", 2, 6, 6]);
  assertEquals(m.sessions.map((s) => [s.skipped, s.played, s.interrupted]), [[0, 6, false], [
    5,
    1,
    false,
  ]]);
});

Deno.test("runGrid() refuses another spec, another shard, or foreign logs on a folder", async () => {
  const out = await makeTempDir();
  await runGrid(SMALL, { out, ...quiet });
  await assertRejects(
    () => runGrid({ ...SMALL, episodes: 3 }, { out, ...quiet }),
    RangeError,
    `Run folder "${out}" holds a different spec`,
  );
  await assertRejects(
    () => runGrid({ ...SMALL, episodes: 3 }, { out, ...quiet }),
    RangeError,
    'first difference at "episodes": 2 there, 3 now',
  );
  await assertRejects(
    () => runGrid(SMALL, { out, ...quiet, shard: "0/2" }),
    RangeError,
    "holds the whole grid of this spec, not shard 0/2: give each shard its own folder",
  );
  const foreign = await makeTempDir();
  await Deno.writeTextFile(`${foreign}/x.ndjson`, "");
  await assertRejects(
    () => runGrid(SMALL, { out: foreign, ...quiet }),
    RangeError,
    "holds episode logs but no manifest.json",
  );
});

Deno.test("runGrid() plays the same logs in workers as in-process", async () => {
  const a = await makeTempDir();
  const b = await makeTempDir();
  const inProcess = await runGrid(SMALL, { out: a, ...quiet });
  const workers = await runGrid(SMALL, { out: b, workers: 2, progress: false });
  assertEquals([inProcess.mode, workers.mode], ["in-process", "workers"]);
  assertEquals(await digestFolder(b), await digestFolder(a));
});

Deno.test("runGrid() refuses model agents without an LLM runtime or an agents factory", async () => {
  await assertRejects(
    () =>
      runGrid({
        blocks: [{ game: "frail", envs: ["bank_run"], agents: [{ model: "gpt-5.2" }] }],
      }, { out: "/nonexistent/never", ...quiet }),
    TypeError,
    'Episode "bank_run_M0_stable_gpt-5.2_e0" names LLM agents: pass an LLM runtime (RunGridOptions.runtime) or an agents factory',
  );
});

Deno.test("runGrid() builds agents with the factory hook, per episode, and records their policies", async () => {
  const out = await makeTempDir();
  const seen: GridEpisode[] = [];
  const stay = (policy: string): Agent => ({
    policy,
    decide: (req) =>
      Promise.resolve(
        req.call === "withdrawal"
          ? { withdraw_probability: 0, reasoning: "stay" }
          : req.call === "rejustify"
          ? { justification: "ok" }
          : { action: "Stag", confidence: 1, justification: "ok" },
      ),
  });
  const r = await runGrid({
    episodes: 1,
    blocks: [
      { game: "frail", envs: ["bank_run"], mechanisms: ["M0"], agents: [{ model: "m1" }] },
      {
        game: "staghunt",
        N: [3],
        M: [2],
        T: [1],
        F: [1],
        heterogeneity: ["h2"],
        agents: [{ models: { kind: "h2", pool: ["a", "b"] } }],
      },
    ],
  }, {
    out,
    progress: false,
    agents: (ep) => {
      seen.push(ep);
      return (player) =>
        stay(`test:${player.model ?? (ep.agents.kind === "model" ? ep.agents.model : "")}`);
    },
  });
  assertEquals([r.mode, r.played, r.failed.length], ["in-process", 2, 0]);
  assertEquals(seen.map((e) => e.id).sort(), [
    "bank_run_M0_stable_m1_e0",
    "staghunt_N3_M2_T1_F1_base_h2_a_b_e0",
  ]);
  const sh = await episodeLog(out, "staghunt_N3_M2_T1_F1_base_h2_a_b_e0");
  const start = sh[0] as unknown as {
    condition: { heterogeneity: string };
    agents: { id: string; policy: string }[];
  };
  assertEquals(start.condition.heterogeneity, "h2");
  assertEquals(start.agents.map((a) => `${a.id}:${a.policy}`), [
    "p01:test:a",
    "p02:test:b",
    "p03:test:a",
  ]);
  const br = await episodeLog(out, "bank_run_M0_stable_m1_e0");
  assert(
    (br[0] as unknown as { agents: { policy: string }[] }).agents.every((a) =>
      a.policy === "test:m1"
    ),
  );
});

Deno.test("runGrid() plays h2 and h3 cells with mock players tagged by their model", async () => {
  const out = await makeTempDir();
  await runGrid({
    episodes: 1,
    blocks: [{
      game: "staghunt",
      N: [4],
      M: [2],
      T: [1],
      F: [2],
      heterogeneity: ["h3"],
      agents: [{
        models: { kind: "h3", strong: "big", weak: "small" },
        mock: { players: "always_stag" },
      }],
    }],
  }, { out, ...quiet });
  const [[name, log]] = await readRunEpisodes(out);
  assertEquals(name, "staghunt_N4_M2_T1_F2_base_h3_mock-always_stag-big_small_e0");
  const start = log[0] as unknown as { agents: { id: string; policy: string }[] };
  const assigned = log.find((e) =>
    e.type === "transition" && e.kind === "corruption_assigned"
  ) as unknown as {
    corrupted: string[];
  };
  for (const a of start.agents) {
    const model = assigned.corrupted.includes(a.id) ? "big" : "small";
    assertEquals(a.policy, `mock:always_stag@${model}`);
  }
});

Deno.test("runGrid() keeps crashed episodes' logs, counts them as failures, and redoes them on request", async () => {
  const out = await makeTempDir();
  const spec = { episodes: 2, blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0"] }] };
  const crash = await runGrid(spec, {
    out,
    progress: false,
    agents: (ep) =>
      ep.replicate === 0
        ? () => {
          throw new Error("no agents today");
        }
        : undefined,
  });
  assertEquals(crash.failed, [{ id: "bank_run_M0_stable_mock_e0", error: "no agents today" }]);
  assertEquals([crash.remaining, (await readManifest(out))!.status], [0, "complete"]);
  const log = await episodeLog(out, "bank_run_M0_stable_mock_e0");
  assertEquals([log.at(-1)!.type, (log.at(-1) as { status?: string }).status], [
    "episode_end",
    "error",
  ]);
  const skip = await runGrid(spec, { out, ...quiet });
  assertEquals([skip.skipped, skip.played], [2, 0]);
  const redo = await runGrid(spec, { out, ...quiet, redoFailed: true });
  assertEquals([redo.skipped, redo.played, redo.failed.length], [1, 1, 0]);
  // The failed block is retired: one log per episode, the redone one ok.
  const logs = await readRunEpisodes(out);
  assertEquals(logs.size, 2);
  assertEquals(
    (logs.get("bank_run_M0_stable_mock_e0")!.at(-1) as { status?: string }).status,
    "ok",
  );
});

Deno.test("runGrid() stops starting episodes on abort, reports progress, and resumes to the end", async () => {
  const out = await makeTempDir();
  const stop = new AbortController();
  const updates: GridProgress[] = [];
  let finished: [GridProgress, string | undefined] | undefined;
  const r = await runGrid(SMALL, {
    out,
    workers: 0,
    concurrency: 1,
    signal: stop.signal,
    onEpisode: () => updates.length >= 2 && stop.abort(),
    progress: {
      update: (p) => updates.push(p),
      finish: (p, m) => (finished = [p, m]),
    },
  });
  assertEquals([r.interrupted, r.played, r.remaining], [true, 3, 3]);
  assertEquals(updates.slice(0, 3).map((p) => [p.done, p.total, p.usage]), [[1, 6, null], [
    2,
    6,
    null,
  ], [
    3,
    6,
    null,
  ]]);
  assertEquals(
    finished![1],
    `Interrupted: 3 of 6 episodes finished in ${out}; run the same spec on the same folder to resume.`,
  );
  assertEquals((await readManifest(out))!.status, "interrupted");
  const rest = await runGrid(SMALL, { out, ...quiet });
  assertEquals([rest.skipped, rest.played, rest.interrupted], [3, 3, false]);
  assertEquals((await readManifest(out))!.status, "complete");
});

Deno.test("runGrid() abandons in-flight episodes on the abandon signal and returns at once", async () => {
  const out = await makeTempDir();
  const abandon = new AbortController();
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const r = await runGrid({
    episodes: 1,
    blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0"] }],
  }, {
    out,
    progress: false,
    abandon: abandon.signal,
    agents: () => () => ({
      policy: "test:slow",
      decide: async () => {
        abandon.abort();
        await gate;
        return { withdraw_probability: 0, reasoning: "late" };
      },
    }),
  });
  assertEquals([r.interrupted, r.played, r.remaining], [true, 0, 1]);
  assertEquals((await readManifest(out))!.status, "interrupted");
  release();
  // The abandoned episode may finish in the background, but is not logged
  // once the run has returned; resuming plays it, once.
  const rest = await runGrid({
    episodes: 1,
    blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0"] }],
  }, { out, ...quiet });
  assertEquals([rest.skipped, rest.played], [0, 1]);
  assertEquals([...(await readRunEpisodes(out)).keys()], ["bank_run_M0_stable_mock_e0"]);
});

// Needs a local HTTP server: skipped where the test run has no net permission.
const NO_NET =
  (await Deno.permissions.query({ name: "net", host: "127.0.0.1" })).state !== "granted";

Deno.test({
  name: "runGrid() runs LLM agents through the hook and counts their tokens",
  ignore: NO_NET,
}, async () => {
  const server = serveLocalModel({ seed: 1 });
  try {
    const runtime = new LlmRuntime({
      models: [{
        id: "local",
        baseURL: server.url,
        model: "coordlab-defensive",
        testDouble: true,
        concurrency: 8,
      }],
    });
    const out = await makeTempDir();
    let last: GridProgress | undefined;
    const r = await runGrid({
      episodes: 2,
      blocks: [{
        game: "frail",
        envs: ["bank_run"],
        mechanisms: ["M0", "M2"],
        agents: [{ model: "local" }],
      }],
    }, {
      out,
      concurrency: 4,
      progress: { update: (p) => (last = p), finish: (p) => (last = p) },
      agents: (ep) =>
        llmPopulation({
          runtime,
          env: "bank_run",
          models: ep.agents.kind === "model" ? ep.agents.model as string : "local",
          sample: ep.seed,
          episode: ep.id,
        }),
    });
    assertEquals([r.played, r.failed.length], [4, 0]);
    let tokens = 0;
    for (const events of (await readRunEpisodes(out)).values()) {
      for (const e of events) {
        if (e.type === "llm_call") tokens += e.tokens_in + e.tokens_out;
      }
    }
    assert(tokens > 0);
    const shown = last!.usage!;
    assertEquals([r.usage.tokensIn + r.usage.tokensOut, shown.tokensIn + shown.tokensOut], [
      tokens,
      tokens,
    ]);
    assertEquals([r.usage.calls, r.stopped, last!.runtime], [server.stats().chat, null, null]);
  } finally {
    await server.close();
  }
});

Deno.test("runGrid() plays every FRAIL environment with its own rule-based agents from one mock entry", async () => {
  const out = await makeTempDir();
  const r = await runGrid({
    episodes: 1,
    blocks: [{
      game: "frail",
      envs: ["bank_run", "debt_rollover", "crowdfunding"],
      mechanisms: ["M2"],
      agents: [{
        mock: { depositors: "always_stay", creditors: "always_roll", founder: "passive" },
      }],
    }],
  }, { out, ...quiet });
  assertEquals([r.played, r.failed.length], [3, 0]);
  const roles: Record<string, string[]> = {};
  for (const [name, events] of await readRunEpisodes(out)) {
    const start = events[0] as unknown as { agents: { role: string; policy: string }[] };
    roles[name] = [...new Set(start.agents.map((a) => `${a.role}=${a.policy}`))].sort();
  }
  assertEquals(roles, {
    "bank_run_M2_stable_mock-always_stay_e0": [
      "bank=mock:active_bank",
      "depositor=mock:always_stay",
    ],
    "crowdfunding_M2_stable_mock-passive_e0": [
      "backer=mock:hesitant",
      "founder=mock:passive_founder",
    ],
    "debt_rollover_M2_stable_mock-always_roll_e0": [
      "borrower=mock:active_borrower",
      "creditor=mock:always_roll",
    ],
  });
});

Deno.test("runGrid() makes workers import gameModules, so games registered elsewhere play there too", async () => {
  const spec = { episodes: 2, blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0"] }] };
  const policies = async (out: string) => {
    const seen = new Set<string>();
    for (const events of (await readRunEpisodes(out)).values()) {
      const start = events[0] as unknown as { agents: { policy: string }[] };
      start.agents.forEach((a) => seen.add(a.policy));
    }
    return [...seen];
  };
  const plain = await makeTempDir();
  await runGrid(spec, { out: plain, workers: 1, progress: false });
  assertEquals(await policies(plain), ["mock:defensive"]);
  const custom = await makeTempDir();
  const r = await runGrid(spec, {
    out: custom,
    workers: 1,
    progress: false,
    gameModules: [new URL("./_always_stay_game.ts", import.meta.url).href],
  });
  assertEquals(r.mode, "workers");
  assertEquals(await policies(custom), ["mock:always_stay"]);
});

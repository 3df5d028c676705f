import assert from "node:assert/strict";
import type { Agent } from "../../../../engine/core/agent.ts";
import { assignModel, assignModels } from "../../../../engine/games/staghunt/heterogeneity.ts";
import { corruptedPlayers } from "../../../../engine/games/staghunt/corruption.ts";
import type { StagHuntPlayer } from "../../../../engine/games/staghunt/players.ts";
import { runStagHuntEpisode } from "../../../../engine/run_staghunt_episode.ts";
import { makeTempDir } from "../../../_temp.ts";

async function rejectsWith(fn: () => Promise<unknown>, cls: ErrorConstructor, message: RegExp) {
  await assert.rejects(fn, (e: Error) => e instanceof cls && message.test(e.message));
}

Deno.test("runStagHuntEpisode() validates its config and parameters before writing anything", async () => {
  const dir = await makeTempDir();
  try {
    await rejectsWith(
      () => runStagHuntEpisode({ seed: -1, outDir: dir }),
      RangeError,
      /config "seed"/,
    );
    await rejectsWith(
      () => runStagHuntEpisode({ seed: 1, colour: "red", outDir: dir } as never),
      RangeError,
      /config "colour"/,
    );
    await rejectsWith(
      () => runStagHuntEpisode({ seed: 1, N: 3, M: 4, outDir: dir }),
      RangeError,
      /parameter "M"/,
    );
    await rejectsWith(
      () => runStagHuntEpisode({ seed: 1, payoffs: [2, 2, 0, 2], outDir: dir }),
      RangeError,
      /parameter "payoffs": must satisfy the Stag Hunt ordering R_S > H_F >= H_S > R_F/,
    );
    await rejectsWith(
      () => runStagHuntEpisode({ seed: 1, models: { kind: "h2", pool: [] }, outDir: dir }),
      RangeError,
      /config "models/,
    );
    await rejectsWith(
      () => runStagHuntEpisode({ seed: 1, run: "a/b", outDir: dir }),
      RangeError,
      /config "run"/,
    );
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runStagHuntEpisode() records corruption, heterogeneity and assigned models in episode_start", async () => {
  const seen: StagHuntPlayer[] = [];
  const factory = (p: StagHuntPlayer): Agent => {
    seen.push(p);
    return {
      policy: `llm:${p.model}`,
      decide: (req) =>
        Promise.resolve(
          req.call === "rejustify"
            ? { justification: "x" }
            : { action: "Stag", confidence: 1, justification: "y" },
        ),
    };
  };
  const policy = { kind: "h3", strong: "big", weak: "small" } as const;
  const r = await runStagHuntEpisode({
    N: 5,
    M: 3,
    T: 1,
    F: 2,
    seed: 8,
    models: policy,
    agents: factory,
  });
  const start = r.events[0];
  if (start.type !== "episode_start") throw new Error();
  assert.equal(start.game, "staghunt");
  assert.equal(start.condition.corruption, "base");
  assert.equal(start.condition.heterogeneity, "h3");
  assert.equal(start.condition_id, "staghunt_N5_M3_T1_F2_base_h3");
  const bad = new Set(corruptedPlayers({ N: 5, F: 2 }, 8));
  for (const a of start.agents) assert.equal(a.policy, bad.has(a.id) ? "llm:big" : "llm:small");
  assert.deepEqual(r.models, assignModels({ N: 5, F: 2 }, { seed: 8, policy }));
  // The factory learns id, role, index and model, never the corrupted flag.
  assert.deepEqual(Object.keys(seen[0]).sort(), ["id", "index", "model", "role"]);
  assert.deepEqual(seen.map((p) => p.index), [0, 1, 2, 3, 4]);
});

Deno.test("runStagHuntEpisode() tags mock policies with their h2 model", async () => {
  const r = await runStagHuntEpisode({
    N: 3,
    M: 2,
    T: 1,
    seed: 1,
    models: { kind: "h2", pool: ["a", "b"] },
    agents: { players: "always_stag" },
  });
  const start = r.events[0];
  if (start.type !== "episode_start") throw new Error();
  assert.deepEqual(start.agents.map((a) => a.policy), [
    "mock:always_stag@a",
    "mock:always_stag@b",
    "mock:always_stag@a",
  ]);
  assert.equal(r.outcome.success, true);
});

Deno.test("assignModel() implements h1, h2 round-robin and both h3 directions", () => {
  assert.equal(assignModel({ index: 4, corrupted: true }, { kind: "h1", model: "m" }), "m");
  const pool = { kind: "h2", pool: ["a", "b", "c"] } as const;
  assert.deepEqual([0, 1, 2, 3, 4].map((index) => assignModel({ index, corrupted: false }, pool)), [
    "a",
    "b",
    "c",
    "a",
    "b",
  ]);
  const weak = { kind: "h3", strong: "S", weak: "W", corrupted: "weak" } as const;
  assert.equal(assignModel({ index: 0, corrupted: true }, weak), "W");
  assert.equal(assignModel({ index: 0, corrupted: false }, weak), "S");
  assert.throws(() => assignModel({ index: -1, corrupted: false }, pool), RangeError);
});

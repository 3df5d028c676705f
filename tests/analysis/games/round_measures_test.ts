import assert from "node:assert/strict";
import type { AgentFactory } from "../../../engine/core/agent.ts";
import type { EngineEvent } from "../../../engine/core/events.ts";
import { playAndLog } from "../../../engine/core/episode_run.ts";
import { minEffortSetup } from "../../../engine/games/min_effort/descriptor.ts";
import { minEffort } from "../../../engine/games/min_effort/environment.ts";
import { roundMeasureRows } from "../../../engine/games/min_effort/measures.ts";
import { minEffortMockAgents } from "../../../engine/games/min_effort/mock.ts";
import { renderPng, renderSvg } from "../../../analysis/charts/render.ts";
import { roundMeasuresChart, roundMeasuresTable } from "../../../analysis/games/round_measures.ts";
import { decodePng, pngSize } from "../_png.ts";
import { minEffortFrames } from "./_min_effort_frames.ts";

async function episode(
  fields: Record<string, unknown>,
  seed: number,
  agents?: AgentFactory,
): Promise<EngineEvent[]> {
  const { played } = await playAndLog(minEffort, {
    ...minEffortSetup(fields),
    seed,
    agents: agents ?? minEffortMockAgents({ seed }),
  }, {
    run: "r",
    episode: `${JSON.stringify(fields)}_s${seed}`,
    clock: () => "2026-01-01T00:00:00.000Z",
    events: true,
    hashes: false,
    ndjson: false,
  });
  return played.events;
}

Deno.test("roundMeasuresTable() averages each round over the episodes of a condition", async () => {
  const logs = [await episode({}, 1), await episode({}, 2), await episode({}, 3)];
  const { episodes, rounds } = minEffortFrames(logs);
  const table = roundMeasuresTable(episodes, rounds);
  assert.deepEqual(table.columns, [
    "N",
    "T",
    "a",
    "b",
    "c",
    "efforts",
    "model",
    "round",
    "episodes",
    "minimum",
    "mean_effort",
    "mean_payoff",
  ]);
  assert.equal(table.height, 10);
  const rows = table.toRecords();
  assert.deepEqual(rows.map((r) => r.round), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.ok(rows.every((r) => r.episodes === 3));
  // Seeds 1, 2 and 3 open with minima 2, 3 and 2 and end with 1, 1 and 2.
  assert.equal(rows[0].minimum, 7 / 3);
  assert.equal(rows[9].minimum, 4 / 3);
  // The same numbers as the engine's measures of each log.
  const perEpisode = logs.map(roundMeasureRows);
  for (let r = 0; r < 10; r++) {
    const mean = perEpisode.reduce((s, rows) => s + rows[r].mean_effort, 0) / 3;
    assert.ok(Math.abs((rows[r].mean_effort as number) - mean) < 1e-12, `round ${r + 1}`);
  }
});

Deno.test("roundMeasuresTable() keeps conditions and models apart and counts only ok episodes", async () => {
  const crash: AgentFactory = () => ({
    policy: "test:crash",
    decide: () => {
      throw new Error("down");
    },
  });
  const logs = [
    await episode({}, 1),
    await episode({ N: 3, T: 2 }, 1),
    await episode({ N: 3, T: 2 }, 2),
    await episode({ N: 3, T: 2 }, 3, crash), // degraded: every reply failed
  ];
  const { episodes, rounds } = minEffortFrames(logs);
  const table = roundMeasuresTable(episodes, rounds);
  assert.deepEqual(
    table.toRecords().map((r) => `${r.N}/${r.round}/${r.episodes}`),
    [
      "3/1/2",
      "3/2/2",
      "7/1/1",
      "7/2/1",
      "7/3/1",
      "7/4/1",
      "7/5/1",
      "7/6/1",
      "7/7/1",
      "7/8/1",
      "7/9/1",
      "7/10/1",
    ],
  );
  const degraded = roundMeasuresTable(episodes, rounds, { includeDegraded: true });
  const n3 = degraded.toRecords().filter((r) => r.N === 3);
  assert.deepEqual(n3.map((r) => r.model), [
    "mock:best_response(epsilon=0.1)",
    "mock:best_response(epsilon=0.1)",
    "test:crash",
    "test:crash",
  ]);
});

Deno.test("roundMeasuresTable() names a missing column", () => {
  const pl = minEffortFrames([]);
  assert.throws(() => roundMeasuresTable(pl.episodes, pl.rounds), {
    name: "RangeError",
    message: /^roundMeasuresTable\(\) needs a column "run"/,
  });
});

Deno.test("roundMeasuresChart() draws mean effort and minimum by round, one panel per condition", async () => {
  const logs = [];
  for (let seed = 1; seed <= 8; seed++) logs.push(await episode({}, seed));
  for (let seed = 1; seed <= 8; seed++) logs.push(await episode({ N: 3 }, seed));
  const { episodes, rounds } = minEffortFrames(logs);
  const spec = roundMeasuresChart(roundMeasuresTable(episodes, rounds));
  assert.ok("facet" in spec);
  const svg = await renderSvg(spec);
  assert.equal(svg.match(/aria-roledescription="line mark"/g)?.length, 4);
  assert.ok(svg.includes(">N=3</text>") && svg.includes(">N=7</text>"));
  assert.ok(svg.includes("Mock agents (scripted policies, no LLM)"));
  const png = await renderPng(spec, { width: 900 });
  assert.equal(pngSize(png).width, 900);
  // Both series are drawn: the line colours of the default scheme appear.
  const { pixels } = decodePng(png);
  let blue = 0, orange = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    const [r, g, b] = [pixels[i], pixels[i + 1], pixels[i + 2]];
    if (Math.abs(r - 0x4c) < 8 && Math.abs(g - 0x78) < 8 && Math.abs(b - 0xa8) < 8) blue++;
    if (Math.abs(r - 0xf5) < 8 && Math.abs(g - 0x85) < 8 && Math.abs(b - 0x18) < 8) orange++;
  }
  assert.ok(blue > 200 && orange > 200, `${blue} blue, ${orange} orange`);
  const out = Deno.env.get("MIN_EFFORT_CHART_PNG");
  if (out) await Deno.writeFile(out, png);
});

Deno.test("roundMeasuresChart() draws one plot without a facet for one condition", async () => {
  const logs = [await episode({ T: 4 }, 1), await episode({ T: 4 }, 2)];
  const { episodes, rounds } = minEffortFrames(logs);
  const spec = roundMeasuresChart(roundMeasuresTable(episodes, rounds), { width: 200 });
  assert.ok(!("facet" in spec) && "layer" in spec);
  assert.equal((spec as { width: number }).width, 200);
  assert.throws(() => roundMeasuresChart([], { height: 0 }), { name: "RangeError" });
});

import assert from "node:assert/strict";
import {
  effortCountColumns,
  ROUND_MEASURE_COLUMNS,
  roundMeasureRows,
  roundMeasures,
} from "../../../../engine/games/min_effort/measures.ts";
import { play } from "./_fixtures.ts";

Deno.test("roundMeasures() gives the minimum, mean, mode, mean payoff and counts of a round", () => {
  assert.deepEqual(roundMeasures([4, 2, 4, 2, 7], [0.1, 0.2, 0.3, 0.4, 0.5], 7), {
    minimum: 2,
    mean_effort: 3.8,
    modal_effort: 2, // 2 and 4 both twice: the lower
    mean_payoff: 0.3,
    effort_1: 0,
    effort_2: 2,
    effort_3: 0,
    effort_4: 2,
    effort_5: 0,
    effort_6: 0,
    effort_7: 1,
  });
});

Deno.test("roundMeasures() refuses efforts it cannot count", () => {
  assert.throws(() => roundMeasures([], [], 7), { message: "A round needs at least one effort" });
  assert.throws(() => roundMeasures([8], [0], 7), {
    message: "Effort 8 is not an integer in 1..7",
  });
  assert.throws(() => roundMeasures([1, 2], [0], 7), {
    message: "A round has 2 efforts but 1 payoffs: one each per player",
  });
});

Deno.test("roundMeasureRows() reads every round of a played episode in order", async () => {
  const { played } = await play({ seed: 1 });
  const rows = roundMeasureRows(played.events);
  assert.deepEqual(rows.map((r) => r.round), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.deepEqual(rows.map((r) => r.minimum), [2, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
  assert.deepEqual(rows.map((r) => r.modal_effort), [7, 2, 1, 1, 1, 1, 1, 1, 1, 1]);
  // Round 1 efforts 7777277: mean 44/7, six at 7.
  assert.equal(rows[0].mean_effort, 44 / 7);
  assert.equal(rows[0].effort_7, 6);
  assert.equal(rows[0].effort_2, 1);
  const columns = [...ROUND_MEASURE_COLUMNS, ...effortCountColumns(7)].map((c) => c.column);
  assert.deepEqual(Object.keys(rows[0]), ["round", ...columns]);
});

Deno.test("roundMeasureRows() refuses events of another game or without a start", () => {
  assert.throws(() => roundMeasureRows([]), {
    name: "TypeError",
    message: "Cannot measure rounds: the events hold no episode_start",
  });
  assert.throws(() => roundMeasureRows([{ type: "episode_start", env: "staghunt" }] as never), {
    message: 'Cannot measure rounds of a "staghunt" episode as minimum-effort rounds',
  });
});

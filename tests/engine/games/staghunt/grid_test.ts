import assert from "node:assert/strict";
import { REALISED_F, stagHuntGrid } from "../../../../engine/games/staghunt/grid.ts";
import { throwsWith } from "./_fixtures.ts";

Deno.test("stagHuntGrid() lists the paper's 90 base points over the realised support", () => {
  const base = stagHuntGrid().filter((c) => c.condition === "base");
  // (N = 2: 2 M x 2 F) + (N = 3: 3 x 2) + (N = 5: 5 x 4) = 30 cells, times T in {1, 2, 4}.
  assert.equal(base.length, 90);
  assert.equal(new Set(base.map((c) => c.id)).size, 90);
  for (const c of base) {
    assert.ok([2, 3, 5].includes(c.N) && [1, 2, 4].includes(c.T));
    assert.ok(c.M >= 1 && c.M <= c.N);
    assert.ok(REALISED_F[c.N].includes(c.F));
    assert.deepEqual([c.corruption, c.heterogeneity], ["base", "h1"]);
  }
  assert.equal(base.filter((c) => c.N === 5 && c.M === 3 && c.T === 4).length, 4);
  assert.equal(base.filter((c) => c.F === 0).length, 2 * 3); // only N = 2 has F = 0
});

Deno.test("stagHuntGrid() runs every ablation on the same seeded subset of 50 base points", () => {
  const grid = stagHuntGrid({ seed: 7 });
  const points = (cond: string) =>
    grid.filter((c) => c.condition === cond).map((c) => c.point).sort();
  assert.equal(points("b3").length, 50);
  assert.deepEqual(points("h2"), points("b3"));
  assert.deepEqual(points("h3"), points("b3"));
  for (const c of grid.filter((x) => x.condition === "b3")) {
    assert.deepEqual([c.corruption, c.heterogeneity], ["b3", "h1"]);
  }
  for (const c of grid.filter((x) => x.condition === "h2")) {
    assert.deepEqual([c.corruption, c.heterogeneity], ["base", "h2"]);
  }
  // Reproducible from the seed; another seed draws another subset.
  assert.deepEqual(stagHuntGrid({ seed: 7 }), grid);
  const other = stagHuntGrid({ seed: 8 }).filter((c) => c.condition === "b3").map((c) => c.point)
    .sort();
  assert.notDeepEqual(other, points("b3"));
  assert.equal(grid.length, 90 + 3 * 50);
});

Deno.test("stagHuntGrid() validates its options", () => {
  throwsWith(
    () => stagHuntGrid({ ablations: ["h4" as never] }),
    RangeError,
    /Unknown ablation "h4"/,
  );
  throwsWith(() => stagHuntGrid({ ablationPoints: -1 }), RangeError, /"ablationPoints"/);
  throwsWith(() => stagHuntGrid({ N: [2], F: { 2: [3] } }), RangeError, /F for N = 2/);
  assert.equal(stagHuntGrid({ N: [4], T: [1], ablations: [] }).length, 4 * 3); // F = 1..3 by default
});

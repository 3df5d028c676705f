import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import { branchEffects } from "../../analysis/branch_effects.ts";

function frame(rows: Record<string, unknown>[]) {
  const cols = [
    "run",
    "episode",
    "status",
    "condition_id",
    "branch_of_run",
    "branch_of",
    "branch_change",
  ];
  return pl.DataFrame([
    ...cols.map((c) => pl.Series(c, rows.map((r) => (r[c] ?? null) as string | null), pl.Utf8)),
    pl.Series("branch_round", rows.map((r) => (r.branch_round ?? null) as number | null), pl.Int32),
    pl.Series("welfare", rows.map((r) => r.welfare as number | null), pl.Float64),
    pl.Series("success", rows.map((r) => r.success as boolean), pl.Bool),
    pl.Series("label", rows.map(() => "x"), pl.Utf8),
  ]);
}

const parent = (i: number, welfare: number, success: boolean, status = "ok") => ({
  run: "p",
  episode: `e${i}`,
  status,
  condition_id: "bank_run_M0_stable",
  welfare,
  success,
});
const branch = (i: number, welfare: number | null, success: boolean, status = "ok") => ({
  run: "b",
  episode: `e${i}_b2_M3`,
  status,
  condition_id: "bank_run_M3_stable",
  branch_of_run: "p",
  branch_of: `e${i}`,
  branch_round: 2,
  branch_change: '{"mechanism":"M3"}',
  welfare,
  success,
});

Deno.test("branchEffects() gives paired differences with paired intervals beside the unpaired contrast", () => {
  const df = frame([
    parent(0, 1, false),
    parent(1, 2, false),
    parent(2, 3, true),
    parent(3, 4, true),
    parent(4, 9, true, "degraded"),
    branch(0, 2, true),
    branch(1, 3, false),
    branch(2, 5, true),
    branch(3, 5, true),
    branch(4, 1, true),
  ]);
  const [w, s] = branchEffects({ episodes: df }, { outcomes: ["welfare", "success"] }).toRecords();
  // d = 1, 1, 2, 1: mean 1.25, sd 0.5, se 0.25. sd(parent) = 1.291, sd(branch) = 1.5.
  assert.deepEqual(
    [w.parent_condition, w.condition_id, w.branch_round, w.change, w.outcome, w.pairs, w.dropped],
    ["bank_run_M0_stable", "bank_run_M3_stable", 2, '{"mechanism":"M3"}', "welfare", 4, 1],
  );
  assert.deepEqual([w.parent_mean, w.branch_mean, w.effect, w.paired_se], [2.5, 3.75, 1.25, 0.25]);
  assert.equal((w.paired_lower as number).toFixed(4), "0.7600");
  assert.equal((w.paired_upper as number).toFixed(4), "1.7400");
  assert.equal((w.unpaired_se as number).toFixed(5), "0.98953");
  assert.equal((w.unpaired_lower as number).toFixed(4), "-0.6895");
  assert.equal((w.variance_saved as number).toFixed(5), "0.93617");
  // success: parents 0, 0, 1, 1; branches 1, 0, 1, 1: d = 1, 0, 0, 0.
  assert.deepEqual([s.outcome, s.pairs, s.effect, s.parent_mean, s.branch_mean], [
    "success",
    4,
    0.25,
    0.5,
    0.75,
  ]);
  // The whole frame's episodes frame works the same as the frames object.
  assert.equal(branchEffects(df, { outcomes: ["welfare"] }).height, 1);
});

Deno.test("branchEffects() counts null outcomes as dropped pairs", () => {
  const df = frame([
    parent(0, 1, true),
    parent(1, 2, true),
    branch(0, null, true),
    branch(1, 4, true),
  ]);
  const [w] = branchEffects(df, { outcomes: ["welfare"] }).toRecords();
  assert.deepEqual([w.pairs, w.dropped, w.effect, w.paired_se], [1, 1, 2, 0]);
  assert.ok(Number.isNaN(w.variance_saved));
});

Deno.test("branchEffects() refuses a frame without branches, a missing parent and a bad outcome column", () => {
  assert.throws(() => branchEffects(frame([parent(0, 1, true)]), { outcomes: ["welfare"] }), {
    name: "RangeError",
    message: "branchEffects(): the frame holds no branch",
  });
  assert.throws(() => branchEffects(frame([branch(0, 1, true)]), { outcomes: ["welfare"] }), {
    name: "RangeError",
    message: 'branchEffects(): the parent "p/e0" of branch "b/e0_b2_M3" is not in the frame; ' +
      "load the parent run with the branches",
  });
  const df = frame([parent(0, 1, true), branch(0, 1, true)]);
  assert.throws(() => branchEffects(df, { outcomes: ["label"] }), {
    message: 'branchEffects(): column "label" is String, not numeric or boolean',
  });
  assert.throws(() => branchEffects(df, { outcomes: ["nope"] }), {
    message: 'branchEffects(): the episodes frame has no column "nope"',
  });
});

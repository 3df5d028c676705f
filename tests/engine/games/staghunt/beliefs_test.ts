import assert from "node:assert/strict";
import { carryoverRule } from "../../../../engine/games/staghunt/beliefs/carryover.ts";
import { naiveRule } from "../../../../engine/games/staghunt/beliefs/naive.ts";
import { outcomeAlignmentRule } from "../../../../engine/games/staghunt/beliefs/outcome_alignment.ts";
import { paperRules } from "../../../../engine/games/staghunt/beliefs/paper_rules.ts";
import type { BeliefRule } from "../../../../engine/games/staghunt/beliefs/rule.ts";
import { historiesOf, type TurnHistory } from "../../../../engine/games/staghunt/history.ts";
import { benchmarkRows, matchRates } from "../../../../engine/games/staghunt/metrics/benchmarks.ts";
import { HAND, near, throwsWith } from "./_fixtures.ts";

// Common-support honest turns of HAND: E1 p03 in rounds 1-4 and E2 p02 (their originals H H S H S).
const Q1 = 1 - Math.SQRT1_2; // q* for N = 3, M = 2
const KEYS = ["E1/1", "E1/2", "E1/3", "E1/4", "E2/1"];

function estimates(rule: BeliefRule, layer: "public" | "original" = "public"): number[] {
  const rules = rule.id === "naive" ? [rule] : [naiveRule(), rule];
  return benchmarkRows(HAND, { rules, layer })
    .filter((r) => r.rule === rule.id).map((r) => r.qHat);
}

Deno.test("naiveRule() is K/n over this round's earlier public reports", () => {
  assert.deepEqual(
    benchmarkRows(HAND, { rules: [naiveRule()] }).map((r) => `${r.episode}/${r.round}`),
    KEYS,
  );
  assert.deepEqual(estimates(naiveRule()), [0.5, 0.5, 1, 1, 0]);
  // On the hidden original history: E1 [S S], [H H], [S H], [S H]; E2 [S].
  assert.deepEqual(estimates(naiveRule(), "original"), [1, 0, 0.5, 0.5, 1]);
});

Deno.test("carryoverRule() carries lambda q_post + (1 - lambda) q0 across rounds and pools with tau", () => {
  // lambda = q0 = 0.5, tau = 2. E1: prior1 = 0.5, q = (1 + 1)/4; post1 = (1 + 1)/5 = 0.4.
  // prior2 = 0.45, q = (0.9 + 1)/4 = 0.475; post2 = 1.9/5 = 0.38. prior3 = 0.44, q = (0.88 + 2)/4;
  // post3 = (0.88 + 3)/5 = 0.776. prior4 = 0.638, q = (1.276 + 2)/4. E2: (1 + 0)/3.
  const q = estimates(carryoverRule());
  [0.5, 0.475, 0.72, 0.819, 1 / 3].forEach((x, i) => near(q[i], x, 1e-12, KEYS[i]));
});

Deno.test("outcomeAlignmentRule() weights speakers by a/(a+b) from public report-outcome alignment (A.1)", () => {
  // After R1 (failed): p01 (S) -> (1,1), p02 (H) -> (2,0), p03 (H) -> (2,0).
  // R2: prior 0.45; p03 sees p01 H (1/2), p02 S (1): (0.9 + 1)/(2 + 1.5).
  // post2 = (0.9 + 1)/(2 + 2.5); after R2 (failed): p01 H -> (2,1), p02 S -> (2,1), p03 H -> (3,0).
  // R3: prior3 = post2/2 + 1/4; p03 sees two Stag at 2/3: (2 prior3 + 4/3)/(2 + 4/3).
  const post2 = 1.9 / 4.5;
  const prior3 = post2 / 2 + 0.25;
  const post3 = (2 * prior3 + 2 / 3 + 2 / 3 + 1) / (2 + 2 / 3 + 2 / 3 + 1);
  // After R3 (success): every Stag aligned: p01 (3,1), p02 (3,1). R4: two Stag at 3/4.
  const prior4 = post3 / 2 + 0.25;
  const expected = [
    0.5,
    1.9 / 3.5,
    (2 * prior3 + 4 / 3) / (2 + 4 / 3),
    (2 * prior4 + 1.5) / 3.5,
    1 / 3,
  ];
  const q = estimates(outcomeAlignmentRule());
  expected.forEach((x, i) => near(q[i], x, 1e-12, KEYS[i]));
});

Deno.test("outcomeAlignmentRule() equals carryoverRule() in round 1 and while every report is aligned", () => {
  const h = historiesOf(HAND).filter(({ turn }) => turn.round === 1).map((x) => x.history);
  for (const x of h) assert.equal(outcomeAlignmentRule().estimate(x), carryoverRule().estimate(x));
});

Deno.test("rules are undefined exactly where the paper's definitions leave no estimate", () => {
  const byTurn = historiesOf(HAND).map(({ turn, history }) => ({ turn, history }));
  for (const { turn, history } of byTurn) {
    const firstOfRound = turn.position === 1;
    const firstOfEpisode = firstOfRound && turn.round === 1;
    assert.equal(naiveRule().estimate(history) === undefined, firstOfRound);
    assert.equal(carryoverRule().estimate(history) === undefined, firstOfEpisode);
    assert.equal(outcomeAlignmentRule().estimate(history) === undefined, firstOfEpisode);
  }
  // The first speaker of E1 round 2 gets the carried prior: lambda post1 + (1 - lambda) q0 = 0.45.
  const r2 = byTurn.find(({ turn }) =>
    turn.episode === "E1" && turn.round === 2 && turn.position === 1
  )!;
  near(carryoverRule().estimate(r2.history)!, 0.45);
});

Deno.test("rule options are validated and named in ids", () => {
  assert.equal(carryoverRule({ lambda: 0.8 }).id, "carryover(lambda=0.8)");
  assert.equal(outcomeAlignmentRule({ a0: 2, b0: 1 }).id, "outcome_alignment(a0=2,b0=1)");
  assert.deepEqual(paperRules().map((r) => r.id), ["naive", "carryover", "outcome_alignment"]);
  throwsWith(() => carryoverRule({ lambda: 1.5 }), RangeError, /"lambda" must be in \[0, 1\]/);
  throwsWith(() => carryoverRule({ tau: 0 }), RangeError, /"tau"/);
  throwsWith(() => outcomeAlignmentRule({ a0: 0, b0: 0 }), RangeError, /"a0" and "b0"/);
  // lambda = 0: no carryover, every round starts from q0.
  const h = historiesOf(HAND).find(({ turn }) =>
    turn.episode === "E1" && turn.round === 4 && turn.position === 3
  )!;
  near(carryoverRule({ lambda: 0 }).estimate(h.history)!, (1 + 2) / 4);
});

Deno.test("matchRates() on the hand transcript: public and hidden-original histories", () => {
  // Public: every rule says Stag in E1 (q-hat >= 0.293) and Hare in E2 (q-hat < 1/2);
  // originals H H S H / S match only E1 R3.
  assert.deepEqual(matchRates(HAND).map((m) => [m.rule, m.turns, m.matches]), [
    ["naive", 5, 1],
    ["carryover", 5, 1],
    ["outcome_alignment", 5, 1],
  ]);
  // Original history, naive: Stag, Hare, Stag, Stag / Stag vs H H S H / S: 3 of 5.
  assert.deepEqual(matchRates(HAND, { layer: "original", rules: [naiveRule()] })[0].matches, 3);
  const rows = benchmarkRows(HAND, { rules: [naiveRule()] });
  [0.5 - Q1, 0.5 - Q1, 1 - Q1, 1 - Q1, -0.5].forEach((m, i) => near(rows[i].margin, m, 1e-12));
});

// A rule written in a notebook: confidence-weighted share of this round's Stag reports.
const confidenceWeighted: BeliefRule = {
  id: "confidence_weighted",
  estimate(h: TurnHistory) {
    let stag = 0;
    let total = 0;
    for (const r of h.current) {
      total += r.confidence;
      if (r.action === "Stag") stag += r.confidence;
    }
    return total > 0 ? stag / total : undefined;
  },
};

Deno.test("a new rule flows through match rates and margins without changing the paper's rules", () => {
  const rules = [...paperRules(), confidenceWeighted];
  const rows = benchmarkRows(HAND, { rules });
  const mine = rows.filter((r) => r.rule === "confidence_weighted");
  // E1: 0.9/1.5, 0.7/1.5, 1, 1; E2: 0 (weights are the public confidences).
  const expected = [0.9 / 1.5, 0.7 / 1.5, 1, 1, 0];
  mine.forEach((r, i) => near(r.qHat, expected[i], 1e-12));
  mine.forEach((r, i) => near(r.margin, expected[i] - r.qStar, 1e-12));
  assert.deepEqual(mine.map((r) => r.benchmark), ["Stag", "Stag", "Stag", "Stag", "Hare"]);
  assert.deepEqual(matchRates(HAND, { rules }).map((m) => m.rate), [0.2, 0.2, 0.2, 0.2]);
  // The paper's rows are unchanged by the extra rule.
  assert.deepEqual(rows.filter((r) => r.rule !== "confidence_weighted"), benchmarkRows(HAND));
});

Deno.test("benchmarkRows() rejects malformed rules, duplicated ids and estimates outside [0, 1]", () => {
  throwsWith(
    () => benchmarkRows(HAND, { rules: [naiveRule(), naiveRule()] }),
    RangeError,
    /used twice/,
  );
  throwsWith(
    () => benchmarkRows(HAND, { rules: [{ id: "x" } as never] }),
    TypeError,
    /estimate\(\)/,
  );
  throwsWith(
    () => benchmarkRows(HAND, { rules: [{ id: "bad", estimate: () => 2 }] }),
    RangeError,
    /"bad" returned 2/,
  );
});

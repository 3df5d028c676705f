import assert from "node:assert/strict";
import { minEffortBounds, minEffortDerived } from "../../../../engine/games/min_effort/bounds.ts";
import {
  type MinEffortParams,
  parseMinEffortParams,
  payoffOf,
} from "../../../../engine/games/min_effort/params.ts";

Deno.test("parseMinEffortParams() fills game A's defaults with N 7 and T 10", () => {
  assert.deepEqual(parseMinEffortParams({}), { N: 7, T: 10, a: 0.2, b: 0.1, c: 0.6, efforts: 7 });
  assert.deepEqual(parseMinEffortParams(undefined), parseMinEffortParams({}));
});

Deno.test("parseMinEffortParams() names the bad field in one sentence", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ N: 1 }, 'Invalid min_effort parameter "N": must be an integer in 2..1000 (got 1)'],
    [{ N: 2.5 }, 'Invalid min_effort parameter "N": must be an integer in 2..1000 (got 2.5)'],
    [{ T: 0 }, 'Invalid min_effort parameter "T": must be an integer in 1..1000 (got 0)'],
    [
      { efforts: 21 },
      'Invalid min_effort parameter "efforts": must be an integer in 2..20 (got 21)',
    ],
    [
      { a: 0.1 },
      'Invalid min_effort parameter "a": must be greater than b = 0.1, so that the common ' +
      "efforts are Pareto-ranked equilibria (got 0.1)",
    ],
    [
      { b: -0.1 },
      'Invalid min_effort parameter "b": must be at least 0 (the cost of effort; the ' +
      "paper's treatment B has b = 0) (got -0.1)",
    ],
    [{ c: Infinity }, 'Invalid min_effort parameter "c": must be a finite number (got Infinity)'],
    [{ a: "0.2" }, 'Invalid min_effort parameter "a": must be a finite number (got "0.2")'],
    [{ n: 7 }, 'Invalid min_effort parameter "n": unknown field "n"; did you mean "N"?'],
  ];
  for (const [input, message] of cases) {
    assert.throws(() => parseMinEffortParams(input), { name: "RangeError", message });
  }
});

Deno.test("parseMinEffortParams() accepts treatment B's costless effort (b = 0)", () => {
  assert.equal(parseMinEffortParams({ b: 0 }).b, 0);
});

Deno.test("payoffOf() reproduces the corners of game A's payoff table", () => {
  const p = parseMinEffortParams({});
  // Van Huyck, Battalio and Beil (1990), Table 1, game A.
  const corners: [number, number, number][] = [[7, 7, 1.3], [7, 1, 0.1], [1, 1, 0.7], [4, 4, 1]];
  for (const [own, min, pay] of corners) {
    assert.ok(Math.abs(payoffOf(p, own, min) - pay) < 1e-12, `${own}/${min}`);
  }
});

Deno.test("minEffortBounds() gives best 91 and worst 13 for game A with N 7 and T 10", () => {
  const b = minEffortBounds(parseMinEffortParams({}));
  // best = 10 * 7 * 1.30; worst = 10 * (0.70 + 6 * 0.10).
  assert.deepEqual(b, { worst: 12.999999999999998, best: 91 });
  assert.ok(Math.abs(b.worst - 13) < 1e-12);
});

Deno.test("minEffortBounds() gives best 5.4 and worst 3.6 for N 2, T 3 and efforts 1..3", () => {
  const b = minEffortBounds(parseMinEffortParams({ N: 2, T: 3, efforts: 3 }));
  // best = 3 * 2 * (0.6 - 0.3 + 0.6); worst = 3 * ((0.2 - 0.1 + 0.6) + (0.2 - 0.3 + 0.6)).
  assert.ok(Math.abs(b.best - 5.4) < 1e-12 && Math.abs(b.worst - 3.6) < 1e-12, JSON.stringify(b));
});

/** Every profile's round welfare, by brute force. */
function welfareRange(p: MinEffortParams): { worst: number; best: number } {
  let worst = Infinity;
  let best = -Infinity;
  const profile = new Array<number>(p.N).fill(1);
  for (;;) {
    const m = Math.min(...profile);
    const w = profile.reduce((s, e) => s + payoffOf(p, e, m), 0);
    worst = Math.min(worst, w);
    best = Math.max(best, w);
    let i = 0;
    while (i < p.N && profile[i] === p.efforts) profile[i++] = 1;
    if (i === p.N) break;
    profile[i]++;
  }
  return { worst: p.T * worst, best: p.T * best };
}

Deno.test("minEffortBounds() equals the lowest and highest welfare of every profile", () => {
  const cases = [
    {},
    { N: 3, T: 2, efforts: 4 },
    { N: 4, T: 1, efforts: 3, a: 1, b: 0.9, c: -2 },
    { N: 2, T: 5, efforts: 5, a: 0.3, b: 0 },
    { N: 5, T: 1, efforts: 2, a: 0.05, b: 0.04, c: 0 },
  ];
  for (const input of cases) {
    const p = parseMinEffortParams(input);
    const got = minEffortBounds(p);
    const want = welfareRange(p);
    assert.ok(Math.abs(got.best - want.best) < 1e-9, `best ${JSON.stringify(input)}`);
    assert.ok(Math.abs(got.worst - want.worst) < 1e-9, `worst ${JSON.stringify(input)}`);
  }
});

Deno.test("minEffortDerived() gives game A's efficient, secure and lowest payoffs", () => {
  const d = minEffortDerived(parseMinEffortParams({}));
  assert.deepEqual(Object.keys(d), [
    "bounds",
    "efficient_payoff",
    "secure_payoff",
    "lowest_payoff",
    "secure_welfare",
  ]);
  const near = (x: unknown, y: number) => Math.abs((x as number) - y) < 1e-12;
  assert.ok(near(d.efficient_payoff, 1.3) && near(d.secure_payoff, 0.7));
  assert.ok(near(d.lowest_payoff, 0.1) && near(d.secure_welfare, 49));
});

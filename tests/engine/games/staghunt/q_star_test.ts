import assert from "node:assert/strict";
import { binomialTail, qStar } from "../../../../engine/games/staghunt/q_star.ts";
import { near, throwsWith } from "./_fixtures.ts";

const PAPER = [4, 2, 0, 2] as const;

// Independent solver: Newton's method on the closed-form polynomial of N = 5, M = 3:
// P(Bin(4, q) >= 2) = 1 - (1 - q)^3 (1 + 3q), set equal to (H - R_F) / (R_S - R_F) = 1/2.
function newtonN5M3(): number {
  let q = 0.4;
  for (let i = 0; i < 100; i++) {
    const f = 1 - (1 - q) ** 3 * (1 + 3 * q) - 0.5;
    const df = 12 * q * (1 - q) ** 2; // d/dq of 1 - (1-q)^3 (1+3q)
    q -= f / df;
  }
  return q;
}

Deno.test("qStar() matches an independent Newton solution for N = 5, M = 3, payoffs (4, 2, 0, 2)", () => {
  const independent = newtonN5M3();
  near(independent, 0.3857275681323895, 1e-12, "Newton converged");
  near(qStar({ N: 5, M: 3, payoffs: PAPER }), independent, 1e-9);
});

Deno.test("qStar() matches the closed forms where the binomial condition is solvable by hand", () => {
  // With (4, 2, 0, 2) the condition is P(K >= M - 1) >= 1/2.
  near(qStar({ N: 2, M: 2, payoffs: PAPER }), 0.5, 1e-15); // q >= 1/2
  near(qStar({ N: 3, M: 2, payoffs: PAPER }), 1 - Math.SQRT1_2, 1e-12); // 1 - (1-q)^2 >= 1/2
  near(qStar({ N: 3, M: 3, payoffs: PAPER }), Math.SQRT1_2, 1e-12); // q^2 >= 1/2
  near(qStar({ N: 5, M: 2, payoffs: PAPER }), 1 - 0.5 ** 0.25, 1e-12); // 1 - (1-q)^4 >= 1/2
  near(qStar({ N: 5, M: 5, payoffs: PAPER }), 0.5 ** 0.25, 1e-12); // q^4 >= 1/2
  // General threshold theta = (H - R_F)/(R_S - R_F): N = 2, M = 2 gives q* = theta.
  near(qStar({ N: 2, M: 2, payoffs: { RS: 10, HS: 3, RF: 1, HF: 3 } }), 2 / 9, 1e-12);
});

Deno.test("qStar() puts the binomial condition exactly at 1/2 for the paper's payoffs, N up to 12", () => {
  for (let N = 2; N <= 12; N++) {
    for (let M = 2; M <= N; M++) {
      const q = qStar({ N, M, payoffs: PAPER });
      near(binomialTail(N - 1, M - 1, q), 0.5, 1e-12, `N=${N} M=${M}`);
    }
  }
});

Deno.test("qStar() depends on N and M alone for the paper's payoffs (Hare is certain when H_S = H_F)", () => {
  for (const N of [2, 3, 5]) {
    for (let M = 1; M <= N; M++) {
      const q = qStar({ N, M, payoffs: PAPER });
      // Which Hare payoff is H does not matter when H_S = H_F ...
      assert.equal(qStar({ N, M, payoffs: PAPER }, { hare: "HS" }), q);
      near(qStar({ N, M, payoffs: PAPER }, { hare: "expected" }), q, 1e-12);
      // ... and positive affine rescalings of the payoffs leave q* unchanged.
      near(qStar({ N, M, payoffs: [8, 4, 0, 4] }), q, 1e-12);
      near(qStar({ N, M, payoffs: [5, 3, 1, 3] }), q, 1e-12);
    }
  }
});

Deno.test("qStar() is weakly increasing in M and decreasing in R_S (Appendix A.3) over a grid", () => {
  const RS = [2.5, 3, 4, 6, 10, 25];
  for (let N = 1; N <= 10; N++) {
    for (const rs of RS) {
      let previous = -1;
      for (let M = 1; M <= N; M++) {
        const q = qStar({ N, M, payoffs: [rs, 2, 0, 2] });
        assert.ok(q >= previous, `N=${N} R_S=${rs}: q*(M=${M}) = ${q} < q*(M-1) = ${previous}`);
        previous = q;
      }
    }
    for (let M = 1; M <= N; M++) {
      const qs = RS.map((rs) => qStar({ N, M, payoffs: [rs, 2, 0, 2] }));
      for (let i = 1; i < qs.length; i++) {
        if (M === 1) assert.equal(qs[i], 0);
        else assert.ok(qs[i] < qs[i - 1], `N=${N} M=${M}: not decreasing in R_S at ${RS[i]}`);
      }
    }
  }
});

Deno.test("qStar() is 0 when M = 1 or H <= R_F, and Infinity when Stag never pays H", () => {
  assert.equal(qStar({ N: 5, M: 1, payoffs: PAPER }), 0);
  assert.equal(qStar({ N: 1, M: 1, payoffs: PAPER }), 0);
  assert.equal(qStar({ N: 5, M: 3, payoffs: { RS: 4, HS: 1, RF: 2, HF: 1 } }), 0);
  // R_S < H: even certain success pays less than Hare.
  assert.equal(qStar({ N: 5, M: 3, payoffs: { RS: 1.5, HS: 2, RF: 0, HF: 2 } }), Infinity);
  // R_S = H: only certain success (q = 1) makes Stag worth it.
  assert.equal(qStar({ N: 5, M: 3, payoffs: { RS: 2, HS: 2, RF: 0, HF: 2 } }), 1);
});

Deno.test("qStar() with hare 'expected' equalises the expected payoffs at q* when H_S < H_F", () => {
  const p = { RS: 4, HS: 1, RF: 0, HF: 2 };
  const q = qStar({ N: 5, M: 3, payoffs: p }, { hare: "expected" });
  const stag = p.RS * binomialTail(4, 2, q) + p.RF * (1 - binomialTail(4, 2, q));
  const hare = p.HS * binomialTail(4, 3, q) + p.HF * (1 - binomialTail(4, 3, q));
  near(stag, hare, 1e-12);
  // A Hare player sometimes earns only H_S < H_F, so Stag needs a lower q than against H_F.
  assert.ok(q < qStar({ N: 5, M: 3, payoffs: p }));
  assert.ok(qStar({ N: 5, M: 3, payoffs: p }, { hare: "HS" }) < q);
});

Deno.test("qStar() throws a RangeError naming the bad field", () => {
  throwsWith(() => qStar({ N: 3, M: 4, payoffs: PAPER }), RangeError, "M to be an integer in 1..3");
  throwsWith(() => qStar({ N: 0, M: 1, payoffs: PAPER }), RangeError, /N to be an integer/);
  throwsWith(() => qStar({ N: 3, M: 2, payoffs: [1, 2, 3, 2] }), RangeError, /R_S > R_F/);
  throwsWith(
    () => qStar({ N: 3, M: 2, payoffs: PAPER }, { hare: "mean" as never }),
    RangeError,
    /Unknown hare option "mean"/,
  );
  throwsWith(
    () => qStar({ N: 3, M: 2, payoffs: [4, 2, 0] as never }),
    TypeError,
    "Payoffs must be",
  );
});

Deno.test("binomialTail() agrees between its exact and log-space paths", () => {
  // P(Bin(100, 1/2) >= 50) = 1/2 + C(100, 50) / 2^101.
  near(binomialTail(100, 50, 0.5), 0.5397946186935894, 1e-13);
  near(binomialTail(50, 20, 0.3), 1 - binomialCdf(50, 19, 0.3), 1e-13);
  assert.equal(binomialTail(4, 0, 0.3), 1);
  assert.equal(binomialTail(4, 5, 0.3), 0);
});

function binomialCdf(n: number, k: number, q: number): number {
  let c = 1;
  let s = 0;
  for (let j = 0; j <= k; j++) {
    s += c * q ** j * (1 - q) ** (n - j);
    c = (c * (n - j)) / (j + 1);
  }
  return s;
}

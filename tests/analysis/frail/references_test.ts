// Figure 4's reference lines come from each episode's logged derived
// quantities, so under every regime they equal the engine's own boundaries
// (issue: the bank's insolvency boundary was drawn at the paper's stable
// 8.48 under contraction and expansion too).
import assert from "node:assert/strict";
import { loadRuns, trajectoryReferences } from "../../../analysis/mod.ts";
import { bankRunInsolvencyBoundary } from "../../../engine/games/bank_run/descriptor.ts";
import type { BankRunParams } from "../../../engine/games/bank_run/params.ts";
import type { CrowdfundingParams } from "../../../engine/games/crowdfunding/params.ts";
import type { DebtRolloverParams } from "../../../engine/games/debt_rollover/params.ts";
import { REGIMES } from "../../../engine/frail/params.ts";
import { resolveParams } from "../../../engine/frail/registry.ts";
import { runEpisode } from "../../../engine/run_episode.ts";
import { tempDirRunner } from "../_temp_dir.ts";

const withTempDir = tempDirRunner("coordlab-references-");

Deno.test("trajectoryReferences() equals the engine's boundaries under expansion, stable and contraction", async () => {
  await withTempDir(async (dir) => {
    for (const env of ["bank_run", "debt_rollover", "crowdfunding"] as const) {
      for (const regime of REGIMES) {
        await runEpisode({ env, regime, seed: 1, run: "refs", outDir: dir });
      }
    }
    const { episodes } = await loadRuns(dir, { frames: [] });
    const got = new Map(
      trajectoryReferences(episodes).map((r) => [`${r.env}/${r.regime}`, [r.axis, r.value]]),
    );
    for (const regime of REGIMES) {
      const bank = resolveParams("bank_run", regime) as BankRunParams;
      const crowd = resolveParams("crowdfunding", regime) as CrowdfundingParams;
      const debt = resolveParams("debt_rollover", regime) as DebtRolloverParams;
      assert.deepEqual(got.get(`bank_run/${regime}`), ["y", bankRunInsolvencyBoundary(bank)]);
      assert.deepEqual(got.get(`crowdfunding/${regime}`), ["y", crowd.goal]);
      assert.deepEqual(got.get(`debt_rollover/${regime}`), [
        "x",
        Math.min(...debt.assets.map((a) => a.round)),
      ]);
    }
    // The closed form by hand: (R A0 + R L0 / h - y D) / (R / h - y).
    const boundary = (R: number, L: number, h: number) =>
      (R * 15.075 + R * L / h - 1.114 * 15) / (R / h - 1.114);
    assert.equal((got.get("bank_run/stable")![1] as number).toFixed(2), "8.48");
    assert.equal(
      (got.get("bank_run/contraction")![1] as number).toFixed(6),
      boundary(1.08, 1.125, 0.75).toFixed(6),
    );
    assert.equal((got.get("bank_run/contraction")![1] as number).toFixed(2), "3.65");
    assert.equal(
      (got.get("bank_run/expansion")![1] as number).toFixed(6),
      boundary(1.18, 1.5, 0.85).toFixed(6),
    );
    assert.equal((got.get("bank_run/expansion")![1] as number).toFixed(2), "11.53");
    assert.deepEqual(
      [12, 14, 15],
      REGIMES.map((r) => got.get(`crowdfunding/${r}`)![1]),
    );
  });
});

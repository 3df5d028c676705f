// Cross-check against an independent engine: `peer/bank_run.py` is a plain CPython
// implementation of the bank-run M0 rules under the paper's capacity reading (a request that
// would pass 3.750 expires whole), copied unchanged from the project's shared peers. Fed the
// requests this engine realized, in its processing order, it must produce the same trajectory:
// cash, assets and withdrawals every round, the failure round and W.
import { assert, assertAlmostEquals, assertEquals } from "../../../_assert.ts";
import { runEpisode } from "../../../../engine/run_episode.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { makeTempFile } from "../../../_temp.ts";

const PEER = new URL("./peer/bank_run.py", import.meta.url).pathname;

function hasPython(): boolean {
  try {
    return new Deno.Command("python3", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/** Per round, the depositors (0-based) whose requests were processed, in processing order. */
function realizedRequests(events: readonly EngineEvent[], rounds: number): number[][] {
  const out: number[][] = Array.from({ length: rounds }, () => []);
  for (const e of events) {
    if (e.type !== "transition") continue;
    if (e.kind !== "withdrawal_paid" && e.kind !== "request_expired") continue;
    out[e.round - 1].push(Number(String(e.agent).slice(4)) - 1);
  }
  return out;
}

interface PeerRun {
  success: boolean;
  W: number;
  traj: { round: number; cash: number; assets: number; processed: number; failed: boolean }[];
}

/**
 * The peer's replay (`run(None, 0, requests=...)`, what `bank_run.py replay` prints) of every
 * request list, in one python3 process: one process per episode cost a second each under load.
 */
async function peerReplays(requests: number[][][]): Promise<PeerRun[]> {
  const file = await makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(file, JSON.stringify(requests));
    const replayAll = "import json, runpy, sys; run = runpy.run_path(sys.argv[1])['run']; " +
      "print(json.dumps([run(None, 0, requests=r) for r in json.load(open(sys.argv[2]))]))";
    const out = await new Deno.Command("python3", { args: ["-c", replayAll, PEER, file] })
      .output();
    assert(out.success, new TextDecoder().decode(out.stderr));
    return JSON.parse(new TextDecoder().decode(out.stdout));
  } finally {
    await Deno.remove(file);
  }
}

const python = hasPython();

Deno.test({
  name: python
    ? "the independent CPython bank-run engine replays seeded M0 episodes with binding capacity to the same trajectory"
    : "the CPython bank-run cross-check is skipped: python3 was not found on PATH",
  ignore: !python,
  async fn() {
    let binding = 0;
    let failures = 0;
    const episodes: { seed: number; r: Awaited<ReturnType<typeof runEpisode>> }[] = [];
    for (let seed = 0; seed < 60; seed++) {
      const r = await runEpisode({ env: "bank_run", mechanism: "M0", seed, clock: () => "t" });
      const expired = r.events.filter((e) =>
        e.type === "transition" && e.kind === "request_expired"
      );
      if (expired.length === 0) continue;
      binding++;
      if (!r.outcome.success) failures++;
      episodes.push({ seed, r });
    }
    const peers = await peerReplays(episodes.map(({ r }) => realizedRequests(r.events, 12)));
    assertEquals(peers.length, episodes.length);
    for (const [i, { seed, r }] of episodes.entries()) {
      const peer = peers[i];
      assertEquals(peer.success, r.outcome.success, `seed ${seed}: success`);
      assertEquals(peer.traj.length, r.outcome.rounds, `seed ${seed}: failure round`);
      assertAlmostEquals(peer.W, r.outcome.welfare, 1e-9, `seed ${seed}: W`);
      const disclosures = r.events.filter((e) => e.type === "disclosure") as Extract<
        EngineEvent,
        { type: "disclosure" }
      >[];
      for (const row of peer.traj) {
        const m = disclosures[row.round - 1].metrics as Record<string, number>;
        const at = `seed ${seed} round ${row.round}`;
        assertAlmostEquals(row.processed, m.withdrawn_this_round, 1e-9, `${at}: withdrawals`);
        if (row.failed) continue; // the engine discloses after its failure liquidation
        assertAlmostEquals(row.cash, m.cash, 1e-8, `${at}: cash`);
        assertAlmostEquals(row.assets, m.assets, 1e-8, `${at}: assets`);
      }
    }
    assert(binding >= 10, `only ${binding} of 60 episodes had a binding capacity`);
    assert(failures > 0 && failures < binding, `a mix of outcomes, got ${failures} failures`);
  },
});

// "lines-v4" (issue 23): a bank-run checkpoint holds the state without the
// depositors' decision histories (the decision events hold them), hashed as
// written; outcomes are those of "lines-v3", whose logs (whole states) still
// replay and branch under their own definition.
import { assert, assertEquals } from "../../_assert.ts";
import { playEpisode } from "../../../engine/core/episode.ts";
import type { EngineEvent } from "../../../engine/core/events.ts";
import type { HashingVersion } from "../../../engine/core/events_hash.ts";
import { canonicalJson } from "../../../engine/core/canonical_json.ts";
import { sha256Hex } from "../../../engine/core/hash.ts";
import { parseEpisodeLog } from "../../../engine/core/log_file.ts";
import { frailSetup } from "../../../engine/frail/descriptor.ts";
import { bankRunGame } from "../../../engine/games/bank_run/descriptor.ts";
import { bankRun } from "../../../engine/games/bank_run/environment.ts";
import { mockPopulation } from "../../../engine/agents/mock/population.ts";
import { replayEpisode } from "../../../engine/run_episode.ts";
import { branchEpisode } from "../../../engine/branch_episode.ts";
import type { MechanismId } from "../../../engine/frail/types.ts";

type Loose = Record<string, unknown> & { type: string };

/** A bank-run episode's log text under a definition. */
async function logText(mechanism: MechanismId, seed: number, hashing?: HashingVersion) {
  const r = await playEpisode(bankRun, {
    ...frailSetup(bankRunGame, { mechanism, regime: "contraction" }),
    seed,
    agents: mockPopulation({ seed }),
    run: "cp",
    episode: `bank_run_${mechanism}_s${seed}`,
    ndjson: true,
    clock: () => "2026-01-01T00:00:00.000Z",
    ...(hashing ? { hashing } : {}),
  });
  return { text: r.ndjson!, outcome: r.outcome, hashes: r.hashes };
}

const checkpoints = (events: EngineEvent[]) =>
  events.filter((e) => e.type === "checkpoint") as unknown as Loose[];

Deno.test("a lines-v4 bank-run checkpoint holds the state without the depositors' histories, hashed as written", async () => {
  for (const mechanism of ["M0", "M1", "M2", "M3"] as const) {
    for (const seed of [1, 2, 3]) {
      const v4 = await logText(mechanism, seed, "lines-v4");
      const v3 = await logText(mechanism, seed, "lines-v3");
      assertEquals(v4.outcome, v3.outcome);
      assert(v4.text.length < v3.text.length);
      const [e4, e3] = [parseEpisodeLog(v4.text), parseEpisodeLog(v3.text)];
      assertEquals((e4[0] as unknown as Loose).hashing, "lines-v4");
      const [c4, c3] = [checkpoints(e4), checkpoints(e3)];
      assertEquals(c4.length, c3.length);
      for (let i = 0; i < c4.length; i++) {
        // The whole state less the histories, written canonically by the bank run's own writer.
        const whole = c3[i].state as { depositors: Record<string, unknown>[] };
        const less = {
          ...whole,
          depositors: whole.depositors.map(({ history: _h, ...d }) => d),
        };
        assertEquals(c4[i].state, less);
        const line = v4.text.split("\n").find((l) => l.includes(`"seq":${(c4[i] as Loose).seq},`))!;
        assert(line.includes(`"state":${canonicalJson(less)},`));
        assertEquals(c4[i].state_hash, sha256Hex(canonicalJson(less)));
        assertEquals(v4.hashes[i], c4[i].state_hash);
        assertEquals(c3[i].state_hash, sha256Hex(canonicalJson(whole)));
      }
      // The histories are the decision events' records.
      const decisions = e4.filter((e) => e.type === "decision").length;
      const records = (c3.at(-1)!.state as { depositors: { history: unknown[] }[] }).depositors
        .reduce((n, d) => n + d.history.length, 0);
      assertEquals(decisions, records);
    }
  }
});

Deno.test("replay checks a lines-v4 log's states as written and a lines-v3 log's whole states", async () => {
  for (const hashing of ["lines-v4", "lines-v3"] as const) {
    const events = parseEpisodeLog((await logText("M2", 4, hashing)).text);
    assertEquals(await replayEpisode(events).then((r) => [r.ok, r.hashing]), [true, hashing]);
    // An edited state is caught by its own hash; so is a history added to a lines-v4 state.
    const edit = (change: (state: Record<string, unknown>) => void) => {
      const copy = structuredClone(events);
      change(checkpoints(copy)[1].state as Record<string, unknown>);
      return copy;
    };
    const cash = await replayEpisode(edit((s) => s.cash = 1e9));
    assertEquals([cash.ok, cash.mismatch?.round, cash.mismatch?.kind], [false, 2, "hash"]);
    if (hashing === "lines-v4") {
      const added = await replayEpisode(edit((s) => {
        (s.depositors as Record<string, unknown>[])[0].history = [];
      }));
      assertEquals([added.ok, added.mismatch?.kind, added.mismatch?.field], [
        false,
        "hash",
        "state.depositors[0].history",
      ]);
    }
  }
});

Deno.test("branchEpisode() plays a branch of a lines-v3 parent under lines-v3, its prefix hashes the parent's", async () => {
  const parent = parseEpisodeLog((await logText("M0", 3, "lines-v3")).text);
  const b = await branchEpisode(parent, {
    atRound: 3,
    change: { mechanism: "M1" },
    agents: {},
    clock: () => "2026-01-01T00:00:00.000Z",
  });
  assertEquals((b.events[0] as unknown as Loose).hashing, "lines-v3");
  assertEquals(b.hashes.slice(0, 2), checkpoints(parent).slice(0, 2).map((c) => c.state_hash));
  assertEquals((await replayEpisode(b.events)).ok, true);
});

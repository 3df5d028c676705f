// Each environment's own state writer gives exactly the generic canonical
// JSON of every state it writes, and leaves a state of another shape to the
// generic writer: checked on the live state at every round of seeded
// episodes of every mechanism, and on edited states.
import { assert, assertEquals } from "../../_assert.ts";
import { canonicalJson } from "../../../engine/core/canonical_json.ts";
import type { Environment } from "../../../engine/core/environment.ts";
import { playEpisode } from "../../../engine/core/episode.ts";
import { mockPopulation } from "../../../engine/agents/mock/population.ts";
import { mockStagHuntPlayers } from "../../../engine/games/staghunt/mock.ts";
import { bankRunGame } from "../../../engine/games/bank_run/descriptor.ts";
import { frailSetup } from "../../../engine/frail/descriptor.ts";
import { MECHANISMS } from "../../../engine/frail/types.ts";
import { stagHuntSetup } from "../../../engine/games/staghunt/descriptor.ts";
import { stagHunt } from "../../../engine/games/staghunt/environment.ts";

/**
 * Plays an episode with an environment whose `isDone` (read at the start of
 * every round and before the end) compares the two writers on the live
 * state; returns how many states its writer wrote.
 */
async function compare<S>(
  env: Environment<unknown, S>,
  play: (env: Environment<unknown, S>) => Promise<unknown>,
): Promise<number> {
  let written = 0;
  const checked: Environment<unknown, S> = {
    ...env,
    isDone(state) {
      const own = env.stateJson!(state);
      assert(own !== undefined, "the writer gave up on a state of the game's own shape");
      assertEquals(own, canonicalJson(state));
      written++;
      return env.isDone(state);
    },
  };
  await play(checked);
  return written;
}

Deno.test("bankRunStateJson() writes the canonical JSON of every state of 96 seeded episodes", async () => {
  let states = 0;
  const env = bankRunGame.environment as Environment<unknown, unknown>;
  for (const mechanism of MECHANISMS) {
    for (
      const overrides of [{}, { depositSplit: "heterogeneous" }, {
        capacityRule: "partial",
        depositors: 7,
      }]
    ) {
      for (const regime of ["stable", "contraction"] as const) {
        for (let seed = 0; seed < 4; seed++) {
          const setup = frailSetup(bankRunGame, { mechanism, regime, overrides });
          states += await compare(env, (e) =>
            playEpisode(e, {
              ...setup,
              seed,
              agents: mockPopulation({ seed, depositors: seed === 3 ? "always_run" : "defensive" }),
              hashes: true,
            }));
        }
      }
    }
  }
  assertEquals(states, 825);
});

/** A bank-run state without its depositors' histories (what a checkpoint holds). */
function withoutHistories(state: unknown): unknown {
  const s = state as { depositors: Record<string, unknown>[] };
  return { ...s, depositors: s.depositors.map(({ history: _h, ...d }) => d) };
}

Deno.test("bankRunCheckpointJson() writes the canonical JSON of every checkpoint state of 48 seeded episodes, and of states edited after it wrote their values", async () => {
  let states = 0;
  const env = bankRunGame.environment as Environment<unknown, unknown>;
  const checked: Environment<unknown, unknown> = {
    ...env,
    isDone(state) {
      assertEquals(env.checkpointState!.json(state), canonicalJson(withoutHistories(state)));
      states++;
      return env.isDone(state);
    },
  };
  for (const mechanism of MECHANISMS) {
    for (const overrides of [{}, { depositSplit: "heterogeneous" }, { depositors: 7 }]) {
      for (let seed = 0; seed < 4; seed++) {
        const setup = frailSetup(bankRunGame, { mechanism, regime: "stable", overrides });
        await playEpisode(checked, {
          ...setup,
          seed,
          agents: mockPopulation({ seed, depositors: seed === 3 ? "always_run" : "defensive" }),
          hashes: true,
        });
      }
    }
  }
  assertEquals(states, 450);
  // The writer reuses the text of a depositor or of the parameters whose values are those it
  // wrote last at that place: a value of another type or name there is written anew.
  const setup = frailSetup(bankRunGame, { mechanism: "M0", regime: "stable" });
  const s = bankRunGame.environment.init(setup.params, {
    mechanism: "M0",
    seed: 1,
    stream: () => ({ uniform: () => 0.5, int: () => 0 }),
  });
  const edits: ((s: Record<string, unknown>) => void)[] = [
    (x) => ((x.depositors as Record<string, unknown>[])[0].balance = "1"),
    (x) => ((x.depositors as Record<string, unknown>[])[1].id = "dep_99"),
    (x) => ((x.depositors as Record<string, unknown>[])[2].withdrawn = 0.25),
    (x) => {
      const p = x.params as Record<string, unknown>;
      p.horizon2 = p.horizon;
      delete p.horizon;
    },
    (x) => ((x.params as Record<string, unknown>).capacityRule = 1),
    (x) => ((x.params as Record<string, unknown>).capacity = 3.5),
    // A fifth member that is not the history left out (found in review).
    (x) => {
      const d = (x.depositors as Record<string, unknown>[])[3];
      delete d.history;
      d.foo = 1;
    },
  ];
  for (const edit of edits) {
    assertEquals(env.checkpointState!.json(s), canonicalJson(withoutHistories(s)));
    const edited = structuredClone(s) as unknown as Record<string, unknown>;
    edit(edited);
    assertEquals(
      env.checkpointState!.json(edited),
      canonicalJson(withoutHistories(edited)),
      String(edit),
    );
  }
});

Deno.test("stagHuntStateJson() writes the canonical JSON of every state of 48 seeded episodes", async () => {
  let states = 0;
  const env = stagHunt as Environment<unknown, unknown>;
  for (const corruption of ["base", "b3"] as const) {
    for (const [N, M, T, F] of [[5, 3, 4, 2], [3, 2, 2, 1], [12, 6, 3, 0]]) {
      for (let seed = 0; seed < 8; seed++) {
        const setup = stagHuntSetup({ N, M, T, F, corruption }, "h1");
        states += await compare(env, (e) =>
          playEpisode(e, {
            ...setup,
            seed,
            agents: mockStagHuntPlayers({ seed, threshold: { noise: 0.3 } }),
            hashes: true,
          }));
      }
    }
  }
  assertEquals(states, 144);
});

Deno.test("State writers leave a state of another shape to the generic writer", () => {
  const setup = frailSetup(bankRunGame, { mechanism: "M0", regime: "stable" });
  const env = bankRunGame.environment;
  const s = env.init(setup.params, {
    mechanism: "M0",
    seed: 1,
    stream: () => ({ uniform: () => 0.5, int: () => 0 }),
  });
  assertEquals(env.stateJson!(s), canonicalJson(s));
  const edits: ((s: Record<string, unknown>) => void)[] = [
    (x) => (x.extra = 1),
    (x) => (x.cash = NaN),
    (x) => (x.cash = "1"),
    (x) => (x.round = undefined),
    (x) => delete x.done,
    (x) => ((x.depositors as Record<string, unknown>[])[0].note = "x"),
    (x) => ((x.depositors as Record<string, unknown>[])[2].history = [{ round: 1 }]),
    (x) => ((x.params as Record<string, unknown>).capacity = Infinity),
    (x) => (x.inbox = { dep_01: [{ f: () => 1 }] }),
  ];
  for (const edit of edits) {
    const edited = structuredClone(s) as unknown as Record<string, unknown>;
    edit(edited);
    assertEquals(env.stateJson!(edited as never), undefined, String(edit));
  }
  const h = stagHunt.init(stagHuntSetup({ F: 2 }, "h1").params, {
    mechanism: "none",
    seed: 1,
    stream: () => ({ uniform: () => 0.5, int: () => 0 }),
  });
  assertEquals(stagHunt.stateJson!(h), canonicalJson(h));
  const turn = {
    agent: "p01",
    position: 1,
    corrupted: false,
    originalAction: "Stag",
    publicAction: "Stag",
    confidence: 0.5,
    originalJustification: "a",
    publicJustification: "b",
  };
  const shEdits: ((s: Record<string, unknown>) => void)[] = [
    (x) => (x.players = ["p01", 2]),
    (x) => ((x.params as Record<string, unknown>).payoffs = [4, 2, 0, 2]),
    (x) => (x.rounds = [{ round: 1, turns: [{ ...turn, confidence: NaN }], outcome: null }]),
    (x) => (x.rounds = [{ round: 1, turns: [{ ...turn, extra: 1 }], outcome: null }]),
  ];
  for (const edit of shEdits) {
    const edited = structuredClone(h) as unknown as Record<string, unknown>;
    edit(edited);
    assertEquals(stagHunt.stateJson!(edited as never), undefined, String(edit));
  }
});

import assert from "node:assert/strict";
import type { CallRequest } from "../../../../engine/core/environment.ts";
import {
  bestResponsePlayer,
  MIN_EFFORT_POLICIES,
  minEffortMockAgents,
} from "../../../../engine/games/min_effort/mock.ts";
import type { MinEffortView } from "../../../../engine/games/min_effort/state.ts";
import { effortsByRound, play } from "./_fixtures.ts";

function request(view: Partial<MinEffortView>): CallRequest {
  const full: MinEffortView = {
    you: "p01",
    round: 1,
    T: 10,
    N: 7,
    efforts: 7,
    a: 0.2,
    b: 0.1,
    c: 0.6,
    history: [],
    ...view,
  };
  return {
    agent: full.you,
    role: "player",
    call: "effort_choice",
    round: full.round,
    step: "choose",
    view: full,
  };
}

const effortOf = (reply: unknown) => (reply as { effort: number }).effort;

Deno.test("bestResponsePlayer() plays its prior in round 1 and the last minimum after", () => {
  const p = bestResponsePlayer({ epsilon: 0, prior: 5 });
  assert.equal(p.policy, "mock:best_response(epsilon=0,prior=5)");
  assert.deepEqual(p.decide(request({})), {
    effort: 5,
    reasoning: "I expect a minimum of 5, so I match it.",
  });
  const later = request({
    round: 3,
    history: [
      { round: 1, effort: 5, minimum: 4, payoff: 0.9 },
      { round: 2, effort: 4, minimum: 2, payoff: 0.6 },
    ],
  });
  assert.deepEqual(p.decide(later), {
    effort: 2,
    reasoning: "The minimum last round was 2, so I match it.",
  });
  // Default prior: the highest effort.
  assert.equal(effortOf(bestResponsePlayer({ epsilon: 0 }).decide(request({ efforts: 4 }))), 4);
});

Deno.test("bestResponsePlayer() deviates at the rate epsilon, uniformly, from its seeded stream", () => {
  const counts = new Array<number>(8).fill(0);
  let deviations = 0;
  const n = 4000;
  const p = bestResponsePlayer({ epsilon: 0.3, seed: 11 });
  for (let round = 1; round <= n; round++) {
    const history = [{ round: round - 1, effort: 4, minimum: 4, payoff: 1 }];
    const e = effortOf(p.decide(request({ round, history: round > 1 ? history : [] })));
    if (round > 1 && e !== 4) deviations++;
    counts[e]++;
  }
  // A deviation draws 1..7 uniformly, so it leaves 4 with probability 0.3 * 6/7.
  assert.ok(Math.abs(deviations / n - 0.3 * 6 / 7) < 0.03, String(deviations / n));
  assert.equal(counts[0], 0);
  for (const k of [1, 2, 3, 5, 6, 7]) assert.ok(counts[k] > 100, `effort ${k}: ${counts[k]}`);
  // The same seed gives the same choices.
  const again = bestResponsePlayer({ epsilon: 0.3, seed: 11 });
  assert.deepEqual(again.decide(request({ round: 9 })), p.decide(request({ round: 9 })));
});

Deno.test("always_max, always_min and uniform players play the whole game as named", async () => {
  const max = await play({ fields: { N: 3, T: 2, efforts: 5 }, agents: { players: "always_max" } });
  assert.deepEqual(effortsByRound(max.played.events), [[5, 5, 5], [5, 5, 5]]);
  const min = await play({ fields: { N: 3, T: 2 }, agents: { players: "always_min" } });
  assert.deepEqual(effortsByRound(min.played.events), [[1, 1, 1], [1, 1, 1]]);
  const uniform = await play({ seed: 3, fields: { N: 4, T: 3 }, agents: { players: "uniform" } });
  assert.deepEqual(effortsByRound(uniform.played.events), [[6, 3, 5, 1], [5, 6, 2, 4], [
    6,
    7,
    6,
    4,
  ]]);
  assert.deepEqual(
    (uniform.played.events[0] as { agents: { policy: string }[] }).agents.map((a) => a.policy),
    ["mock:uniform", "mock:uniform", "mock:uniform", "mock:uniform"],
  );
});

Deno.test("minEffortMockAgents() lists its policies in the descriptor's order, the default first", () => {
  assert.deepEqual(MIN_EFFORT_POLICIES, ["best_response", "always_max", "always_min", "uniform"]);
  assert.equal(
    minEffortMockAgents()({ id: "p01", role: "player" }).policy,
    "mock:best_response(epsilon=0.1)",
  );
});

Deno.test("minEffortMockAgents() refuses unknown options, policies and roles by name", () => {
  assert.throws(() => minEffortMockAgents({ epsilom: 0.1 } as never), {
    name: "RangeError",
    message: 'Invalid mock min_effort options: unknown field "epsilom"; did you mean "epsilon"?',
  });
  assert.throws(() => minEffortMockAgents({ epsilon: 2 }), {
    message: 'Mock min_effort option "epsilon" must be in [0, 1], got 2',
  });
  assert.throws(() => minEffortMockAgents({ prior: 0 }), {
    message: 'Mock min_effort option "prior" must be an integer in 1..20, got 0',
  });
  assert.throws(
    () => minEffortMockAgents({ players: "always_stag" as never })({ id: "p01", role: "player" }),
    {
      message: 'Unknown mock min_effort policy "always_stag": expected one of "best_response", ' +
        '"always_max", "always_min", "uniform"',
    },
  );
  assert.throws(() => minEffortMockAgents()({ id: "bank", role: "bank" }), {
    message: 'No mock min_effort policy plays role "bank": the game has only "player"',
  });
});

Deno.test("bestResponsePlayer() refuses a prior above the game's highest effort when it decides", () => {
  assert.throws(() => bestResponsePlayer({ prior: 9 }).decide(request({})), {
    name: "RangeError",
    message: 'Mock min_effort option "prior" 9 is above the game\'s highest effort 7',
  });
});

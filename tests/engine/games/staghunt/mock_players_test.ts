import assert from "node:assert/strict";
import {
  alwaysPlayer,
  mockStagHuntPlayers,
  thresholdPlayer,
} from "../../../../engine/games/staghunt/mock.ts";
import { carryoverRule } from "../../../../engine/games/staghunt/beliefs/carryover.ts";
import { naiveRule } from "../../../../engine/games/staghunt/beliefs/naive.ts";
import type { Agent } from "../../../../engine/core/agent.ts";
import { playEpisode } from "../../../../engine/core/episode.ts";
import { stagHuntSetup } from "../../../../engine/games/staghunt/descriptor.ts";
import { stagHunt } from "../../../../engine/games/staghunt/environment.ts";
import { playerIndex } from "../../../../engine/games/staghunt/players.ts";
import type { StagHuntView } from "../../../../engine/games/staghunt/views.ts";
import { near, throwsWith } from "./_fixtures.ts";

function view(position: number, actions: ("Stag" | "Hare")[], round = 1): StagHuntView {
  return {
    you: `p0${position}`,
    position,
    round,
    N: 5,
    M: 3,
    payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 },
    order: ["p01", "p02", "p03", "p04", "p05"],
    transcript: [{
      round,
      outcome: null,
      reports: actions.map((action, i) => ({
        agent: `p0${i + 1}`,
        position: i + 1,
        action,
        confidence: 1,
        justification: "",
      })),
    }],
  };
}

const turn = async (a: ReturnType<typeof thresholdPlayer>, v: StagHuntView) =>
  (await a.decide({
    agent: v.you,
    role: "player",
    call: "stag_hunt_turn",
    round: v.round,
    step: "",
    view: v,
  })) as {
    action: string;
    confidence: number;
    justification: string;
  };

Deno.test("thresholdPlayer() plays Stag iff its rule's q-hat reaches q* (0.3857 for N = 5, M = 3)", async () => {
  const a = thresholdPlayer();
  // Naive q-hat: 1/3 < q* -> Hare; 1/2 >= q* -> Stag.
  const hare = await turn(a, view(4, ["Stag", "Hare", "Hare"]));
  assert.equal(hare.action, "Hare");
  near(hare.confidence, 0.5 + Math.abs(1 / 3 - 0.3857275681323895), 1e-9);
  assert.equal((await turn(a, view(3, ["Stag", "Hare"]))).action, "Stag");
  assert.match(hare.justification, /naive estimate 0\.333 is below the cutoff 0\.386/);
});

Deno.test("thresholdPlayer() uses its first-speaker prior where the rule is undefined", async () => {
  assert.equal((await turn(thresholdPlayer(), view(1, []))).action, "Stag"); // 0.5 >= 0.386
  assert.equal(
    (await turn(thresholdPlayer({ firstSpeakerPrior: 0.3 }), view(1, []))).action,
    "Hare",
  );
  // Carryover is defined for the first speaker of round 2 and ignores the prior there.
  const v = view(1, [], 2);
  v.transcript.unshift({
    round: 1,
    outcome: { stag: 5, success: true },
    reports: ["p01", "p02", "p03", "p04", "p05"].map((agent, i) => ({
      agent,
      position: i + 1,
      action: "Stag" as const,
      confidence: 1,
      justification: "",
    })),
  });
  const r = await turn(thresholdPlayer({ rule: carryoverRule(), firstSpeakerPrior: 0 }), v);
  assert.equal(r.action, "Stag");
  assert.match(r.justification, /carryover estimate/);
});

Deno.test("alwaysPlayer() and the rejustify template", async () => {
  const a = alwaysPlayer("Hare", { confidence: 0.3 });
  assert.deepEqual(await a.decide({ call: "stag_hunt_turn" } as never), {
    action: "Hare",
    confidence: 0.3,
    justification: "I always play Hare.",
  });
  const v = { ...view(2, ["Stag"]), justify: { action: "Stag", confidence: 0.3 } };
  assert.deepEqual(await a.decide({ call: "rejustify", view: v } as never), {
    justification: "Stag is the better choice given the reports so far.",
  });
});

Deno.test("mockStagHuntPlayers() picks policies by index and validates options", () => {
  const make = mockStagHuntPlayers({
    players: (i) => (i % 2 ? "always_hare" : "threshold"),
    threshold: { noise: 0.1 },
  });
  assert.equal(make({ id: "p01", role: "player" }).policy, "mock:threshold(naive,noise=0.1)");
  assert.equal(make({ id: "p02", role: "player" }).policy, "mock:always_hare");
  throwsWith(
    () => mockStagHuntPlayers({ players: "sometimes" as never })({ id: "p01", role: "player" }),
    RangeError,
    /Unknown mock Stag Hunt policy "sometimes"/,
  );
  throwsWith(() => thresholdPlayer({ noise: 2 }), RangeError, /"noise" must be in \[0, 1\]/);
});

Deno.test("thresholdPlayer() gives these exact replies for integer, fractional and undefined estimates, with and without a flip", async () => {
  // Pinned from the code before its reply was built in a function of its own
  // (issue 23: integer estimates made V8 deoptimize `decide` in a loop).
  const replies = [];
  for (const noise of [0, 0.5]) {
    const p = thresholdPlayer({ noise, seed: 3 });
    for (
      const acts of [[], ["Stag"], ["Hare"], ["Stag", "Hare", "Stag"], [
        "Hare",
        "Hare",
        "Stag",
        "Stag",
      ]]
    ) {
      replies.push(await turn(p, view(acts.length + 1, acts as ("Stag" | "Hare")[], 2)));
    }
  }
  const cut = "the cutoff 0.386";
  const flip = ", but I deviate this time";
  assert.deepEqual(JSON.parse(JSON.stringify(replies)), [
    {
      action: "Stag",
      confidence: 0.6142724318676105,
      justification: `My first-speaker prior 0.500 is at or above ${cut}.`,
    },
    {
      action: "Stag",
      confidence: 1,
      justification: `My naive estimate 1.000 is at or above ${cut}.`,
    },
    {
      action: "Hare",
      confidence: 0.8857275681323895,
      justification: `My naive estimate 0.000 is below ${cut}.`,
    },
    {
      action: "Stag",
      confidence: 0.7809390985342771,
      justification: `My naive estimate 0.667 is at or above ${cut}.`,
    },
    {
      action: "Stag",
      confidence: 0.6142724318676105,
      justification: `My naive estimate 0.500 is at or above ${cut}.`,
    },
    {
      action: "Hare",
      confidence: 0.6142724318676105,
      justification: `My first-speaker prior 0.500 is at or above ${cut}${flip}.`,
    },
    {
      action: "Stag",
      confidence: 1,
      justification: `My naive estimate 1.000 is at or above ${cut}.`,
    },
    {
      action: "Hare",
      confidence: 0.8857275681323895,
      justification: `My naive estimate 0.000 is below ${cut}.`,
    },
    {
      action: "Hare",
      confidence: 0.7809390985342771,
      justification: `My naive estimate 0.667 is at or above ${cut}${flip}.`,
    },
    {
      action: "Hare",
      confidence: 0.6142724318676105,
      justification: `My naive estimate 0.500 is at or above ${cut}${flip}.`,
    },
  ]);
  // Field order too: the reply is logged as it is.
  assert.deepEqual(Object.keys(replies[0]), ["action", "confidence", "justification"]);
});

Deno.test("thresholdPlayer() gives each game's own justifications when games alternate", async () => {
  // A player's justifications are kept per cutoff: after another game (another q*) they name
  // that game's cutoff again, and equal a fresh player's.
  const views = (M: number, RS: number) =>
    [[], ["Stag"], ["Hare"], ["Stag", "Hare", "Stag"]].map((acts, i) => ({
      ...view(acts.length + 1, acts as ("Stag" | "Hare")[], 1 + i),
      M,
      payoffs: { RS, HS: 2, RF: 0, HF: 2 },
    }));
  const reused = thresholdPlayer({ noise: 0.5, seed: 5 });
  const cutoffs: string[][] = [];
  for (const vs of [views(3, 4), views(2, 6), views(3, 4)]) {
    const fresh = thresholdPlayer({ noise: 0.5, seed: 5 });
    const got = [];
    const want = [];
    for (const v of vs) {
      got.push(await turn(reused, v) as { justification: string });
      want.push(await turn(fresh, v));
    }
    assert.deepEqual(got, want);
    cutoffs.push(got.map((r) => /the cutoff (\d\.\d{3})/.exec(r.justification)![1]));
  }
  assert.deepEqual(cutoffs, [
    Array(4).fill("0.386"),
    Array(4).fill("0.096"),
    Array(4).fill("0.386"),
  ]);
});

Deno.test("thresholdPlayer() on the naive rule replies to every request of played episodes as a naive rule reading the whole history does", async () => {
  // The naive rule's player counts its view's current reports; a rule that is the
  // naive one in effect (another estimate function) is given the history built
  // from the view. Both players see every request; the episode plays the first.
  const generic = {
    id: "naive",
    estimate: (h: Parameters<ReturnType<typeof naiveRule>["estimate"]>[0]) =>
      naiveRule().estimate(h),
  };
  let turns = 0;
  let rejustified = 0;
  for (
    const [params, threshold] of [
      [{ N: 5, M: 3, T: 4, F: 2 }, {}],
      [{ N: 5, M: 3, T: 4, F: 2, corruption: "b3" }, { noise: 0.3 }],
      [{ N: 3, M: 2, T: 5, F: 1, corruption: "communication_only" }, { firstSpeakerPrior: 0.2 }],
      [{ N: 6, M: 4, T: 3, F: 0 }, { noise: 0.1, seed: 9 }],
    ] as const
  ) {
    for (let seed = 0; seed < 25; seed++) {
      await playEpisode(stagHunt, {
        ...stagHuntSetup(params, "h1"),
        seed,
        clock: () => "t",
        agents: (): Agent => {
          const fast = thresholdPlayer(threshold);
          const slow = thresholdPlayer({ ...threshold, rule: generic });
          return {
            policy: fast.policy,
            async decide(req) {
              const a = await fast.decide(req);
              assert.deepEqual(await slow.decide(req), a);
              if (req.call === "rejustify") rejustified++;
              else turns++;
              return a;
            },
          };
        },
      });
    }
  }
  // Every turn of the 100 episodes (25 each of 20, 20, 15 and 18 turns).
  assert.equal(turns, 25 * (20 + 20 + 15 + 18));
  assert.ok(rejustified > 0);
});

Deno.test("playerIndex() reads the digits an id ends in, and refuses an id without them", () => {
  assert.deepEqual(["p01", "p12", "x7", "007", "p1000"].map(playerIndex), [0, 11, 6, 6, 999]);
  throwsWith(() => playerIndex("p01a"), RangeError, /^Player id "p01a" does not end in a number$/);
  throwsWith(() => playerIndex(""), RangeError, /^Player id "" does not end in a number$/);
});

// The Stag Hunt's state writer keeps the text of a settled round for the
// checkpoints after it: the text is used only while the round holds exactly
// what it was written from, so a round edited in place after it was written
// is written afresh, and the writer's output is the generic canonical JSON
// (or `undefined`, for a state of another shape) whatever was edited.
import { assert, assertEquals } from "../../../_assert.ts";
import { canonicalJson } from "../../../../engine/core/canonical_json.ts";
import { playEpisode } from "../../../../engine/core/episode.ts";
import { stagHuntSetup } from "../../../../engine/games/staghunt/descriptor.ts";
import { stagHunt } from "../../../../engine/games/staghunt/environment.ts";
import { mockStagHuntPlayers } from "../../../../engine/games/staghunt/mock.ts";
import type { StagHuntState } from "../../../../engine/games/staghunt/state.ts";
import { stagHuntStateJson } from "../../../../engine/games/staghunt/state_json.ts";

type Edit = [string, (s: StagHuntState) => void];

const EDITS: Edit[] = [
  ["a justification", (s) => (s.rounds[0].turns[1].publicJustification += " Really.")],
  ["the same justification, rebuilt", (s) => {
    const t = s.rounds[0].turns[0];
    t.originalJustification = [...t.originalJustification].join("");
  }],
  ["a confidence", (s) => (s.rounds[1].turns[2].confidence = 0.125)],
  ["a confidence to -0", (s) => (s.rounds[0].turns[3].confidence = -0)],
  ["an action", (s) => (s.rounds[0].turns[4].publicAction = "Hare")],
  ["a flag", (s) => (s.rounds[0].turns[0].corrupted = !s.rounds[0].turns[0].corrupted)],
  ["a position", (s) => (s.rounds[1].turns[0].position = 9)],
  ["an agent", (s) => (s.rounds[0].turns[0].agent = "p09")],
  ["a turn replaced by its copy", (s) => (s.rounds[0].turns[2] = { ...s.rounds[0].turns[2] })],
  ["a turn replaced by another", (s) => {
    s.rounds[0].turns[2] = { ...s.rounds[0].turns[2], originalAction: "Hare" };
  }],
  ["a turn added", (s) => s.rounds[0].turns.push({ ...s.rounds[0].turns[0], position: 6 })],
  ["a turn removed", (s) => s.rounds[1].turns.pop()],
  ["the turns replaced", (s) => (s.rounds[0].turns = s.rounds[0].turns.slice().reverse())],
  ["an outcome count", (s) => (s.rounds[0].outcome!.publicStag += 1)],
  [
    "an outcome flag",
    (s) => (s.rounds[1].outcome!.preflipSuccess = !s.rounds[1].outcome!.preflipSuccess),
  ],
  [
    "the outcome replaced",
    (s) => (s.rounds[0].outcome = { ...s.rounds[0].outcome!, publicStag: 0 }),
  ],
  ["a round reopened", (s) => (s.rounds[0].outcome = null)],
  ["a round number", (s) => (s.rounds[1].round = 7)],
  ["two rounds swapped", (s) => ([s.rounds[0], s.rounds[1]] = [s.rounds[1], s.rounds[0]])],
  ["the rounds replaced by a copy", (s) => (s.rounds = s.rounds.slice())],
  // Of another shape: the generic writer's turn.
  [
    "a turn with another key",
    (s) => ((s.rounds[0].turns[1] as unknown as Record<string, unknown>).note = 1),
  ],
  [
    "a turn without a key",
    (s) => delete (s.rounds[0].turns[1] as Partial<StagHuntState["rounds"][0]["turns"][0]>).agent,
  ],
  ["a NaN confidence", (s) => (s.rounds[0].turns[1].confidence = NaN)],
  [
    "an outcome with another key",
    (s) => ((s.rounds[0].outcome as unknown as Record<string, unknown>).x = 1),
  ],
  [
    "a string position",
    (s) => ((s.rounds[0].turns[1] as unknown as Record<string, unknown>).position = "1"),
  ],
];

const OTHER_SHAPES = new Set([
  "a turn with another key",
  "a turn without a key",
  "a NaN confidence",
  "an outcome with another key",
  "a string position",
]);

async function finalState(seed: number): Promise<StagHuntState> {
  const setup = stagHuntSetup({ N: 5, M: 3, T: 4, F: 2 }, "h1");
  const played = await playEpisode(stagHunt, {
    ...setup,
    seed,
    agents: mockStagHuntPlayers({ seed, threshold: { noise: 0.3 } }),
    hashes: true,
  });
  return played.state as StagHuntState;
}

Deno.test("stagHuntStateJson() writes a settled round edited in place afresh, as the generic writer does", async () => {
  let shaped = 0;
  for (const [name, edit] of EDITS) {
    const state = await finalState(3);
    assert(state.rounds.length >= 2 && state.rounds.every((r) => r.outcome !== null));
    // Written (and kept) twice: the second write is the kept text's.
    const before = stagHuntStateJson(state);
    assertEquals([stagHuntStateJson(state), before], [canonicalJson(state), canonicalJson(state)]);
    edit(state);
    const own = stagHuntStateJson(state);
    if (OTHER_SHAPES.has(name)) {
      assertEquals(own, undefined, name);
      continue;
    }
    shaped++;
    const generic = canonicalJson(state);
    assertEquals(own, generic, name);
    // And again, from what it kept of the edited round.
    assertEquals(stagHuntStateJson(state), generic, name);
  }
  assertEquals(shaped, 20);
});

Deno.test("stagHuntStateJson() gives each episode's states exactly, written in turn", async () => {
  // Two episodes' final states written alternately: nothing kept of one is used for the other.
  const [a, b] = [await finalState(1), await finalState(2)];
  for (let i = 0; i < 3; i++) {
    assertEquals(stagHuntStateJson(a), canonicalJson(a));
    assertEquals(stagHuntStateJson(b), canonicalJson(b));
  }
  const copy = structuredClone(a);
  assertEquals(stagHuntStateJson(copy), canonicalJson(a));
});

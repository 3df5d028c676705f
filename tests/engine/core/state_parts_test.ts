// A checkpoint state given in parts (`CheckpointState.parts`, issue 23): the
// delta compared part by part is the delta compared piece by piece, for
// seeded texts cut and edited every way (parts gained, lost, grown, shrunk,
// empty, cut again), for the checkpoint texts of the other games, and for the
// bank run's own parts, whose logs are byte for byte those of its text alone.
import { assert, assertEquals } from "../../_assert.ts";
import { canonicalJson } from "../../../engine/core/canonical_json.ts";
import type { Environment } from "../../../engine/core/environment.ts";
import { playEpisode } from "../../../engine/core/episode.ts";
import { blockHeader, DeltaWriter } from "../../../engine/core/event_layout.ts";
import { frailSetup } from "../../../engine/frail/descriptor.ts";
import { MECHANISMS } from "../../../engine/frail/types.ts";
import { mockPopulation } from "../../../engine/agents/mock/population.ts";
import { bankRunGame } from "../../../engine/games/bank_run/descriptor.ts";
import { bankRun } from "../../../engine/games/bank_run/environment.ts";
import { bankRunCheckpointParts } from "../../../engine/games/bank_run/state_json.ts";
import { crowdfundingGame } from "../../../engine/games/crowdfunding/descriptor.ts";
import { debtRolloverGame } from "../../../engine/games/debt_rollover/descriptor.ts";
import { stagHuntSetup } from "../../../engine/games/staghunt/descriptor.ts";
import { stagHunt } from "../../../engine/games/staghunt/environment.ts";
import { mockStagHuntPlayers } from "../../../engine/games/staghunt/mock.ts";

const HEADER = blockHeader("r", "e", "2026-12-01T00:00:00.000Z");

/** A seeded generator of integers below `n`. */
function seeded(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
}

/** The pieces cut into parts at random commas (each part one or more whole pieces). */
function cut(pieces: readonly string[], rnd: (n: number) => number): string[] {
  const parts: string[] = [];
  let i = 0;
  while (i < pieces.length) {
    const k = 1 + (rnd(3) === 0 ? rnd(6) : 0);
    parts.push(pieces.slice(i, i + k).join(","));
    i += k;
  }
  return parts;
}

/**
 * Feeds the same states to a writer with their parts and to one without,
 * and checks that every state member is the same; returns how many.
 */
function sameMembers(states: readonly (readonly string[] | string)[], where: string): number {
  const byParts = new DeltaWriter(HEADER);
  const byText = new DeltaWriter(HEADER);
  states.forEach((s, i) => {
    const text = typeof s === "string" ? s : s.join(",");
    const parts = typeof s === "string" ? undefined : s;
    assertEquals(byParts.state(text, parts), byText.state(text), `${where}, state ${i}`);
  });
  return states.length;
}

Deno.test("DeltaWriter.state() gives with parts the delta it gives without, for 30,000 seeded states cut and edited every way", () => {
  const rnd = seeded(20261201);
  const alphabet = ["a", "b", "1", "22", "{", "}", '"x"', ":", "[]", "0.5", "", '"q\\"'];
  const pieces = (k: number) => Array.from({ length: k }, () => alphabet[rnd(alphabet.length)]);
  let checked = 0;
  let delta = 0;
  for (let t = 0; t < 5000; t++) {
    let parts = cut(pieces(rnd(120) + 1), rnd);
    const states: (string[] | string)[] = [];
    for (let c = 0; c < 6; c++) {
      // Now and then a state without its parts, or the same text cut otherwise.
      const kind = rnd(10);
      if (kind === 0) states.push(parts.join(","));
      else if (kind === 1) states.push(cut(parts.join(",").split(","), rnd));
      else states.push(parts);
      const next = [...parts];
      for (let e = rnd(4); e > 0; e--) {
        const at = rnd(next.length);
        const op = rnd(6);
        const part = next[at].split(",");
        if (op === 0) {
          // A piece of a part changed: as many pieces.
          part[rnd(part.length)] = alphabet[rnd(alphabet.length)];
          next[at] = part.join(",");
        } else if (op === 1) {
          // A part grown by pieces, or shrunk.
          if (part.length > 1 && rnd(2) === 0) part.splice(rnd(part.length), 1);
          else part.splice(rnd(part.length + 1), 0, ...pieces(rnd(2) + 1));
          next[at] = part.join(",");
        } else if (op === 2) next.splice(at, 0, ...cut(pieces(rnd(3) + 1), rnd));
        else if (op === 3 && next.length > 1) next.splice(at, 1);
        else if (op === 4) next[at] = alphabet[rnd(alphabet.length)];
        // else: unchanged (the same strings again).
      }
      parts = next;
    }
    checked += sameMembers(states, `case ${t}`);
    delta += states.length;
  }
  assertEquals([checked, delta], [30000, 30000]);
  // The cases include deltas both ways (a sanity check of the generator, not of the writer).
  const w = new DeltaWriter(HEADER);
  const long = "0123456789".repeat(3);
  w.state(`${long},b,${long}`, [long, `b,${long}`]);
  assertEquals(w.state(`${long},x,${long}`, [long, `x,${long}`]), '"delta":[[1,1,"x"]]');
  assertEquals(
    w.state(`${long},x,${long},d`, [long, `x,${long},d`]),
    `"delta":[[2,1,"${long},d"]]`,
  );
});

Deno.test("DeltaWriter.state() gives with parts the delta it gives without at the edges of parts", () => {
  const cases: [string, (string[] | string)[]][] = [
    ["a part that gains a piece", [["a", "b"], ["a", "b,c"]]],
    ["a part that loses a piece", [["a", "b,c", "d"], ["a", "b", "d"]]],
    ["a part more", [["a", "b"], ["a", "b", "c"]]],
    ["a part less", [["a", "b", "c"], ["a", "c"]]],
    ["empty parts", [["", ""], ["", "x"], ["x", ""], ["", ""]]],
    ["one part", [["a,b,c"], ["a,x,c"], ["a,x,c"], ["q"]]],
    ["runs across parts", [["a", "b", "c,d", "e"], ["a", "B", "C,D", "e"], ["A", "B", "C,D", "E"]]],
    ["a run to the end", [["a", "b,c"], ["a", "B,C"]]],
    ["the same text cut otherwise", [["a,b", "c"], ["a", "b,c"], ["a", "b,x"]]],
    ["text between", [["a", "b"], "a,x", ["a", "x"], ["a", "y"]]],
    ["quotes and escapes", [['"k":1', '"s":"a\\"b"'], ['"k":2', '"s":"a\\"c"']]],
    ["equal parts, other objects", [["a" + "bc".repeat(10), "x"], [
      "abc".slice(0, 1) + "bc".repeat(10),
      "y",
    ]]],
  ];
  for (const [where, states] of cases) sameMembers(states, where);
});

/** The canonical JSON of a bank-run state without its depositors' histories. */
function withoutHistories(state: unknown): unknown {
  const s = state as { depositors: Record<string, unknown>[] };
  return { ...s, depositors: s.depositors.map(({ history: _h, ...d }) => d) };
}

Deno.test("bankRunCheckpointParts() joins to the checkpoint text and gives the same logs and hashes as the text alone, for 96 seeded episodes", async () => {
  const textOnly: Environment<unknown, unknown> = {
    ...(bankRun as Environment<unknown, unknown>),
    checkpointState: { since: "lines-v4", json: bankRun.checkpointState!.json as never },
  };
  let states = 0;
  let logs = 0;
  const checked: Environment<unknown, unknown> = {
    ...(bankRun as Environment<unknown, unknown>),
    checkpointState: {
      ...bankRun.checkpointState!,
      parts(state: unknown) {
        const parts = bankRunCheckpointParts(state as never);
        assertEquals(parts.join(","), canonicalJson(withoutHistories(state)));
        states++;
        return parts;
      },
    } as never,
  };
  for (const mechanism of MECHANISMS) {
    for (
      const overrides of [
        {},
        { depositSplit: "heterogeneous" },
        { depositors: 7 },
        {
          depositors: 1,
        },
        { depositors: 2, capacityRule: "partial" },
        { depositors: 40 },
      ]
    ) {
      for (let seed = 0; seed < 4; seed++) {
        const setup = frailSetup(bankRunGame, { mechanism, regime: "stable", overrides });
        const play = (env: Environment<unknown, unknown>) => {
          let t = 0;
          return playEpisode(env, {
            ...setup,
            seed,
            agents: mockPopulation({ seed, depositors: seed === 3 ? "always_run" : "defensive" }),
            ndjson: true,
            clock: () => new Date(Date.UTC(2026, 11, 1) + 3 * t++).toISOString(),
          });
        };
        const [a, b] = [await play(checked), await play(textOnly)];
        assertEquals(a.ndjson, b.ndjson, `${mechanism} ${JSON.stringify(overrides)} seed ${seed}`);
        assertEquals(a.hashes, b.hashes);
        logs++;
      }
    }
  }
  assertEquals([logs, states], [96, 913]);
});

Deno.test("bankRunCheckpointParts() is the generic text in one part for a state of another shape", () => {
  const setup = frailSetup(bankRunGame, { mechanism: "M1", regime: "stable" });
  const s = bankRunGame.environment.init(setup.params, {
    mechanism: "M1",
    seed: 1,
    stream: () => ({ uniform: () => 0.5, int: () => 0 }),
  });
  const whole = bankRunCheckpointParts(s);
  // The balance sheet, 15 depositors, the disclosed snapshot, the flags, the last settlement, the
  // profile, the parameters, the pending reports and the round.
  assertEquals(whole.length, 23);
  const edits: [string, (s: Record<string, unknown>) => void, number][] = [
    ["a balance as text", (x) => ((x.depositors as Record<string, unknown>[])[0].balance = "1"), 1],
    ["a depositor's other member", (x) => {
      const d = (x.depositors as Record<string, unknown>[])[3];
      delete d.history;
      d.foo = 1;
    }, 1],
    ["an extra member", (x) => (x.extra = 1), 1],
    ["a disclosed number missing", (x) => delete (x.disclosed as Record<string, unknown>).cash, 1],
    ["no depositors", (x) => (x.depositors = []), 9],
    ["one depositor", (x) => (x.depositors = (x.depositors as unknown[]).slice(0, 1)), 9],
    ["two depositors", (x) => (x.depositors = (x.depositors as unknown[]).slice(0, 2)), 10],
    ["a failure, an inbox and pending reports", (x) => {
      x.failure = { kind: "insolvency", round: 2 };
      x.inbox = { dep_01: [{ from: "bank", text: "a,b" }] };
      x.pending = [{ agent: "dep_02", reported: 0.5 }];
    }, 23],
    ["minus zero", (x) => ((x.last as Record<string, unknown>).sold = -0), 23],
    ["an inbox of another prototype", (x) => (x.inbox = Object.create({ a: 1 })), 23],
  ];
  for (const [where, edit, count] of edits) {
    const edited = structuredClone(s) as unknown as Record<string, unknown>;
    edit(edited);
    const parts = bankRunCheckpointParts(edited as never);
    assertEquals(parts.length, count, where);
    assertEquals(parts.join(","), canonicalJson(withoutHistories(edited)), where);
    // The unedited state again: the parts the writer keeps are not those of the edited one.
    assertEquals(bankRunCheckpointParts(s), whole, where);
  }
  assert(whole.every((p) => p.length > 0));
});

Deno.test("DeltaWriter.state() gives with parts the delta it gives without, for the checkpoint texts of the other games cut at random commas", async () => {
  const rnd = seeded(7);
  let states = 0;
  /** Plays an episode whose every checkpoint text is kept. */
  async function texts<P, S>(
    env: Environment<P, S>,
    play: (e: Environment<P, S>) => Promise<unknown>,
  ) {
    const seen: string[] = [];
    const json = (state: S) => {
      const text = canonicalJson(state);
      seen.push(text);
      return text;
    };
    await play({ ...env, stateJson: json, checkpointState: undefined });
    return seen;
  }
  const runs: Promise<string[]>[] = [];
  for (let seed = 0; seed < 6; seed++) {
    for (const game of [debtRolloverGame, crowdfundingGame] as never[]) {
      const setup = frailSetup(game as typeof bankRunGame, {
        mechanism: MECHANISMS[seed % 4],
        regime: "stable",
      });
      const { environment, mockAgents } = game as typeof bankRunGame;
      runs.push(
        texts(
          environment as Environment<unknown, unknown>,
          (e) => playEpisode(e, { ...setup, seed, agents: mockAgents({ seed }), hashes: true }),
        ),
      );
    }
    const setup = stagHuntSetup({ N: 5, M: 3, T: 4, F: 2 }, "h1");
    runs.push(texts(stagHunt as Environment<unknown, unknown>, (e) =>
      playEpisode(e, {
        ...setup,
        seed,
        agents: mockStagHuntPlayers({ seed, threshold: { noise: 0.3 } }),
        hashes: true,
      })));
  }
  for (const [i, seen] of (await Promise.all(runs)).entries()) {
    states += sameMembers(seen.map((t) => cut(t.split(","), rnd)), `episode ${i}`);
  }
  assertEquals(states, 76);
});

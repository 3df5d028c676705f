// A game no viewer or loader code knows gets an episode page, a run index
// and its frames: a small
// minimum-effort game of peers (efforts 1..7, the round's minimum announced,
// no central player), defined here and played by the engine's generic
// episode loop, is shown through its descriptor's view, or by the default
// rules when no descriptor lists it.
//
// Registration: the runner helper's `registerGame` is not on this branch, so
// the test adds its descriptor to `GAMES` for the duration of a test
// (`withGame`) and removes it after; once `registerGame` lands, withGame is
// that call.
import { z } from "npm:zod@4.6.7";
import pl from "npm:nodejs-polars@0.25.2";
import { loadRuns } from "../../../analysis/load/load_runs.ts";
import { writeRunSite } from "../../../analysis/viewer/run_site.ts";
import type { IndexData } from "../../../analysis/viewer/_index_html.ts";
import type { AgentFactory } from "../../../engine/core/agent.ts";
import { defineContract } from "../../../engine/core/contract.ts";
import type { Environment } from "../../../engine/core/environment.ts";
import { playEpisode } from "../../../engine/core/episode.ts";
import type { EpisodeCondition, GameView } from "../../../engine/core/game.ts";
import type { Game } from "../../../engine/games/game.ts";
import { GAMES, registerGame } from "../../../engine/games/registry.ts";
import { assertEquals } from "../../_assert.ts";
import { tempDirRunner } from "../_temp_dir.ts";

const inTempDir = tempDirRunner("viewer_unknown_game_");
const ID = "tiny_min_effort";

interface Params {
  N: number;
  T: number;
}

interface State {
  params: Params;
  round: number;
  efforts: Record<string, number>[];
  payoffs: Record<string, number>;
}

const players = (p: Params) => Array.from({ length: p.N }, (_, i) => `p${i + 1}`);
const minimumOf = (efforts: Record<string, number>) => Math.min(...Object.values(efforts));
const bounds = (p: Params) => ({ worst: 0.1 * p.N * p.T, best: 1.3 * p.N * p.T });

const effortContract = defineContract<{ effort: number; reasoning: string }>("effort", {
  effort: { kind: "value", schema: z.number().int().min(1).max(7), default: 1, required: true },
  reasoning: { kind: "text" },
});

/** Van Huyck, Battalio and Beil's game A: payoff 0.2 min - 0.1 own + 0.6 a round. */
const tinyMinEffort: Environment<Params, State> = {
  id: ID,
  parseParams: (input) => input as Params,
  init: (params) => ({ params, round: 0, efforts: [], payoffs: {} }),
  roster: (s) => players(s.params).map((id) => ({ id, role: "player" })),
  horizon: (s) => s.params.T,
  startRound(s, round) {
    s.round = round;
    return { state: s, events: [] };
  },
  steps: () => [{
    id: "effort",
    requests: (s, round) =>
      players(s.params).map((agent) => ({
        agent,
        role: "player",
        call: "effort",
        round,
        step: "effort",
        view: { last_minimum: s.efforts.length === 0 ? null : minimumOf(s.efforts.at(-1)!) },
      })),
    apply(s, reports) {
      const efforts: Record<string, number> = {};
      for (const [agent, report] of reports) efforts[agent] = report.effort as number;
      s.efforts.push(efforts);
      const minimum = minimumOf(efforts);
      for (const [agent, e] of Object.entries(efforts)) {
        s.payoffs[agent] = (s.payoffs[agent] ?? 0) + 0.2 * minimum - 0.1 * e + 0.6;
      }
      const mean = Object.values(efforts).reduce((a, b) => a + b, 0) / s.params.N;
      return {
        state: s,
        events: [
          { type: "transition", kind: "round_outcome", minimum, mean_effort: mean },
          { type: "disclosure", public: { minimum }, metrics: { minimum, mean_effort: mean } },
        ],
      };
    },
  }],
  contracts: { effort: effortContract },
  isDone: (s) => s.round >= s.params.T,
  finish: (s) => ({
    state: s,
    events: [],
    outcome: {
      success: true,
      failure: null,
      rounds: s.round,
      payoffs: { ...s.payoffs },
      welfare: Object.values(s.payoffs).reduce((a, b) => a + b, 0),
    },
  }),
  bounds,
};

/** Players start high (7, 6, 5, ...) and then match the last announced minimum. */
const bestResponse: AgentFactory = (player) => ({
  policy: "mock:best_response",
  decide(request) {
    const last = (request.view as { last_minimum: number | null }).last_minimum;
    const effort = last ?? 8 - Number(player.id.slice(1));
    return { effort, reasoning: `Matching ${last ?? "nothing yet"}.` };
  },
});

const VIEW: GameView = {
  familyLabel: "Minimum effort",
  chart: {
    kind: "transition",
    transition: "round_outcome",
    series: [{ field: "minimum", label: "minimum" }, {
      field: "mean_effort",
      label: "mean effort",
    }],
    yTitle: "Effort",
    level: null,
    caption: "Minimum and mean effort by round.",
  },
  flips: false,
  roundPills: [{ transition: "round_outcome", field: "minimum", label: "minimum", success: null }],
  countsCalls: false,
  callsHeading: "Efforts",
};

/** The recorded condition of an episode of N players and T rounds. */
function conditionOf(params: Params): EpisodeCondition {
  return {
    game: ID,
    fields: { ...params, a: 0.2 },
    id: `${ID}_N${params.N}_T${params.T}`,
    derived: { bounds: bounds(params) },
    mechanism: "none",
    centralRole: null,
    centralId: null,
  };
}

function descriptor(view: GameView | undefined): Game<Params> {
  return {
    id: ID,
    game: ID,
    label: "Tiny minimum effort",
    environment: tinyMinEffort,
    roles: { central: null, participant: { id: "player", label: "Player" } },
    mockPolicies: [],
    conditionKeys: ["N", "T", "a"],
    derive: (p) => ({ bounds: bounds(p) }),
    setupKeys: ["N", "T"],
    setup: (fields) => {
      const params = tinyMinEffort.parseParams({ N: fields.N, T: fields.T });
      return { params, condition: conditionOf(params) };
    },
    mockAgents: () => bestResponse,
    episodeId: ({ condition }, seed) => `${condition.id}_s${seed}`,
    prompts: [],
    ...(view === undefined ? {} : { view }),
  };
}

/**
 * Runs `fn` with `game` registered (`registerGame`), then takes it out of the
 * registry again, so that the other tests of this file see the game unknown.
 */
async function withGame<T>(game: Game<Params>, fn: () => Promise<T>): Promise<T> {
  registerGame(game as unknown as Game, { replace: true });
  try {
    return await fn();
  } finally {
    const games = GAMES as Game[];
    games.splice(games.indexOf(game as unknown as Game), 1);
  }
}

/** Episodes (N 3, T 3) of the game, seeds 1 to `count` (two by default), one log each, in `<dir>/logs`. */
async function writeLogs(dir: string, count = 2): Promise<string> {
  const params = { N: 3, T: 3 };
  const condition: EpisodeCondition = {
    game: ID,
    fields: { N: 3, T: 3, a: 0.2 },
    id: `${ID}_N3_T3`,
    derived: { bounds: bounds(params) },
    mechanism: "none",
    centralRole: null,
    centralId: null,
  };
  await Deno.mkdir(`${dir}/logs`);
  for (let seed = 1; seed <= count; seed++) {
    const played = await playEpisode(tinyMinEffort, {
      params,
      condition,
      seed,
      agents: bestResponse,
      run: "tiny",
      episode: `e${seed}`,
      ndjson: true,
      clock: () => "2026-01-01T00:00:00.000Z",
    });
    await Deno.writeTextFile(`${dir}/logs/e${seed}.ndjson`, played.ndjson!);
  }
  return `${dir}/logs`;
}

function embedded(html: string): IndexData {
  const match = /<script type="application\/json" id="index-data">([^]*?)<\/script>/.exec(html);
  if (match === null) throw new Error("no embedded index data");
  return JSON.parse(match[1]);
}

/** The summary line of each round of a page. */
function roundSummaries(html: string): string[] {
  return [...html.matchAll(/<summary><strong>Round \d+<\/strong>(.*?)<\/summary>/g)].map((m) =>
    m[1]
  );
}

Deno.test("writeRunSite() shows a game no descriptor lists by the default view: disclosure metrics, calls counted", async () => {
  await inTempDir(async (dir) => {
    const logs = await writeLogs(dir);
    const site = await writeRunSite(logs, { out: `${dir}/view` });
    assertEquals([site.episodes, site.files, site.malformed], [2, 2, []]);
    const page = await Deno.readTextFile(`${dir}/view/episodes/tiny/e1.html`);
    assertEquals(page.includes(`run <b>tiny</b> · ${ID}</div>`), true);
    assertEquals(
      page.includes("<figcaption>Disclosure metrics by round: minimum, mean effort.</figcaption>"),
      true,
    );
    assertEquals(page.includes("<svg"), true);
    // Round 1: efforts 7, 6, 5; then everyone matches 5.
    assertEquals(roundSummaries(page), [
      `<span class="pill">3 calls</span><span class="sub">minimum 5</span>`,
      `<span class="pill">3 calls</span><span class="sub">minimum 5</span>`,
      `<span class="pill">3 calls</span><span class="sub">minimum 5</span>`,
    ]);
    assertEquals(page.includes("<h3>Agent calls</h3>"), true);
    assertEquals(page.includes("<small>flips</small>"), false);
    const index = embedded(await Deno.readTextFile(`${dir}/view/index.html`));
    assertEquals(index.constants.slice(0, 3), [["run", "tiny"], ["N", "3"], ["T", "3"]]);
    assertEquals(index.columns.some((c) => c.key === "flips"), false);
    assertEquals(index.rows.map((r) => r[0]), ["episodes/tiny/e1.html", "episodes/tiny/e2.html"]);
  });
});

Deno.test("writeRunSite() shows a registered game through its descriptor's view, with no viewer code naming it", async () => {
  await inTempDir(async (dir) => {
    const logs = await writeLogs(dir);
    await withGame(descriptor(VIEW), () => writeRunSite(logs, { out: `${dir}/view` }));
    const page = await Deno.readTextFile(`${dir}/view/episodes/tiny/e1.html`);
    assertEquals(page.includes(`run <b>tiny</b> · Minimum effort</div>`), true);
    assertEquals(page.includes("<figcaption>Minimum and mean effort by round.</figcaption>"), true);
    assertEquals(roundSummaries(page), [
      `<span class="pill">minimum 5</span><span class="sub">minimum 5</span>`,
      `<span class="pill">minimum 5</span><span class="sub">minimum 5</span>`,
      `<span class="pill">minimum 5</span><span class="sub">minimum 5</span>`,
    ]);
    assertEquals(page.includes("<h3>Efforts</h3>"), true);
    const index = embedded(await Deno.readTextFile(`${dir}/view/index.html`));
    assertEquals(index.constants.slice(0, 3), [["run", "tiny"], ["N", "3"], ["T", "3"]]);
    assertEquals(index.rows.length, 2);
    // Unregistered again, the same logs fall back to the default view.
    assertEquals(GAMES.some((g) => g.id === ID), false);
  });
});

Deno.test("writeRunSite() shows a registered game without a view by the default rules, its family named by its id", async () => {
  await inTempDir(async (dir) => {
    const logs = await writeLogs(dir);
    await withGame(descriptor(undefined), () => writeRunSite(logs, { out: `${dir}/view` }));
    const page = await Deno.readTextFile(`${dir}/view/episodes/tiny/e2.html`);
    assertEquals(page.includes(`run <b>tiny</b> · ${ID}</div>`), true);
    assertEquals(
      page.includes("<figcaption>Disclosure metrics by round: minimum, mean effort.</figcaption>"),
      true,
    );
  });
});

Deno.test("loadRuns() loads a registered game no loader code names: its condition keys, bounds and round metrics", async () => {
  await inTempDir(async (dir) => {
    const logs = await writeLogs(dir);
    const { episodes, rounds } = await withGame(
      descriptor(VIEW),
      () => loadRuns(logs, { frames: ["rounds"] }),
    );
    assertEquals(
      episodes.select("episode", "game", "env", "N", "T", "a", "model", "best", "welfare")
        .toRecords(),
      [1, 2].map((seed) => ({
        episode: `e${seed}`,
        game: ID,
        env: ID,
        N: 3,
        T: 3,
        a: 0.2,
        model: "mock:best_response",
        best: 1.3 * 3 * 3,
        // Three rounds at minimum 5: 0.2 * 5 + 0.6 - 0.1 * (7 + 5 + 5), 6 ..., 5 ...
        welfare: [7, 6, 5].reduce((w, first) => w + 3 * 1.6 - 0.1 * (first + 10), 0),
      })),
    );
    // Condition keys are typed by their values: integers, other numbers, text.
    assertEquals(episodes.getColumn("N").dtype.toString(), "DataType(Int32)");
    assertEquals(episodes.getColumn("a").dtype.toString(), "DataType(Float64)");
    assertEquals(
      rounds!.filter(pl.col("episode").eq(pl.lit("e1"))).select("round", "minimum", "mean_effort")
        .toRecords(),
      [{ round: 1, minimum: 5, mean_effort: 6 }, { round: 2, minimum: 5, mean_effort: 5 }, {
        round: 3,
        minimum: 5,
        mean_effort: 5,
      }],
    );
  });
});

Deno.test("writeRunSite() shows a game registered at run time through its view in pages written by worker threads", async () => {
  await inTempDir(async (dir) => {
    // From 16 log files on, worker threads write the pages.
    const logs = await writeLogs(dir, 16);
    const site = await withGame(
      descriptor(VIEW),
      () => writeRunSite(logs, { out: `${dir}/view`, workers: 2 }),
    );
    assertEquals(site.episodes, 16);
    for (let seed = 1; seed <= 16; seed++) {
      const page = await Deno.readTextFile(`${dir}/view/episodes/tiny/e${seed}.html`);
      assertEquals(page.includes(`run <b>tiny</b> · Minimum effort</div>`), true, `e${seed}`);
      assertEquals(
        roundSummaries(page)[0],
        `<span class="pill">minimum 5</span><span class="sub">minimum 5</span>`,
      );
    }
    const index = embedded(await Deno.readTextFile(`${dir}/view/index.html`));
    assertEquals(index.constants.slice(0, 4), [["run", "tiny"], ["N", "3"], ["T", "3"], [
      "a",
      "0.2",
    ]]);
  });
});

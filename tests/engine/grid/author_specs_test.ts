// Specs for authors (issue 20, part 4): belief rules by id, by id with
// parameters and as objects; lists of payoff matrices; named override sets.
// Exact cells and conditions for each form, errors naming the field, a
// lambda sweep through runGrid in 2 workers with a resume, and named sets as
// the loader and the tables show them.
import { assert, assertEquals, assertRejects, assertThrows } from "../../_assert.ts";
import { loadRuns } from "../../../analysis/load/load_runs.ts";
import { welfareTable } from "../../../analysis/frail/welfare_table.ts";
import type { BeliefRule } from "../../../engine/games/staghunt/beliefs/rule.ts";
import { overridesId } from "../../../engine/frail/descriptor.ts";
import { expandCells, expandGrid } from "../../../engine/grid/cells.ts";
import { readManifest } from "../../../engine/grid/manifest.ts";
import { planGrid } from "../../../engine/grid/plan.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { parseGridSpec, specHash } from "../../../engine/grid/spec.ts";
import { replayEpisode } from "../../../engine/run_episode.ts";
import { digestFolder, episodeLog } from "./_logs.ts";
import { makeTempDir } from "../../_temp.ts";

const stagHunt = (block: Record<string, unknown>) =>
  parseGridSpec({ episodes: 1, blocks: [{ game: "staghunt", N: [3], M: [2], T: [2], ...block }] });

const message = (spec: unknown) => {
  try {
    expandCells(parseGridSpec(spec));
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("the spec was accepted");
};

Deno.test("expandCells() gives one cell per rule of a rule list, labelled by the rule's id", () => {
  const cells = expandCells(stagHunt({
    agents: [{
      mock: {
        players: "threshold",
        rule: ["naive", { carryover: { lambda: 0.7 } }, { outcome_alignment: { tau: 4 } }],
        noise: 0.1,
      },
    }],
  }));
  assertEquals(cells.map((c) => c.id), [
    "staghunt_N3_M2_T2_F0_base_h1_mock-threshold-naive-cf4c1a6d",
    "staghunt_N3_M2_T2_F0_base_h1_mock-threshold-carryover-lambda-0.7-cf4c1a6d",
    "staghunt_N3_M2_T2_F0_base_h1_mock-threshold-outcome_alignment-tau-4-cf4c1a6d",
  ]);
  assertEquals(cells[1].agents, {
    kind: "mock",
    mock: { players: "threshold", rule: { carryover: { lambda: 0.7 } }, noise: 0.1 },
    label: "mock-threshold-carryover-lambda-0.7-cf4c1a6d",
  });
  const condition = {
    game: "staghunt",
    N: 3,
    M: 2,
    T: 2,
    F: 0,
    corruption: "base",
    heterogeneity: "h1",
    payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 },
  };
  for (const c of cells) assertEquals(c.condition as unknown, condition);
  // The rules are the agents: their cells share seeds (paired comparisons).
  const seeds = expandGrid(stagHunt({
    agents: [{ mock: { rule: ["naive", { carryover: { lambda: 0.7 } }] } }],
  })).episodes.map((e) => e.seed);
  assertEquals(seeds[0], seeds[1]);
});

Deno.test("expandCells() labels a parameterised or object rule by its id, and keeps a bare id's hash", () => {
  const ids = (mock: Record<string, unknown>) =>
    expandCells(stagHunt({ agents: [{ mock }] })).map((c) => c.id);
  // A rule given by its bare id keeps the label of before (pinned ids stay).
  assertEquals(ids({ rule: "carryover" }), ["staghunt_N3_M2_T2_F0_base_h1_mock-05d5b4b8"]);
  assertEquals(ids({ rule: { carryover: { lambda: 0.7, q0: 0.4 } } }), [
    "staghunt_N3_M2_T2_F0_base_h1_mock-carryover-lambda-0.7-q0-0.4",
  ]);
  assertEquals(ids({ rule: { naive: {} } }), ["staghunt_N3_M2_T2_F0_base_h1_mock-naive"]);
  const recency: BeliefRule = { id: "recency", estimate: () => 0.5 };
  assertEquals(ids({ players: "threshold", rule: recency }), [
    "staghunt_N3_M2_T2_F0_base_h1_mock-threshold-recency",
  ]);
  // A labelled entry with a list of rules: its label and each rule's id.
  assertEquals(
    expandCells(stagHunt({ agents: [{ label: "sweep", mock: { rule: ["naive", recency] } }] }))
      .map((c) => c.id),
    ["staghunt_N3_M2_T2_F0_base_h1_sweep-naive", "staghunt_N3_M2_T2_F0_base_h1_sweep-recency"],
  );
});

Deno.test("parseGridSpec() checks a rule's parameters against its own schema and names the field", () => {
  const rule = (r: unknown) =>
    message({ blocks: [{ game: "staghunt", agents: [{ mock: { rule: r } }] }] });
  const at = 'Invalid grid spec "blocks.0.agents.0.mock.rule';
  assertEquals(
    rule({ carryover: { lambda: 1.5 } }),
    `${at}.carryover.lambda": must be <= 1 (got 1.5)`,
  );
  assertEquals(
    rule({ carryover: { lamda: 0.7 } }),
    `${at}.carryover.lamda": unknown field "lamda"; did you mean "lambda"?`,
  );
  assertEquals(
    rule({ carryover: { tau: 0 } }),
    `${at}.carryover.tau": must be > 0 (got 0)`,
  );
  assertEquals(
    rule({ naive: { lambda: 0.5 } }),
    `${at}.naive.lambda": the naive rule takes no parameters`,
  );
  assertEquals(
    rule({ outcome_alignment: { a0: 0, b0: 0 } }),
    `${at}.outcome_alignment.a0": a0 and b0 must not both be 0 (got 0)`,
  );
  assertEquals(
    rule({ recency: { decay: 0.7 } }),
    `${at}.recency": unknown belief rule "recency": expected one of "naive", "carryover", ` +
      `"outcome_alignment" (got {"decay":0.7})`,
  );
  assertEquals(
    rule({ carryover: {}, naive: {} }),
    `${at}": a rule with parameters has one key, its id, e.g. { "carryover": { "lambda": 0.7 } } ` +
      `(got 2 keys) (got {"carryover":{},"naive":{}})`,
  );
  assertEquals(
    rule("recency"),
    `${at}": unknown belief rule: expected one of "naive", "carryover", "outcome_alignment", ` +
      `{ "<id>": { <parameters> } } or, in a TypeScript spec, a BeliefRule object (got "recency")`,
  );
  assertEquals(
    rule(["naive", { carryover: { q0: 2 } }]),
    `${at}.1.carryover.q0": must be <= 1 (got 2)`,
  );
  assertEquals(rule([]), `${at}": must list at least 1 rule (got [])`);
  assertEquals(
    rule({ id: "", estimate: () => 0 }),
    `${at}.id": a BeliefRule object needs an id of 1 to 80 characters (got "")`,
  );
});

Deno.test("runGrid() plays a lambda sweep in 2 workers, resumes it, and the logs name each rule", async () => {
  const spec = {
    name: "lambda-sweep",
    seed: 5,
    episodes: 40,
    blocks: [{
      game: "staghunt",
      N: [5],
      M: [3],
      T: [4],
      F: [1, 2],
      agents: [{
        mock: {
          players: "threshold",
          rule: [0.3, 0.5, 0.7].map((lambda) => ({ carryover: { lambda } })),
          noise: 0.1,
        },
      }],
    }],
  };
  const out = await makeTempDir();
  const stop = new AbortController();
  const first = await runGrid(spec, {
    out,
    workers: 2,
    progress: false,
    signal: stop.signal,
    onEpisode: () => stop.abort(),
  });
  // Each worker holds up to 64 episodes (DEFAULT_DEPTH): those in flight finish, the rest wait.
  assertEquals([first.mode, first.total, first.interrupted], ["workers", 240, true]);
  assert(first.played >= 1 && first.played < 240, `played ${first.played}`);
  const rest = await runGrid(spec, { out, workers: 2, progress: false });
  assertEquals(
    [rest.mode, rest.skipped, rest.played, rest.remaining, rest.failed.length],
    ["workers", first.played, 240 - first.played, 0, 0],
  );
  // The same logs as one uninterrupted in-process run.
  const whole = await makeTempDir();
  await runGrid(spec, { out: whole, workers: 0, progress: false });
  assertEquals(await digestFolder(out), await digestFolder(whole));
  const frames = await loadRuns(out, { frames: [] });
  const models = frames.episodes.getColumn("model").toArray() as string[];
  assertEquals(
    [...new Set(models)].sort(),
    [
      "mock:threshold(carryover(lambda=0.3),noise=0.1)",
      "mock:threshold(carryover,noise=0.1)",
      "mock:threshold(carryover(lambda=0.7),noise=0.1)",
    ].sort(),
  );
  assertEquals(frames.episodes.height, 240);
  await Deno.remove(out, { recursive: true });
  await Deno.remove(whole, { recursive: true });
});

Deno.test("runGrid() plays a rule object in-process even with workers, and resumes by its id", async () => {
  const recency: BeliefRule = {
    id: "recency",
    estimate: (
      h,
    ) => (h.current.length
      ? h.current.filter((r) => r.action === "Stag").length / h.current.length
      : undefined),
  };
  const spec = {
    name: "own-rule",
    episodes: 2,
    blocks: [{ game: "staghunt", N: [3], M: [2], T: [2], agents: [{ mock: { rule: recency } }] }],
  };
  const out = await makeTempDir();
  const first = await runGrid(spec, { out, workers: 2, progress: false });
  assertEquals([first.mode, first.played, first.failed.length], ["in-process", 2, 0]);
  const log = await episodeLog(out, "staghunt_N3_M2_T2_F0_base_h1_mock-recency_e0");
  const start = log.find((e) => e.type === "episode_start") as unknown as { model: string };
  assertEquals(start.model, "mock:threshold(recency)");
  // The manifest records the rule by its id; the hash is that of the record.
  const manifest = (await readManifest(out))!;
  const blocks = manifest.spec.blocks as unknown as { agents: { mock: unknown }[] }[];
  assertEquals(blocks[0].agents[0].mock, { rule: { id: "recency" } });
  assertEquals(
    manifest.spec_hash,
    specHash(parseGridSpec(JSON.parse(JSON.stringify(manifest.spec)))),
  );
  const again = await runGrid(spec, { out, workers: 2, progress: false });
  assertEquals([again.skipped, again.played], [2, 0]);
  // The recorded form plans without its agents (as the loader plans it) but
  // cannot be played: runGrid refuses it before any episode starts.
  const recorded = JSON.parse(JSON.stringify(manifest.spec));
  assertEquals(planGrid(recorded, { checkAgents: false }).episodes.length, 2);
  const other = await makeTempDir();
  await assertRejects(
    () => runGrid({ ...recorded, name: "recorded" }, { out: other, workers: 0, progress: false }),
    RangeError,
    'cannot run: Belief rule "recency" is a rule object recorded by its id only: run the TypeScript spec that defines it to play it',
  );
  // The run folder loads (its plan is recomputed from the manifest).
  const { episodes } = await loadRuns(out);
  assertEquals(episodes.height, 2);
  await Deno.remove(out, { recursive: true });
  await Deno.remove(other, { recursive: true });
});

Deno.test("expandCells() crosses a list of payoff matrices with the other factors, payoffs outermost", () => {
  const cells = expandCells(
    stagHunt({ F: [0, 1], payoffs: [[4, 2, 0, 2], { RS: 5, HS: 2, RF: 0, HF: 3 }] }),
  );
  assertEquals(cells.map((c) => c.id), [
    "staghunt_N3_M2_T2_F0_base_h1_mock",
    "staghunt_N3_M2_T2_F1_base_h1_mock",
    "staghunt_N3_M2_T2_F0_base_h1_pay5-2-0-3_mock",
    "staghunt_N3_M2_T2_F1_base_h1_pay5-2-0-3_mock",
  ]);
  assertEquals(cells.map((c) => (c.condition as { payoffs: unknown }).payoffs), [
    { RS: 4, HS: 2, RF: 0, HF: 2 },
    { RS: 4, HS: 2, RF: 0, HF: 2 },
    { RS: 5, HS: 2, RF: 0, HF: 3 },
    { RS: 5, HS: 2, RF: 0, HF: 3 },
  ]);
  // A single matrix is still one value in the validated spec (its hash is unchanged).
  const single = stagHunt({ payoffs: [5, 2, 0, 3] });
  assertEquals((single.blocks[0] as { payoffs: unknown }).payoffs, { RS: 5, HS: 2, RF: 0, HF: 3 });
  assertEquals(
    message({ blocks: [{ game: "staghunt", payoffs: [[4, 2, 0, 2], [1, 2, 0, 3]] }] }),
    'Invalid grid spec "blocks.0.payoffs.1": Invalid staghunt parameter "payoffs": must satisfy ' +
      'the Stag Hunt ordering R_S > H_F >= H_S > R_F (got {"RS":1,"HS":2,"RF":0,"HF":3})',
  );
  assertEquals(
    message({ blocks: [{ game: "staghunt", payoffs: [[4, 2, 0, 2], [4, 2, 0]] }] }),
    'Invalid grid spec "blocks.0.payoffs": expected [R_S, H_S, R_F, H_F] or { "RS", "HS", "RF", ' +
      '"HF" }, or a list of them (got [[4,2,0,2],[4,2,0]])',
  );
});

const frail = (params: unknown) =>
  parseGridSpec({
    episodes: 1,
    blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0"], params }],
  });

Deno.test("expandCells() names a named override set by its name and an unnamed one by its hash", () => {
  const hash = overridesId({ capacity: 3 });
  const list = expandCells(frail([{}, { name: "crisis", capacity: 3 }, { capacity: 3 }]));
  assertEquals(list.map((c) => c.id), [
    "bank_run_M0_stable_mock",
    "bank_run_M0_stable_crisis_mock",
    `bank_run_M0_stable_${hash}_mock`,
  ]);
  assertEquals(list.map((c) => c.condition), [
    { game: "frail", env: "bank_run", mechanism: "M0", regime: "stable", params: {} },
    {
      game: "frail",
      env: "bank_run",
      mechanism: "M0",
      regime: "stable",
      params: { capacity: 3 },
      paramsName: "crisis",
    },
    { game: "frail", env: "bank_run", mechanism: "M0", regime: "stable", params: { capacity: 3 } },
  ]);
  // The record form is the same list; naming a set does not change its draws.
  const record = expandGrid(frail({ crisis: { capacity: 3 }, calm: {} }));
  assertEquals(record.cells.map((c) => c.id), [
    "bank_run_M0_stable_crisis_mock",
    "bank_run_M0_stable_calm_mock",
  ]);
  const unnamed = expandGrid(frail([{ capacity: 3 }, {}]));
  assertEquals(record.episodes.map((e) => e.seed), unnamed.episodes.map((e) => e.seed));
});

Deno.test("parseGridSpec() refuses a set name that is not a name, reads as a hash, or repeats", () => {
  const rule = 'use at most 40 letters, digits, "_", "-" or ".", other than "none" and a hash id ' +
    '("p" and 8 hex digits)';
  const at = 'Invalid grid spec "blocks.0.params';
  const params = (p: unknown) =>
    message({ blocks: [{ game: "frail", envs: ["bank_run"], params: p }] });
  assertEquals(params([{ name: "none" }]), `${at}.0.name": ${rule} (got "none")`);
  assertEquals(params([{ name: "p044a07ef" }]), `${at}.0.name": ${rule} (got "p044a07ef")`);
  assertEquals(params([{}, { name: "a b" }]), `${at}.1.name": ${rule} (got "a b")`);
  assertEquals(
    params([{ name: "a" }, { name: "a", capacity: 3 }]),
    `${at}.1.name": the name "a" is given to two override sets (got "a")`,
  );
  assertEquals(
    params({ crisis: 3 }),
    `${at}.crisis": expected an object of parameter overrides (got 3)`,
  );
  assertEquals(
    params({ crisis: { name: "x" } }),
    `${at}.crisis.name": a set of a params record is named by its key: remove its "name" (got "x")`,
  );
  assertEquals(params({}), `${at}": must list at least 1 value (got {})`);
});

Deno.test("loadRuns() and welfareTable() show a named set by its name, and its logs replay", async () => {
  const out = await makeTempDir();
  const r = await runGrid({
    name: "named",
    episodes: 2,
    blocks: [{
      game: "frail",
      envs: ["bank_run"],
      mechanisms: ["M0", "M2"],
      params: [{}, { name: "crisis", earlySalePrice: 0.6 }, { earlySalePrice: 0.6 }],
    }],
  }, { out, workers: 2, progress: false });
  assertEquals([r.played, r.failed.length, r.mode], [12, 0, "workers"]);
  const frames = await loadRuns(out, { frames: [] });
  const hash = overridesId({ earlySalePrice: 0.6 });
  const ids = frames.episodes.getColumn("condition_id").toArray() as string[];
  assertEquals(
    [...new Set(ids)].sort(),
    [
      "bank_run_M0_stable",
      `bank_run_M0_stable_${hash}`,
      "bank_run_M0_stable_crisis",
      "bank_run_M2_stable",
      `bank_run_M2_stable_${hash}`,
      "bank_run_M2_stable_crisis",
    ].sort(),
  );
  const table = welfareTable(frames.episodes).toRecords();
  assertEquals(table.map((row) => `${row.overrides_id} ${row.mechanism}`), [
    "crisis M0",
    "crisis M2",
    "none M0",
    "none M2",
    `${hash} M0`,
    `${hash} M2`,
  ]);
  // A named set plays what the unnamed one with its overrides plays.
  const named = table.filter((row) => row.overrides_id === "crisis");
  const same = table.filter((row) => row.overrides_id === hash);
  assertEquals(named.map((row) => row.welfare), same.map((row) => row.welfare));
  const log = await episodeLog(out, "bank_run_M2_stable_crisis_mock_e1");
  const start = log.find((e) => e.type === "episode_start") as unknown as {
    condition: Record<string, unknown>;
    condition_id: string;
  };
  assertEquals(start.condition_id, "bank_run_M2_stable_crisis");
  assertEquals(start.condition.overrides_id, "crisis");
  assertEquals(start.condition.overrides_name, "crisis");
  assertEquals((await replayEpisode(log)).ok, true);
  // An unnamed set's log is as before: no overrides_name.
  const plain = await episodeLog(out, `bank_run_M2_stable_${hash}_mock_e1`);
  const plainStart = plain.find((e) => e.type === "episode_start") as unknown as {
    condition: Record<string, unknown>;
  };
  assertEquals(Object.keys(plainStart.condition).sort(), [
    "env",
    "mechanism",
    "overrides",
    "overrides_id",
    "regime",
  ]);
  await Deno.remove(out, { recursive: true });
});

Deno.test("stagHuntMockOptions() refuses a list of rules: the block spreads it", async () => {
  const { stagHuntMockOptions } = await import("../../../engine/games/staghunt/mock_options.ts");
  assertThrows(
    () => stagHuntMockOptions({ rule: ["naive", "carryover"] }),
    RangeError,
    "A mock entry plays one belief rule: expand the block to spread its list of 2",
  );
});

Deno.test("runEpisode() records a named set by its name and refuses a name that reads as a hash", async () => {
  const { runEpisode } = await import("../../../engine/run_episode.ts");
  const r = await runEpisode({
    env: "bank_run",
    seed: 2,
    params: { earlySalePrice: 0.6 },
    paramsName: "crisis",
  });
  const start = r.events.find((e) => e.type === "episode_start") as unknown as {
    condition_id: string;
  };
  assertEquals(start.condition_id, "bank_run_M0_stable_crisis");
  assertEquals((await replayEpisode(r.events)).ok, true);
  const bad = () => runEpisode({ env: "bank_run", seed: 2, paramsName: "p044a07ef" });
  let error: unknown;
  try {
    await bad();
  } catch (err) {
    error = err;
  }
  assert(error instanceof RangeError);
  assertEquals(
    error.message,
    'Invalid episode config "paramsName": use at most 40 letters, digits, "_", "-" or ".", ' +
      'other than "none" and a hash id (got "p044a07ef")',
  );
});

Deno.test("data/specs/lambda_sweep.json plans its rules x payoffs x F cells and its named sets", async () => {
  const { planGrid } = await import("../../../engine/grid/plan.ts");
  const spec = JSON.parse(
    await Deno.readTextFile(new URL("../../../data/specs/lambda_sweep.json", import.meta.url)),
  );
  const plan = planGrid(spec);
  // 5 rules x 2 payoffs x 4 F, and 2 mechanisms x 2 named sets; 50 episodes each.
  assertEquals([plan.cells.length, plan.total], [44, 2200]);
  assertEquals(plan.cells.slice(0, 5).map((c) => c.id), [
    "staghunt_N5_M3_T4_F1_base_h1_mock-threshold-naive-cf4c1a6d",
    "staghunt_N5_M3_T4_F1_base_h1_mock-threshold-carryover-lambda-0.3-cf4c1a6d",
    "staghunt_N5_M3_T4_F1_base_h1_mock-threshold-carryover-cf4c1a6d",
    "staghunt_N5_M3_T4_F1_base_h1_mock-threshold-carryover-lambda-0.7-cf4c1a6d",
    "staghunt_N5_M3_T4_F1_base_h1_mock-threshold-outcome_alignment-lambda-0.7-cf4c1a6d",
  ]);
  assertEquals(plan.cells.slice(-2).map((c) => c.id), [
    "bank_run_M3_stable_calm_mock",
    "bank_run_M3_stable_fire-sale_mock",
  ]);
});

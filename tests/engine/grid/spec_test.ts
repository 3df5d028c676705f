import { assertEquals, assertThrows } from "../../_assert.ts";
import { parseGridSpec, specHash } from "../../../engine/grid/spec.ts";

const frail = (extra: Record<string, unknown> = {}) => ({
  blocks: [{ game: "frail", envs: ["bank_run"], ...extra }],
});

Deno.test("parseGridSpec() fills the documented defaults", () => {
  const spec = parseGridSpec(frail());
  assertEquals(spec, {
    name: "grid",
    seed: 0,
    episodes: 5,
    pairSeeds: true,
    blocks: [{
      game: "frail",
      envs: ["bank_run"],
      mechanisms: ["M0", "M1", "M2", "M3"],
      regimes: ["stable"],
      params: [{}],
      agents: [{ kind: "mock", mock: {} }],
    }],
  });
  const sh = parseGridSpec({ blocks: [{ game: "staghunt" }] }).blocks[0];
  assertEquals(sh, {
    game: "staghunt",
    payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 },
    agents: [{ kind: "mock", mock: {} }],
  });
});

Deno.test("parseGridSpec() names the field and the allowed values when an enum value is wrong", () => {
  const cases: [unknown, string][] = [
    [
      frail({ mechanisms: ["M0", "M5"] }),
      'Invalid grid spec "blocks.0.mechanisms.1": expected one of "M0", "M1", "M2", "M3" (got "M5")',
    ],
    [
      { blocks: [{ game: "frail", envs: ["bank"] }] },
      'Invalid grid spec "blocks.0.envs.0": expected one of "bank_run", "debt_rollover", "crowdfunding" (got "bank")',
    ],
    [
      frail({ regimes: ["boom"] }),
      'Invalid grid spec "blocks.0.regimes.0": expected one of "expansion", "stable", "contraction" (got "boom")',
    ],
    [
      { blocks: [{ game: "chess" }] },
      'Invalid grid spec "blocks.0.game": expected one of "frail", "staghunt", "branch", "min_effort" (got "chess")',
    ],
    [
      { blocks: [{ game: "staghunt", corruption: ["flip"] }] },
      'Invalid grid spec "blocks.0.corruption.0": expected one of "base", "b3", "communication_only" (got "flip")',
    ],
    [
      { blocks: [{ game: "staghunt", heterogeneity: ["h4"] }] },
      'Invalid grid spec "blocks.0.heterogeneity.0": expected one of "h1", "h2", "h3" (got "h4")',
    ],
    [
      frail({ agents: [{ mock: { depositors: "panicky" } }] }),
      'Invalid grid spec "blocks.0.agents.0.mock.depositors": expected one of "defensive", "always_stay", "always_run" (got "panicky")',
    ],
  ];
  for (const [input, message] of cases) {
    assertThrows(() => parseGridSpec(input), RangeError, message);
  }
});

Deno.test("parseGridSpec() lists the allowed fields when a field is unknown", () => {
  assertThrows(
    () => parseGridSpec({ ...frail(), sed: 3 }),
    RangeError,
    'Invalid grid spec "sed": unknown field "sed"; did you mean "seed"?',
  );
  assertThrows(
    () => parseGridSpec(frail({ mechanism: ["M0"] })),
    RangeError,
    'Invalid grid spec "blocks.0.mechanism": unknown field "mechanism"; did you mean "mechanisms"?',
  );
  assertThrows(
    () => parseGridSpec({ blocks: [{ game: "staghunt", agents: [{ mock: { player: "x" } }] }] }),
    RangeError,
    'Invalid grid spec "blocks.0.agents.0.mock.player": unknown field "player"; did you mean "players"?',
  );
});

Deno.test("parseGridSpec() explains agents entries, shapes and ranges in one sentence", () => {
  const cases: [unknown, string][] = [
    [
      frail({ agents: [{ llm: "gpt" }] }),
      'Invalid grid spec "blocks.0.agents.0": an agents entry needs one of the fields "mock", "model" (got {"llm":"gpt"})',
    ],
    [
      frail({ agents: [{ model: 3 }] }),
      'Invalid grid spec "blocks.0.agents.0.model": expected a model id, or { "default", "roles", "agents" } naming model ids (got 3)',
    ],
    [
      { blocks: [{ game: "staghunt", M: "most" }] },
      'Invalid grid spec "blocks.0.M": expected "all" or a list of integers >= 1 (got "most")',
    ],
    [
      { blocks: [{ game: "staghunt", payoffs: [4, 2] }] },
      'Invalid grid spec "blocks.0.payoffs": expected [R_S, H_S, R_F, H_F] or { "RS", "HS", "RF", "HF" } (got [4,2])',
    ],
    [{ blocks: [] }, 'Invalid grid spec "blocks": must list at least 1 value (got [])'],
    [{ episodes: 0, ...frail() }, 'Invalid grid spec "episodes": must be >= 1 (got 0)'],
    [
      { name: "my run", ...frail() },
      `Invalid grid spec "name": use letters, digits, '_', '-' or '.', starting with a letter, digit or '_' (got "my run")`,
    ],
    [
      { name: "..", ...frail() },
      `Invalid grid spec "name": use letters, digits, '_', '-' or '.', starting with a letter, digit or '_' (got "..")`,
    ],
    [
      { name: ".", ...frail() },
      `Invalid grid spec "name": use letters, digits, '_', '-' or '.', starting with a letter, digit or '_' (got ".")`,
    ],
    [
      { blocks: [{ game: "staghunt", paper: {}, N: [3] }] },
      'Invalid grid spec "blocks.0.N": give either "paper" or "N"',
    ],
  ];
  for (const [input, message] of cases) {
    assertThrows(() => parseGridSpec(input), RangeError, message);
  }
});

Deno.test("specHash() ignores key order and spelled-out defaults but not a changed value", () => {
  const a = specHash(parseGridSpec({ name: "x", ...frail() }));
  const b = specHash(parseGridSpec({
    blocks: [{ regimes: ["stable"], envs: ["bank_run"], game: "frail" }],
    pairSeeds: true,
    name: "x",
  }));
  const c = specHash(parseGridSpec({ name: "x", ...frail({ regimes: ["contraction"] }) }));
  assertEquals(a, b);
  assertEquals(a === c, false);
  assertEquals(a.length, 64);
});

import assert from "node:assert/strict";
import {
  MIN_EFFORT_CONDITION_KEYS,
  minEffortGame,
  minEffortSetup,
} from "../../../../engine/games/min_effort/descriptor.ts";
import { minEffort } from "../../../../engine/games/min_effort/environment.ts";
import { play } from "./_fixtures.ts";

Deno.test("minEffortGame describes a game of peers with one player role", () => {
  assert.equal(minEffortGame.id, "min_effort");
  assert.equal(minEffortGame.game, "min_effort");
  assert.equal(minEffortGame.label, "Minimum effort");
  assert.equal(minEffortGame.environment, minEffort);
  assert.deepEqual(minEffortGame.roles, {
    central: null,
    participant: { id: "player", label: "Player" },
  });
  assert.deepEqual(minEffortGame.mockPolicies, [{
    role: "player",
    option: "players",
    policies: ["best_response", "always_max", "always_min", "uniform"],
  }]);
  assert.deepEqual(minEffortGame.conditionKeys, ["N", "T", "a", "b", "c", "efforts"]);
});

Deno.test("minEffortSetup() records every parameter as the condition, with a short id", () => {
  const { params, condition } = minEffortSetup({});
  assert.deepEqual(condition.fields, params);
  assert.deepEqual(Object.keys(condition.fields), [...MIN_EFFORT_CONDITION_KEYS]);
  assert.equal(condition.id, "min_effort_N7_T10");
  assert.equal(condition.game, "min_effort");
  assert.equal(condition.mechanism, "none");
  assert.equal(condition.centralRole, null);
  assert.equal(condition.centralId, null);
  assert.deepEqual(condition.derived, minEffortGame.derive(params));
  const ids = [
    [{ N: 16, b: 0 }, "min_effort_N16_T10_pay0.2-0-0.6"],
    [{ N: 2, T: 5, efforts: 3 }, "min_effort_N2_T5_E3"],
    [{ a: 0.5, efforts: 10 }, "min_effort_N7_T10_E10_pay0.5-0.1-0.6"],
  ] as const;
  for (const [fields, id] of ids) assert.equal(minEffortSetup(fields).condition.id, id);
});

Deno.test("minEffortSetup() names a bad condition field", () => {
  assert.throws(() => minEffortSetup({ N: 7, T: 10, M: 3 }), {
    name: "RangeError",
    message: 'Invalid min_effort parameter "M": unknown field "M"; did you mean "N"?',
  });
});

Deno.test("an episode_start records the condition, derived quantities and bounds of minEffortSetup()", async () => {
  const { played } = await play({ fields: { N: 3, T: 2 } });
  const start = played.events[0];
  if (start.type !== "episode_start") throw new Error();
  const { condition } = minEffortSetup({ N: 3, T: 2 });
  assert.equal(start.game, "min_effort");
  assert.equal(start.env, "min_effort");
  assert.deepEqual(start.condition, condition.fields);
  assert.equal(start.condition_id, "min_effort_N3_T2");
  assert.deepEqual(start.derived, condition.derived);
  assert.deepEqual(start.bounds, condition.derived.bounds);
  assert.equal(start.central_role, null);
  assert.equal(start.model, "mock:best_response(epsilon=0.1)");
});

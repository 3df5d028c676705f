import assert from "node:assert/strict";
import { missingTemplates } from "../../../../engine/agents/llm/prompts/registry.ts";
import { findTemplate } from "../../../../engine/agents/llm/prompts/template.ts";
import type { CallRequest } from "../../../../engine/core/environment.ts";
import { minEffort } from "../../../../engine/games/min_effort/environment.ts";
import { minEffortPrompts } from "../../../../engine/games/min_effort/prompts/mod.ts";
import { minEffortMockAgents } from "../../../../engine/games/min_effort/mock.ts";
import { play } from "./_fixtures.ts";

Deno.test("minEffortPrompts has a template for every call of the environment's contracts", () => {
  assert.deepEqual(missingTemplates(minEffort, minEffortPrompts), []);
  assert.deepEqual(minEffortPrompts.map((t) => [t.env, t.role, t.call]), [
    ["min_effort", "player", "effort_choice"],
  ]);
});

Deno.test("minEffortPrompts renders every call of a played episode from its view alone", async () => {
  const requests: CallRequest[] = [];
  const mock = minEffortMockAgents({ seed: 2 });
  await play({
    seed: 2,
    fields: { N: 3, T: 3 },
    agents: (p) => {
      const agent = mock(p);
      return {
        policy: agent.policy,
        decide: (req) => {
          requests.push(req);
          return agent.decide(req);
        },
      };
    },
  });
  assert.equal(requests.length, 9);
  for (const req of requests) {
    const template = findTemplate(minEffortPrompts, req.role, req.call);
    assert.ok(template, `${req.role}/${req.call}`);
    const [system, user] = template.render(req.view as never);
    assert.equal(system.role, "system");
    assert.ok(system.content.startsWith(`[ROLE]\nYou are ${req.agent}, one of 3 players`));
    assert.ok(user.content.includes(`Round ${req.round} of 3: choose your number`));
    assert.equal(user.content.match(/^- Round \d+:/gm)?.length ?? 0, req.round - 1);
  }
});

Deno.test("minEffortPrompts prints game A's payoff table and the player's own history", () => {
  const [system, user] = minEffortPrompts[0].render({
    you: "p02",
    round: 2,
    T: 10,
    N: 7,
    efforts: 7,
    a: 0.2,
    b: 0.1,
    c: 0.6,
    history: [{ round: 1, effort: 5, minimum: 3, payoff: 0.7000000000000001 }],
  } as never);
  assert.ok(
    system.content.endsWith(`[PAYOFF TABLE]
Your earnings in dollars for each choice and each minimum:
Your     | Minimum chosen in the group
choice   |    7     6     5     4     3     2     1
       7 | 1.30  1.10  0.90  0.70  0.50  0.30  0.10
       6 |       1.20  1.00  0.80  0.60  0.40  0.20
       5 |             1.10  0.90  0.70  0.50  0.30
       4 |                   1.00  0.80  0.60  0.40
       3 |                         0.90  0.70  0.50
       2 |                               0.80  0.60
       1 |                                     0.70`),
    system.content,
  );
  assert.equal(
    user.content,
    `[HISTORY]
- Round 1: you chose 5; the minimum was 3; you earned $0.70.

[YOUR CHOICE]
Round 2 of 10: choose your number for this round (a whole number
from 1 to 7).

[OUTPUT]
Reply with a single JSON object, no other text:
{"effort": <your number, an integer 1 to 7>, "reasoning": "<at most 40 words>"}
Keep reasoning short so the JSON object is complete.`,
  );
});

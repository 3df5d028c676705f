import { assertEquals } from "../../_assert.ts";
import { frailGameDescriptor } from "../../../engine/games/_frail_game.ts";
import { bankRunGame } from "../../../engine/games/bank_run/descriptor.ts";
import "../../../engine/games/registry.ts"; // every FRAIL game, as in use
import { bankRunMockPopulation } from "../../../engine/games/bank_run/mock.ts";

// Before, the FRAIL family's list of mock options was one array grown in
// place, and the option check cached its keys by that array: a FRAIL game
// built after the first mock call had its own option refused as unknown.
Deno.test("frailGameDescriptor() checks a FRAIL game built after the first mock call against its own options too", () => {
  bankRunGame.mockAgents({ seed: 1, depositors: "always_run" });
  const variant = frailGameDescriptor({
    ...bankRunGame,
    id: "bank_run_tellers",
    mockPolicies: [
      ...bankRunGame.mockPolicies,
      { role: "depositor", option: "tellers", policies: ["patient", "hasty"] },
    ],
    mockPopulation: bankRunMockPopulation,
  });
  const agent = variant.mockAgents({ seed: 1, tellers: "hasty", depositors: "always_stay" })({
    id: "dep_01",
    role: "depositor",
  });
  assertEquals(agent.policy, "mock:always_stay");
  // The other FRAIL games' options still pass for it, as one grid mock entry plays them all.
  variant.mockAgents({ seed: 1, creditors: "always_roll" });
});

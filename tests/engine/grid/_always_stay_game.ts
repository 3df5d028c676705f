// A game module for workers: replaces the bank run with a variant whose
// depositors always stay, whatever the spec says.
import { mockPopulation } from "../../../engine/agents/mock/population.ts";
import { gameDescriptor, registerGame } from "../../../engine/games/registry.ts";

const bankRun = gameDescriptor("bank_run");
registerGame({
  ...bankRun,
  mockAgents: (options) =>
    mockPopulation({ seed: options.seed as number, depositors: "always_stay" }),
}, { replace: true });

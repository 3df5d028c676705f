// A runner module for workers: replaces the FRAIL runner with one whose
// depositors always stay, whatever the spec says.
import { mockPopulation } from "../../../engine/agents/mock/population.ts";
import { episodeRunner, registerEpisodeRunner } from "../../../engine/grid/runners.ts";

const frail = episodeRunner("frail");
registerEpisodeRunner("frail", {
  ...frail,
  mockAgents: (episode) => mockPopulation({ seed: episode.seed, depositors: "always_stay" }),
});

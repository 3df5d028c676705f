// Plays minimum-effort episodes through the core, as engine/run_episode.ts does.
import type { AgentFactory } from "../../../../engine/core/agent.ts";
import type { PlayedEpisode } from "../../../../engine/core/episode.ts";
import { playAndLog } from "../../../../engine/core/episode_run.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { minEffortSetup } from "../../../../engine/games/min_effort/descriptor.ts";
import { minEffort } from "../../../../engine/games/min_effort/environment.ts";
import {
  minEffortMockAgents,
  type MinEffortMockOptions,
} from "../../../../engine/games/min_effort/mock.ts";
import type { MinEffortState } from "../../../../engine/games/min_effort/state.ts";

/** What a test plays: condition fields, seed, and mock options or a factory. */
export interface PlayOptions {
  fields?: Record<string, unknown>;
  seed?: number;
  agents?: MinEffortMockOptions | AgentFactory;
  outDir?: string;
}

/** Plays one episode with hashes and events, the mock agents seeded with the episode seed. */
export async function play(
  options: PlayOptions = {},
): Promise<{ played: PlayedEpisode<MinEffortState>; logPath?: string }> {
  const seed = options.seed ?? 1;
  const agents = typeof options.agents === "function"
    ? options.agents
    : minEffortMockAgents({ seed, ...(options.agents ?? {}) });
  return await playAndLog(minEffort, { ...minEffortSetup(options.fields ?? {}), seed, agents }, {
    run: "test",
    episode: `s${seed}`,
    outDir: options.outDir,
    clock: () => "2026-01-01T00:00:00.000Z",
    events: true,
    hashes: true,
    ndjson: false,
  });
}

/** The efforts of each round, in player order, from the round_outcome events. */
export function effortsByRound(events: readonly EngineEvent[]): number[][] {
  return events.flatMap((e) =>
    e.type === "transition" && e.kind === "round_outcome"
      ? [Object.values(e.efforts as Record<string, number>)]
      : []
  );
}

/** An agent factory whose players reply with the efforts given per round (index from 0). */
export function scripted(efforts: (round: number, index: number) => unknown): AgentFactory {
  return ({ id }) => ({
    policy: "test:scripted",
    decide: (req) => ({
      effort: efforts(req.round, Number(id.slice(1)) - 1),
      reasoning: "scripted",
    }),
  });
}

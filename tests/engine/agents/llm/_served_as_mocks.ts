// The local test double's oracle (server_test.ts, server_long_test.ts): an
// episode of a registered game played by LLM agents through the openai SDK
// against serveLocalModel() gives the state hashes and outcome of the same
// episode played by the game's mock agents of the served preset.
import { assertEquals } from "../../../_assert.ts";
import { serveLocalModel } from "../../../../engine/agents/llm/server/local_server.ts";
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import { llmPopulation } from "../../../../engine/agents/llm/llm_agent.ts";
import { playEpisode } from "../../../../engine/core/episode.ts";
import type { AgentFactory } from "../../../../engine/core/agent.ts";
import type { CallRequest } from "../../../../engine/core/environment.ts";
import type { GameDescriptor } from "../../../../engine/core/game.ts";
import { GAMES } from "../../../../engine/games/registry.ts";
import { conditionSetup } from "../../../../engine/run_episode.ts";

/** A condition to play, and the replies of some calls scripted (the rest go to the agents under test). */
export interface Scene {
  fields: Record<string, unknown>;
  script?: (req: CallRequest) => unknown;
}

// Conditions that together make every call of a game: each mechanism of a FRAIL game, a
// Stag Hunt with corrupted players (whose reports are re-justified), and the default
// condition of any other game; plus, for crowdfunding, an M3 coalition whose first member
// asks to exit in round 2 (no mock backer ever asks, so no mock meets an exit
// confirmation otherwise).
function scenesOf(game: GameDescriptor): Scene[] {
  const mechanisms = (game as { mechanisms?: readonly string[] }).mechanisms;
  if (game.id === "crowdfunding") {
    const coalition = (req: CallRequest) => {
      if (req.call !== "coalition_response") return undefined;
      const i = Number(req.agent.replace(/^\D+/, ""));
      const join = req.round === 1 && i <= 4;
      return { join, exit_request: req.round === 2 && i === 1, vote: null, reasoning: "" };
    };
    return [
      ...mechanisms!.map((mechanism) => ({ fields: { mechanism, regime: "stable" } })),
      { fields: { mechanism: "M3", regime: "stable" }, script: coalition },
    ];
  }
  if (mechanisms) {
    return mechanisms.map((mechanism) => ({ fields: { mechanism, regime: "stable" } }));
  }
  if (game.id === "staghunt") return [{ fields: { N: 5, M: 3, T: 4, F: 2, corruption: "base" } }];
  return [{ fields: {} }];
}

/** The agents of `make`, but for the calls `script` answers. */
function scripted(make: AgentFactory, script: Scene["script"]): AgentFactory {
  if (!script) return make;
  return (player) => {
    const agent = make(player);
    return { policy: agent.policy, decide: (req) => script(req) ?? agent.decide(req) };
  };
}

/**
 * Plays, for every registered game, each of its scenes under the presets
 * `presetsOf(scene, the game's scenes, its presets)` names, by LLM agents through
 * the SDK and by the preset's mock agents, and checks: the same state hashes
 * and outcome, one server answer per ok call, no correction, and every
 * contract of the game called over its scenes.
 */
export async function assertServedAsMocks(
  presetsOf: (scene: number, scenes: readonly Scene[], presets: string[]) => string[],
): Promise<void> {
  const seed = 5;
  const server = serveLocalModel({ seed });
  try {
    for (const game of GAMES) {
      const presets = Object.keys(game.mockPresets ?? {});
      assertEquals(presets, ["coordlab-defensive", "coordlab-stay", "coordlab-run"], game.id);
      const runtime = new LlmRuntime({
        models: presets.map((model) => ({
          id: model,
          baseURL: server.url,
          model,
          testDouble: true,
          concurrency: 32,
        })),
      });
      const calls = new Set<string>();
      const played = new Set<string>();
      const scenes = scenesOf(game);
      for (const [i, { fields, script }] of scenes.entries()) {
        for (const model of presetsOf(i, scenes, presets)) {
          played.add(model);
          const setup = conditionSetup(game.game, game.id, fields);
          const label = `${game.id} ${setup.condition.id} ${model}`;
          const mocks: AgentFactory = game.mockAgents({ ...game.mockPresets![model], seed });
          const options = { ...setup, seed, hashes: true };
          const before = server.stats().ok;
          const llm = await playEpisode(game.environment, {
            ...options,
            agents: scripted(
              llmPopulation({ runtime, env: game.id, models: model, sample: seed }),
              script,
            ),
          });
          const mock = await playEpisode(game.environment, {
            ...options,
            agents: scripted(mocks, script),
          });
          assertEquals(llm.hashes, mock.hashes, label);
          assertEquals(llm.outcome, mock.outcome, label);
          const answered = llm.events.filter((e) => e.type === "llm_call" && e.status === "ok");
          assertEquals(server.stats().ok - before, answered.length, label);
          assertEquals(llm.events.filter((e) => e.type === "correction").length, 0, label);
          for (const e of llm.events) if (e.type === "report") calls.add(e.call);
        }
      }
      // Every preset served, every contract called.
      assertEquals([...played].sort(), [...presets].sort(), game.id);
      assertEquals([...calls].sort(), Object.keys(game.environment.contracts).sort(), game.id);
    }
  } finally {
    await server.close();
  }
}

// Test helpers shared by the FRAIL environments' tests: scripted agents,
// episodes with a fixed clock, and tampered logs for the replay tests.
import type { Agent, AgentFactory } from "../../../engine/core/agent.ts";
import type { CallRequest, Environment } from "../../../engine/core/environment.ts";
import { type PlayedEpisode, playEpisode } from "../../../engine/core/episode.ts";
import type { EngineEvent } from "../../../engine/core/events.ts";
import { frailSetup } from "../../../engine/frail/descriptor.ts";
import type { RegimeId } from "../../../engine/frail/params.ts";
import { frailGame } from "../../../engine/frail/registry.ts";
import type { MechanismId } from "../../../engine/frail/types.ts";

/** A reply function: `undefined` falls back to the neutral reply for the call. */
export type Script = (req: CallRequest) => unknown;

/** Agents that all follow one script, falling back to `neutral` (one reply per call name). */
export function scriptedWith(
  neutral: Readonly<Record<string, unknown>>,
): (script: Script) => AgentFactory {
  return (script) => (): Agent => ({
    policy: "test:scripted",
    decide: (req) => Promise.resolve(script(req) ?? neutral[req.call]),
  });
}

/** A participant's index (dep_01 -> 1, crd_03 -> 3). */
export function idx(id: string): number {
  return Number(id.replace(/^\D+/, ""));
}

/** Options of {@linkcode playFixed}. */
export interface FixedEpisodeOptions<P> {
  /** Validated parameters. */
  params: P;
  /** The agents. */
  agents: AgentFactory;
  /** Default `"M0"`. */
  mechanism?: string;
  /** Recorded regime. Default `"stable"`. */
  regime?: string;
  /** Default 1. */
  seed?: number;
  /** Hashed checkpoints (states and hashes), as in a written log. Default `true`. */
  hashes?: boolean;
}

/** Plays one episode with a fixed clock (`"t"`), with hashed checkpoints unless told otherwise. */
export function playFixed<P, S>(
  env: Environment<P, S>,
  options: FixedEpisodeOptions<P>,
): Promise<PlayedEpisode<S>> {
  const setup = frailSetup(frailGame(env.id), {
    mechanism: (options.mechanism ?? "M0") as MechanismId,
    regime: (options.regime ?? "stable") as RegimeId,
    overrides: options.params as Record<string, unknown>,
  });
  return playEpisode(env, {
    ...setup,
    params: setup.params as P,
    seed: options.seed ?? 1,
    agents: options.agents,
    clock: () => "t",
    hashes: options.hashes ?? true,
  });
}

/** A copy of `events` in which the first decision of `round` has its outcome flipped. */
export function withFlippedDecision(events: readonly EngineEvent[], round: number): EngineEvent[] {
  const copy = structuredClone(events) as EngineEvent[];
  const target = copy.find((e) => e.type === "decision" && e.round === round)! as {
    realized: boolean;
  };
  target.realized = !target.realized;
  return copy;
}

/** Agents from `agents` that first show every request to `see` (which must not throw: collect). */
export function watched(agents: AgentFactory, see: (req: CallRequest) => void): AgentFactory {
  return (p) => {
    const agent = agents(p);
    return {
      policy: agent.policy,
      decide(req) {
        see(req);
        return agent.decide(req);
      },
    };
  };
}

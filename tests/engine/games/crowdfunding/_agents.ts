// Test helpers: scripted crowdfunding agents and a one-call episode runner.
import type { PlayedEpisode } from "../../../../engine/core/episode.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { crowdfunding } from "../../../../engine/games/crowdfunding/environment.ts";
import type { CrowdfundingParams } from "../../../../engine/games/crowdfunding/params.ts";
import type { CrowdfundingState } from "../../../../engine/games/crowdfunding/state.ts";
import type { AgentFactory } from "../../../../engine/core/agent.ts";
import { playFixed, type Script, scriptedWith } from "../../frail/_scripted.ts";

export { idx, type Script } from "../../frail/_scripted.ts";

/** What an agent says when the script has nothing to say (never acts, always launches). */
export const NEUTRAL: Record<string, unknown> = {
  pledge: { pledge_probability: 0, reasoning: "" },
  withdrawal: { withdraw_probability: 0, reasoning: "" },
  mechanism_response: { proposal_actions: [], reasoning: "" },
  coalition_response: { join: false, exit_request: false, vote: null, reasoning: "" },
  exit_confirmation: { confirm: false, reasoning: "" },
  pledge_offer: { offers: [], disclose_terms_to: "none", reasoning: "" },
  intent_solicitation: { solicit: [], disclose_aggregate: false, reasoning: "" },
  launch_decision: { launch: true, reasoning: "" },
};

/** Agents that all follow one script. */
export const scripted: (script: Script) => AgentFactory = scriptedWith(NEUTRAL);

/** Options of {@linkcode play}. */
export interface PlayOptions {
  mechanism?: string;
  params?: Partial<CrowdfundingParams>;
  seed?: number;
}

/** Plays one crowdfunding episode with scripted agents. */
export function play(
  script: Script,
  options: PlayOptions = {},
): Promise<PlayedEpisode<CrowdfundingState>> {
  return playFixed(crowdfunding, {
    params: crowdfunding.parseParams(options.params ?? {}),
    agents: scripted(script),
    mechanism: options.mechanism,
    seed: options.seed,
  });
}

/** Events of one type (and optionally kind or action). */
export function eventsOf(
  events: readonly EngineEvent[],
  type: string,
  label?: string,
): (EngineEvent & Record<string, unknown>)[] {
  return events.filter((e) =>
    e.type === type &&
    (label === undefined ||
      (e as Record<string, unknown>).kind === label ||
      (e as Record<string, unknown>).action === label)
  ) as (EngineEvent & Record<string, unknown>)[];
}

/** The state at the end of a round (from its checkpoint). */
export function stateAt(events: readonly EngineEvent[], round: number): CrowdfundingState {
  const cp = events.find((e) => e.type === "checkpoint" && e.round === round);
  if (!cp || cp.type !== "checkpoint") throw new Error(`no checkpoint for round ${round}`);
  return cp.state as CrowdfundingState;
}

// Test helpers for debt rollover: scripted agents, one-call episodes, and the accounting identity.
import type { AgentFactory } from "../../../../engine/core/agent.ts";
import type { PlayedEpisode } from "../../../../engine/core/episode.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { debtRollover } from "../../../../engine/games/debt_rollover/environment.ts";
import {
  DEBT_ROLLOVER_REGIMES,
  type DebtRolloverParams,
} from "../../../../engine/games/debt_rollover/params.ts";
import type { DebtRolloverState } from "../../../../engine/games/debt_rollover/state.ts";
import type { RegimeId } from "../../../../engine/frail/params.ts";
import { assertAlmostEquals } from "../../../_assert.ts";
import { playFixed, type Script, scriptedWith } from "../../frail/_scripted.ts";

export { idx, type Script } from "../../frail/_scripted.ts";

const NEUTRAL: Record<string, unknown> = {
  redeem_or_roll: { withdraw_probability: 0, reasoning: "" },
  mechanism_response: { proposal_actions: [], reasoning: "" },
  rollover_offer: { offers: [], disclose_terms_to: "none", reasoning: "" },
  standstill_solicitation: { solicit: [], disclose_aggregate: false, reasoning: "" },
};

/** Agents that all follow one script. */
export const scripted: (script: Script) => AgentFactory = scriptedWith(NEUTRAL);

/** A redeem-or-roll reply. */
export function redeem(probability: number): { withdraw_probability: number; reasoning: string } {
  return { withdraw_probability: probability, reasoning: "" };
}

/** Mechanism actions as a reply. */
export function act(...actions: Record<string, unknown>[]): Record<string, unknown> {
  return { proposal_actions: actions, reasoning: "" };
}

/** Options of {@linkcode play}. */
export interface PlayTestOptions {
  mechanism?: string;
  regime?: RegimeId;
  params?: Partial<DebtRolloverParams>;
  seed?: number;
  /** Hashed checkpoints. Default `true`. */
  hashes?: boolean;
}

/** Plays one debt-rollover episode with a fixed clock. */
export function play(
  agents: AgentFactory,
  options: PlayTestOptions = {},
): Promise<PlayedEpisode<DebtRolloverState>> {
  const regime = options.regime ?? "stable";
  return playFixed(debtRollover, {
    params: debtRollover.parseParams({ ...DEBT_ROLLOVER_REGIMES[regime], ...options.params }),
    agents,
    mechanism: options.mechanism,
    regime,
    seed: options.seed,
    hashes: options.hashes,
  });
}

/** Events of one type. */
export function ofType<T extends EngineEvent["type"]>(
  events: readonly EngineEvent[],
  type: T,
): Extract<EngineEvent, { type: T }>[] {
  return events.filter((e) => e.type === type) as Extract<EngineEvent, { type: T }>[];
}

/** Transition events of one kind. */
export function transitions(events: readonly EngineEvent[], kind: string) {
  return ofType(events, "transition").filter((e) => e.kind === kind);
}

/**
 * Everything the players end with equals initial cash with its interest plus
 * what the assets realized (face at maturity, or h x face when sold), and
 * every unit of face either matured or was sold.
 */
export function assertAccountingCloses(played: PlayedEpisode<DebtRolloverState>): void {
  const s = played.state;
  const p = s.params;
  const face = p.assets.reduce((a, t) => a + t.face, 0);
  let matured = 0;
  let sold = 0;
  let interest = 0;
  for (const e of played.events) {
    if (e.type !== "transition") continue;
    if (e.kind === "asset_matured") matured += e.face as number;
    if (e.kind === "redemption_paid" || e.kind === "liquidation") {
      sold += (e.face_sold as number) ?? 0;
    }
    if (e.kind === "cash_interest") interest += e.amount as number;
  }
  assertAlmostEquals(matured + sold, face, 1e-9, "every unit of face matures or is sold");
  const realized = p.initialCash + interest + matured + p.earlySalePrice * sold;
  assertAlmostEquals(played.outcome.welfare, realized, 1e-9, "accounting closes");
  const sum = Object.values(played.outcome.payoffs).reduce((a, b) => a + b, 0);
  assertAlmostEquals(sum, played.outcome.welfare, 1e-12, "welfare is the sum of payoffs");
  for (const [id, v] of Object.entries(played.outcome.payoffs)) {
    if (v < -1e-9) throw new Error(`${id} ends with a negative payoff ${v}`);
  }
}

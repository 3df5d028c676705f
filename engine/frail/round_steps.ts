/**
 * The standard pieces of a FRAIL round (Appendix F), shared by the three
 * environments: the central player's mechanism proposal, the participants'
 * mechanism responses, the steps the engine plays alone (certified delivery,
 * settlement, disclosure), the start of a round and the end of an episode.
 * The financial decision step is in `financial_decision.ts`. Each environment
 * lists its steps in order and supplies its own pieces (who is asked, with
 * which call and view, and what a report does); these builders only fix what
 * every environment does alike:
 * - the proposal step asks the central player only under M1 or M2 (M1 offers,
 *   M2 solicitation), and nobody once the episode is over;
 * - the response step asks nobody under M0 or once the episode is over (and
 *   under M0 applies nothing: there is no mechanism business to close);
 * - a round starts by clearing last round's inbox and pending reports and
 *   opening the M2 agreement for the round (signers whose exit was declared
 *   last round leave, with an `exit_effective` event);
 * - an episode ends with welfare as the sum of all payoffs.
 *
 * @module
 */
import type { Reports, Step, StepContext, Transition } from "../core/environment.ts";
import type { EpisodeOutcome, EventBody } from "../core/events.ts";
import { openAgreementRound } from "./mechanisms/agreement.ts";
import type { CoalitionState } from "./mechanisms/coalition.ts";
import type { MechanismProfile } from "./mechanisms/profile.ts";
import type { MechanismId, Message } from "./types.ts";

/** The state fields the standard steps read. */
export interface RoundState extends MechanismProfile<CoalitionState> {
  /** Mechanism of the episode. */
  mechanism: MechanismId;
  /** Current round. */
  round: number;
  /** Whether the episode is over. */
  done: boolean;
}

/** Options of {@linkcode proposalStep}. */
export interface ProposalStepOptions<S> {
  /** The central player's id, e.g. `"bank"`. */
  central: string;
  /** The central player's role, e.g. `"bank"`. */
  role: string;
  /** The central player's call under M1 (offers) and under M2 (solicitation). */
  calls: { M1: string; M2: string };
  /** The central player's authorized view. */
  view(state: S): unknown;
  /** Applies the central player's report; returns the events. */
  apply(state: S, report: Record<string, unknown>): EventBody[];
}

/**
 * The `mechanism_proposal` step: one call to the central player under M1 or
 * M2, whose report `apply` turns into offers or a solicitation.
 *
 * @example
 * ```ts
 * import { proposalStep } from "./round_steps.ts";
 * import { emptyProfile } from "./mechanisms/profile.ts";
 * const step = proposalStep({
 *   central: "bank", role: "bank", calls: { M1: "retention_offer", M2: "protection_solicitation" },
 *   view: () => ({}), apply: () => [],
 * });
 * const s = { mechanism: "M2" as const, round: 1, done: false, ...emptyProfile("M2") };
 * if (step.requests(s, 1)[0].call !== "protection_solicitation") throw new Error();
 * ```
 */
export function proposalStep<S extends RoundState>(options: ProposalStepOptions<S>): Step<S> {
  const { central, role, calls } = options;
  return {
    id: "mechanism_proposal",
    requests(s) {
      if (s.done || !(s.m1 || s.m2)) return [];
      return [{
        agent: central,
        role,
        call: s.m1 ? calls.M1 : calls.M2,
        round: s.round,
        step: "mechanism_proposal",
        view: options.view(s),
      }];
    },
    apply(s, reports) {
      const r = reports.get(central);
      return { state: s, events: r ? options.apply(s, r) : [] };
    },
  };
}

/** Options of {@linkcode responseStep}. */
export interface ResponseStepOptions<S> {
  /** The participants' role, e.g. `"depositor"`. */
  role: string;
  /** The participants asked this round, in roster order. */
  callees(state: S): readonly string[];
  /** The call they answer. Default `"mechanism_response"`. */
  call?(state: S): string;
  /** A participant's authorized view. */
  view(state: S, id: string): unknown;
  /** Applies the reports; returns the events. */
  apply(state: S, reports: Reports): EventBody[];
}

/**
 * The `mechanism_response` step: one call to each callee (none under M0).
 *
 * @example
 * ```ts
 * import { responseStep } from "./round_steps.ts";
 * import { emptyProfile } from "./mechanisms/profile.ts";
 * const step = responseStep({
 *   role: "depositor", callees: () => ["dep_01", "dep_02"], view: () => ({}), apply: () => [],
 * });
 * const s = { mechanism: "M0" as const, round: 1, done: false, ...emptyProfile("M0") };
 * if (step.requests(s, 1).length !== 0) throw new Error("nobody is asked under M0");
 * ```
 */
export function responseStep<S extends RoundState>(options: ResponseStepOptions<S>): Step<S> {
  return {
    id: "mechanism_response",
    requests(s) {
      if (s.done || s.mechanism === "M0") return [];
      const call = options.call?.(s) ?? "mechanism_response";
      return options.callees(s).map((id) => ({
        agent: id,
        role: options.role,
        call,
        round: s.round,
        step: "mechanism_response",
        view: options.view(s, id),
      }));
    },
    apply(s, reports) {
      // Under M0 nobody was asked and there is no mechanism business to close.
      return { state: s, events: s.mechanism === "M0" ? [] : options.apply(s, reports) };
    },
  };
}

/**
 * A step without agent calls: the engine applies `run` to the state.
 *
 * @example
 * ```ts
 * import { engineStep } from "./round_steps.ts";
 * const step = engineStep<{ n: number }>("delivery", (s) => {
 *   s.n += 1;
 *   return [];
 * });
 * const t = step.apply({ n: 1 }, new Map(), { round: 1, stream: () => { throw new Error(); } });
 * if (step.requests({ n: 1 }, 1).length !== 0 || t.state.n !== 2) throw new Error();
 * ```
 */
export function engineStep<S>(
  id: string,
  run: (state: S, ctx: StepContext) => EventBody[],
): Step<S> {
  return {
    id,
    requests: () => [],
    apply(s, _reports, ctx) {
      return { state: s, events: run(s, ctx) };
    },
  };
}

/**
 * Starts a round: sets the round number, empties the inbox and the pending
 * reports, and opens the M2 agreement for the round (clears last round's
 * solicitation and disclosure choice; signers whose exit was declared in an
 * earlier round leave). Returns the events.
 *
 * @example
 * ```ts
 * import { beginRound } from "./round_steps.ts";
 * import { emptyProfile } from "./mechanisms/profile.ts";
 * const s = { mechanism: "M2" as const, round: 2, done: false, inbox: {}, pending: [], ...emptyProfile("M2") };
 * s.m2!.signers.push({ id: "a", since: 1, exitDeclared: 2 });
 * const events = beginRound(s, 3);
 * if (s.round !== 3 || s.m2!.signers.length !== 0 || events[0].type !== "mechanism") throw new Error();
 * ```
 */
export function beginRound(
  state: RoundState & { inbox: Record<string, Message[]>; pending: unknown[] },
  round: number,
): EventBody[] {
  const events: EventBody[] = [];
  state.round = round;
  state.inbox = {};
  state.pending = [];
  if (state.m2) {
    for (const id of openAgreementRound(state.m2, round)) {
      events.push({ type: "mechanism", action: "exit_effective", agent: id });
    }
  }
  return events;
}

/** What an environment's final settlement decided. */
export interface FinalSettlement {
  /** Whether the central player reached successful settlement. */
  success: boolean;
  /** Every player's payoff, by agent id. */
  payoffs: Record<string, number>;
  /** The settlement's events, in order. */
  events: EventBody[];
}

/** What {@linkcode endEpisode} returns: the `finish` result of an environment. */
export type EpisodeEnd<S> = Transition<S> & {
  /** The outcome, before the runner adds the bounds and the welfare realization. */
  outcome: Omit<EpisodeOutcome, "bounds" | "welfareRealization">;
};

/**
 * Ends the episode after the final settlement: marks the state done and
 * reports the outcome, with welfare as the sum of all payoffs.
 *
 * @example
 * ```ts
 * import { endEpisode } from "./round_steps.ts";
 * const s = { round: 12, done: false, failure: null };
 * const end = endEpisode(s, { success: true, payoffs: { a: 1, bank: 0.5 }, events: [] });
 * if (!s.done || end.outcome.welfare !== 1.5 || end.outcome.failure !== null) throw new Error();
 * ```
 */
export function endEpisode<
  S extends { round: number; done: boolean; failure: { kind: string } | null },
>(
  state: S,
  settlement: FinalSettlement,
): EpisodeEnd<S> {
  const { success, payoffs, events } = settlement;
  state.done = true;
  const welfare = Object.values(payoffs).reduce((a, b) => a + b, 0);
  return {
    state,
    events,
    outcome: {
      success,
      failure: state.failure?.kind ?? null,
      rounds: state.round,
      payoffs,
      welfare,
    },
  };
}

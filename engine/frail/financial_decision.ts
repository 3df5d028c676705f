/**
 * A participant's financial decision (Appendix F steps 3 and 4), shared by the
 * FRAIL environments: the participant reports a probability (0-100) of acting
 * (withdrawing, redeeming, pledging); a binding mechanism commitment overrides
 * a positive probability of a bound action to 0, with an `override` event
 * (the report itself is kept as sent); at settlement the action is realized
 * when a uniform draw from the participant's own stream, named after the
 * action, falls below the probability.
 *
 * @module
 */
import { type Contract, defineContract } from "../core/contract.ts";
import type { Step, StepContext } from "../core/environment.ts";
import type { EventBody } from "../core/events.ts";
import { firstUniform } from "../core/rng.ts";
import { isCommittedUnder } from "./mechanisms/profile.ts";
import type { RoundState } from "./round_steps.ts";

/**
 * A financial call's contract: `{ <field>: 0-100, reasoning }`.
 *
 * @example
 * ```ts
 * import { probabilityContract } from "./financial_decision.ts";
 * const c = probabilityContract("withdrawal", "withdraw_probability");
 * if (c.parse('{"withdraw_probability": "35%"}').value.withdraw_probability !== 35) throw new Error();
 * ```
 */
export function probabilityContract<F extends string>(
  call: string,
  field: F,
): Contract<Record<F, number> & { reasoning: string }> {
  return defineContract(call, {
    [field]: { kind: "probability" },
    reasoning: { kind: "text" },
  });
}

/** One financial report, as the financial step reads it. */
export interface FinancialDecision<C extends string = string> {
  /** Participant id. */
  agent: string;
  /** The call answered. */
  call: C;
  /** Probability used, 0-100, after any override. */
  reported: number;
  /** Probability reported, before any override. */
  original: number;
  /** Whether the participant was committed when reporting. */
  committed: boolean;
}

/**
 * A financial decision awaiting settlement, without its call: what the bank
 * run and debt rollover keep, where every participant answers the same call.
 */
export type PendingDecision = Omit<FinancialDecision, "call">;

/**
 * A decision without its call: the pending entry of an environment whose
 * participants all answer the same financial call.
 *
 * @example
 * ```ts
 * import { withoutCall } from "./financial_decision.ts";
 * const d = withoutCall({ agent: "a", call: "withdrawal", reported: 0, original: 40, committed: true });
 * if ("call" in d || d.original !== 40) throw new Error();
 * ```
 */
export function withoutCall(decision: FinancialDecision): PendingDecision {
  const { agent, reported, original, committed } = decision;
  return { agent, reported, original, committed };
}

/** Options of {@linkcode financialStep}. */
export interface FinancialStepOptions<S, C extends string, P> {
  /** The participants' role, e.g. `"depositor"`. */
  role: string;
  /** The participants asked this round, in roster order. */
  callees(state: S): readonly string[];
  /** The call a participant answers. */
  call(state: S, id: string): C;
  /** A participant's authorized view. */
  view(state: S, id: string): unknown;
  /** The report field holding the probability, by call. Default `"withdraw_probability"`. */
  field?(call: C): string;
  /** Whether a commitment binds the action of this call (forcing 0). Default: every call. */
  binds?(call: C): boolean;
  /** Why an override happened, logged with it. */
  overrideReason: string;
  /** The entry the state keeps in `pending` for settlement. */
  pending(decision: FinancialDecision<C>): P;
}

/**
 * The `financial` step: one call to each callee; the reports become the
 * state's `pending` decisions, a committed participant's bound probability
 * overridden to 0.
 *
 * @example
 * ```ts
 * import { type FinancialDecision, financialStep } from "./financial_decision.ts";
 * import { emptyProfile } from "./mechanisms/profile.ts";
 * const s = { mechanism: "M3" as const, round: 1, done: false, pending: [] as FinancialDecision[], ...emptyProfile("M3") };
 * const step = financialStep<typeof s, string, FinancialDecision>({
 *   role: "depositor", callees: () => ["a"], call: () => "withdrawal", view: () => ({}),
 *   overrideReason: "committed", pending: (d) => d,
 * });
 * s.m3!.members.push({ id: "a", since: 1, amount: 1 });
 * const t = step.apply(s, new Map([["a", { withdraw_probability: 80 }]]), { round: 1, stream: () => { throw new Error(); } });
 * if (t.events[0].type !== "override" || s.pending[0].reported !== 0 || s.pending[0].original !== 80) throw new Error();
 * ```
 */
export function financialStep<S extends RoundState & { pending: P[] }, C extends string, P>(
  options: FinancialStepOptions<S, C, P>,
): Step<S> {
  return {
    id: "financial",
    requests(s) {
      return options.callees(s).map((id) => ({
        agent: id,
        role: options.role,
        call: options.call(s, id),
        round: s.round,
        step: "financial",
        view: options.view(s, id),
      }));
    },
    apply(s, reports) {
      const events: EventBody[] = [];
      s.pending = [];
      for (const agent of options.callees(s)) {
        const r = reports.get(agent);
        if (!r) continue;
        const call = options.call(s, agent);
        const field = options.field?.(call) ?? "withdraw_probability";
        const original = r[field] as number;
        const committed = isCommittedUnder(s, agent, s.round);
        let reported = original;
        if ((options.binds?.(call) ?? true) && committed && original > 0) {
          reported = 0;
          events.push({
            type: "override",
            agent,
            call,
            field,
            from: original,
            to: 0,
            reason: options.overrideReason,
          });
        }
        s.pending.push(options.pending({ agent, call, reported, original, committed }));
      }
      return { state: s, events };
    },
  };
}

/** Options of {@linkcode drawDecision}. */
export interface DrawOptions {
  /** The call that was answered, e.g. `"withdrawal"`. */
  call: string;
  /** The action drawn, e.g. `"withdraw"`; also the purpose of the participant's stream. */
  action: string;
  /** What happens otherwise, e.g. `"stay"`. */
  alternative: string;
  /** The amount at stake (logged). */
  amount: number;
}

/** The `decision` event of a drawn financial decision. */
export type DecisionEvent = Extract<EventBody, { type: "decision" }>;

/**
 * Draws whether a pending decision is realized: a uniform draw from the
 * stream (participant, action) below `reported / 100`. Returns the `decision`
 * event, whose `realized` says the outcome.
 *
 * @example
 * ```ts
 * import { drawDecision } from "./financial_decision.ts";
 * import { openStream } from "../core/rng.ts";
 * const ctx = { round: 1, stream: (a: string, p: string) => openStream({ seed: 1, round: 1, agent: a, purpose: p }) };
 * const e = drawDecision(ctx, { agent: "dep_01", reported: 100, committed: false },
 *   { call: "withdrawal", action: "withdraw", alternative: "stay", amount: 1 });
 * if (!e.realized || e.probability !== 1) throw new Error();
 * ```
 */
export function drawDecision(
  ctx: StepContext,
  decision: { agent: string; reported: number; committed: boolean },
  options: DrawOptions,
): DecisionEvent {
  const probability = decision.reported / 100;
  const draw = firstUniform(ctx.stream, decision.agent, options.action);
  return {
    type: "decision",
    agent: decision.agent,
    call: options.call,
    action: options.action,
    alternative: options.alternative,
    reported: decision.reported,
    probability,
    draw,
    realized: draw < probability,
    committed: decision.committed,
    amount: options.amount,
  };
}

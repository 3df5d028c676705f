/**
 * Reward-crowdfunding state: each backer's idle bank balance and pledge, the
 * founder's balance, the campaign's fate, a ledger that must close, and the
 * mechanism profile. Plain JSON data, so it hashes and checkpoints as is.
 *
 * @module
 */
import type { FinancialDecision } from "../../frail/financial_decision.ts";
import { type CoalitionState, emptyCoalition } from "../../frail/mechanisms/coalition.ts";
import type { InRoundExit } from "../../frail/mechanisms/in_round_exit.ts";
import type { DisclosureBallot } from "../../frail/mechanisms/majority_disclosure.ts";
import { emptyProfile, type MechanismProfile } from "../../frail/mechanisms/profile.ts";
import { type MechanismId, type Message, participantIds } from "../../frail/types.ts";
import type { CrowdfundingParams } from "./params.ts";

/** A backer's financial call: `pledge` while unpledged, `withdrawal` while pledged. */
export type BackerCall = "pledge" | "withdrawal";

/** One of a backer's past financial decisions. */
export interface BackerDecision {
  /** Round of the decision. */
  round: number;
  /** `pledge` (while unpledged) or `withdrawal` (while pledged). */
  call: BackerCall;
  /** Probability reported, 0-100, before any override. */
  reported: number;
  /** Whether the sampled action was to act (pledge or withdraw). */
  realized: boolean;
  /** Face actually pledged or withdrawn. */
  processed: number;
}

/** One backer's account. */
export interface Backer {
  /** Id, `bkr_01` ... */
  id: string;
  /** Idle bank balance (earns the risk-free rate). */
  bank: number;
  /** Face pledged into the pool (earns nothing). */
  pledged: number;
  /** Own past decisions (shown back to the backer). */
  history: BackerDecision[];
}

/** The public (disclosed) snapshot as of the end of a round. */
export interface CrowdfundingDisclosure {
  /** Pool P (pledged face); at launch, the pool that launched. */
  pool: number;
  /** Backers whose pledge was processed this round (any channel). */
  newPledges: number;
  /** Backers whose withdrawal was processed (in whole or in part) this round. */
  withdrawals: number;
  /** Face withdrawn this round. */
  withdrawnFace: number;
  /** Whether the campaign still takes decisions. */
  open: boolean;
  /** Whether the project launched. */
  launched: boolean;
  /** Outstanding M1 bonuses (aggregate; 0 without M1). */
  outstandingBonuses: number;
}

/** Money in and out of the closed system, for the accounting identity. */
export interface CrowdfundingLedger {
  /** Starting bank balances. */
  initial: number;
  /** Interest credited (to backers and the founder), including the closed-form tail. */
  interest: number;
  /** Pool consumed by the project at launch. */
  projectIn: number;
  /** Rewards and margins the project paid. */
  projectOut: number;
}

/**
 * The backer coalition (M3): the shared coalition, this round's in-round exits
 * and this round's disclosure ballots (by member).
 */
export type BackerCoalition = CoalitionState & {
  /** Exits requested this round, with their confirmation hands. */
  exits: InRoundExit[];
  /** This round's disclosure ballots, by member. */
  ballots: Record<string, DisclosureBallot>;
};

/**
 * The crowdfunding state; its mechanism fields `m1`-`m3` are the shared
 * {@linkcode MechanismProfile} with the {@linkcode BackerCoalition} as M3.
 */
export interface CrowdfundingState extends MechanismProfile<BackerCoalition> {
  /** Parameters of the episode. */
  params: CrowdfundingParams;
  /** Mechanism. */
  mechanism: MechanismId;
  /** Current round (0 before round 1). */
  round: number;
  /** Accounts. */
  backers: Backer[];
  /** The founder's bank balance (margin less bonuses, once paid). */
  founder: { bank: number };
  /** This round's financial reports, between the financial step and settlement. */
  pending: FinancialDecision<BackerCall>[];
  /** Backers who pledged this round (through a mechanism or a pledge call). */
  pledgedThisRound: string[];
  /** Face withdrawn this round, by backer. */
  withdrawnThisRound: Record<string, number>;
  /** The launch, once it happened: round, pool and each backer's launched face. */
  launch: { round: number; pool: number; shares: Record<string, number> } | null;
  /** Failure, if any. */
  failure: { kind: "no_launch" | "over_promise"; round: number } | null;
  /** Whether the episode is over. */
  done: boolean;
  /** Snapshot disclosed at the end of the last round (what agents see this round). */
  disclosed: CrowdfundingDisclosure;
  /** Certified messages delivered this round, by recipient. */
  inbox: Record<string, Message[]>;
  /** Money flows, for {@linkcode accountingGap}. */
  ledger: CrowdfundingLedger;
}

/**
 * The founder's id.
 *
 * @example
 * ```ts
 * import { FOUNDER_ID } from "./state.ts";
 * if (FOUNDER_ID !== "founder") throw new Error();
 * ```
 */
export const FOUNDER_ID = "founder";

/**
 * Amounts below this are treated as zero (float dust).
 *
 * @example
 * ```ts
 * import { EPS } from "./state.ts";
 * if (!(EPS > 0 && EPS < 1e-6)) throw new Error();
 * ```
 */
export const EPS = 1e-9;

/**
 * The initial state: every backer holds one unit pledge in the bank, the
 * pool is empty, the founder holds nothing.
 *
 * @example
 * ```ts
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M0");
 * if (s.backers.length !== 15 || s.backers[0].bank !== 1 || s.disclosed.pool !== 0) throw new Error();
 * ```
 */
export function initialCrowdfundingState(
  params: CrowdfundingParams,
  mechanism: MechanismId,
): CrowdfundingState {
  const backers = participantIds("bkr", params.backers).map((id) => ({
    id,
    bank: params.unitPledge,
    pledged: 0,
    history: [],
  }));
  return {
    params,
    mechanism,
    round: 0,
    backers,
    founder: { bank: 0 },
    pending: [],
    pledgedThisRound: [],
    withdrawnThisRound: {},
    launch: null,
    failure: null,
    done: false,
    disclosed: {
      pool: 0,
      newPledges: 0,
      withdrawals: 0,
      withdrawnFace: 0,
      open: true,
      launched: false,
      outstandingBonuses: 0,
    },
    inbox: {},
    ledger: {
      initial: params.backers * params.unitPledge,
      interest: 0,
      projectIn: 0,
      projectOut: 0,
    },
    ...emptyProfile(mechanism),
    m3: mechanism === "M3" ? { ...emptyCoalition(), exits: [], ballots: {} } : null,
  };
}

/**
 * The pool P: face currently pledged.
 *
 * @example
 * ```ts
 * import { pool } from "./state.ts";
 * if (pool({ backers: [{ pledged: 1 }, { pledged: 0.25 }] } as never) !== 1.25) throw new Error();
 * ```
 */
export function pool(state: CrowdfundingState): number {
  return state.backers.reduce((s, b) => s + b.pledged, 0);
}

/**
 * Whether a backer has a pledge in the pool.
 *
 * @example
 * ```ts
 * import { isPledged } from "./state.ts";
 * if (isPledged({ pledged: 0 } as never)) throw new Error();
 * ```
 */
export function isPledged(b: { pledged: number }): boolean {
  return b.pledged > EPS;
}

/**
 * Moves one unit pledge from a backer's bank balance into the pool (a backer
 * already pledged is left as is). Returns the face moved.
 *
 * @example
 * ```ts
 * import { initialCrowdfundingState, pledgeUnit } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M3");
 * if (pledgeUnit(s, s.backers[0]) !== 1 || pledgeUnit(s, s.backers[0]) !== 0) throw new Error();
 * ```
 */
export function pledgeUnit(state: CrowdfundingState, b: Backer): number {
  if (isPledged(b)) return 0;
  const face = Math.min(state.params.unitPledge, b.bank);
  b.bank -= face;
  if (b.bank < EPS) b.bank = 0;
  b.pledged = face;
  if (!state.pledgedThisRound.includes(b.id)) state.pledgedThisRound.push(b.id);
  return face;
}

/**
 * How far the books are from closing: money held (bank balances, pledges and
 * the founder's balance) minus money that entered (starting balances, interest,
 * project payouts less the pool the project consumed). Zero up to float dust
 * in every reachable state.
 *
 * @example
 * ```ts
 * import { accountingGap, initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * if (accountingGap(initialCrowdfundingState(parseCrowdfundingParams({}), "M0")) !== 0) throw new Error();
 * ```
 */
export function accountingGap(state: CrowdfundingState): number {
  const held = state.backers.reduce((s, b) => s + b.bank + b.pledged, 0) + state.founder.bank;
  const l = state.ledger;
  return held - (l.initial + l.interest - l.projectIn + l.projectOut);
}

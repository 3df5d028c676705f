/**
 * Debt-rollover state: the borrower's balance sheet (cash and the asset
 * tranches still held), the creditors' claims and decisions, and the
 * mechanism profile. Plain JSON data, so it hashes and checkpoints as is.
 *
 * A claim is "due" in every round from its wave's maturity until it is
 * redeemed: a rolled claim is due again the next round.
 *
 * @module
 */
import type { PendingDecision } from "../../frail/financial_decision.ts";
import type { HeldTranche } from "./balance_sheet.ts";
import { emptyProfile, type MechanismProfile } from "../../frail/mechanisms/profile.ts";
import { type MechanismId, type Message, participantIds } from "../../frail/types.ts";
import { type DebtRolloverParams, waveAssignment } from "./params.ts";

/**
 * What became of a due creditor's decision in a round: paid (`redeemed`),
 * rolled by choice (`rolled`), rolled for lack of capacity (`deferred`),
 * rolled by a commitment (`suspended`), or a request left unpaid by a default (`unpaid`).
 */
export type RolloverOutcome = "redeemed" | "rolled" | "deferred" | "suspended" | "unpaid";

/** One creditor's claim. */
export interface Creditor {
  /** Id, `crd_01` ... */
  id: string;
  /** Round the claim first matures (its wave). */
  wave: number;
  /** Claim as of the last settlement (face before round 1). */
  claim: number;
  /** Whether the claim is still outstanding (not redeemed). */
  outstanding: boolean;
  /** Amount paid on redemption (0 while outstanding). */
  redeemed: number;
  /** Round of the redemption, or `null`. */
  redeemedRound: number | null;
  /** Own past decisions (shown back to the creditor). */
  history: { round: number; reported: number; realized: boolean; outcome: RolloverOutcome }[];
}

/** What the last settlement did (counts of due creditors, and amounts). */
export interface RoundActivity {
  /** Creditors due. */
  due: number;
  /** Uncommitted due creditors who chose to roll. */
  rolled: number;
  /** Claims redeemed and paid. */
  redeemed: number;
  /** Paid on redemptions. */
  paid: number;
  /** Redemption requests beyond capacity, rolled one round. */
  deferred: number;
  /** Due creditors bound by a commitment (their claims roll). */
  suspended: number;
  /** Asset face sold early to pay redemptions. */
  faceSold: number;
}

/** The public (disclosed) snapshot as of the end of a round. */
export interface DebtRolloverDisclosure {
  /** Cash. */
  cash: number;
  /** Tranches still held (face > 0), nearest maturity first. */
  assets: { round: number; face: number }[];
  /** Claims outstanding. */
  claimsOutstanding: number;
  /** Last round's activity. */
  last: RoundActivity;
  /** Outstanding M1 premiums in aggregate (0 without M1). */
  outstandingPremiums: number;
}

/** The debt-rollover state. */
export interface DebtRolloverState extends MechanismProfile {
  /** Parameters of the episode. */
  params: DebtRolloverParams;
  /** Mechanism. */
  mechanism: MechanismId;
  /** Current round (0 before round 1). */
  round: number;
  /** Cash. */
  cash: number;
  /** Tranches, nearest maturity first, with the face still held. */
  tranches: HeldTranche[];
  /** Claims. */
  creditors: Creditor[];
  /** This round's reports, between the financial step and settlement. */
  pending: PendingDecision[];
  /** Running totals for the accounting identity. */
  totals: {
    /** Interest earned on cash. */
    interest: number;
    /** Face that matured into cash. */
    matured: number;
    /** Face sold early (redemption sales and default liquidation). */
    faceSold: number;
    /** Cash raised by those sales. */
    saleProceeds: number;
    /** Paid on redemptions. */
    redemptionsPaid: number;
  };
  /** What the last settlement did. */
  last: RoundActivity;
  /** Face of the claims redeemed since round 1. */
  cumulativeRedeemed: number;
  /** Snapshot disclosed at the end of the last round (what agents see this round). */
  disclosed: DebtRolloverDisclosure;
  /** Failure, if any. */
  failure: { kind: "liquidity" | "insolvency"; round: number } | null;
  /** Whether the episode is over. */
  done: boolean;
  /** Certified messages delivered this round, by recipient. */
  inbox: Record<string, Message[]>;
}

/**
 * The borrower's id.
 *
 * @example
 * ```ts
 * import { BORROWER_ID } from "./state.ts";
 * if (BORROWER_ID !== "borrower") throw new Error();
 * ```
 */
export const BORROWER_ID = "borrower";

/**
 * Activity of a round in which nothing happened.
 *
 * @example
 * ```ts
 * import { quietRound } from "./state.ts";
 * if (quietRound().redeemed !== 0) throw new Error();
 * ```
 */
export function quietRound(): RoundActivity {
  return { due: 0, rolled: 0, redeemed: 0, paid: 0, deferred: 0, suspended: 0, faceSold: 0 };
}

/**
 * The initial state, with the round-zero disclosure.
 *
 * @example
 * ```ts
 * import { initialDebtRolloverState } from "./state.ts";
 * import { parseDebtRolloverParams } from "./params.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M0");
 * if (s.cash !== 0.2 || s.creditors.length !== 8 || s.creditors[2].wave !== 3) throw new Error();
 * ```
 */
export function initialDebtRolloverState(
  params: DebtRolloverParams,
  mechanism: MechanismId,
): DebtRolloverState {
  const waves = waveAssignment(params);
  const tranches = [...params.assets].sort((a, b) => a.round - b.round).map((a) => ({ ...a }));
  const s: DebtRolloverState = {
    params,
    mechanism,
    round: 0,
    cash: params.initialCash,
    tranches,
    creditors: participantIds("crd", params.creditors).map((id, i) => ({
      id,
      wave: waves[i],
      claim: params.faceValue,
      outstanding: true,
      redeemed: 0,
      redeemedRound: null,
      history: [],
    })),
    pending: [],
    totals: { interest: 0, matured: 0, faceSold: 0, saleProceeds: 0, redemptionsPaid: 0 },
    last: quietRound(),
    cumulativeRedeemed: 0,
    disclosed: {
      cash: params.initialCash,
      assets: tranches.map((t) => ({ ...t })),
      claimsOutstanding: params.creditors,
      last: quietRound(),
      outstandingPremiums: 0,
    },
    failure: null,
    done: false,
    inbox: {},
    ...emptyProfile(mechanism),
  };
  return s;
}

/**
 * Whether a creditor still holds a claim and the episode runs.
 *
 * @example
 * ```ts
 * import { isActive } from "./state.ts";
 * if (isActive({ done: false } as never, { outstanding: false } as never)) throw new Error();
 * ```
 */
export function isActive(state: DebtRolloverState, c: Creditor): boolean {
  return !state.done && c.outstanding;
}

/**
 * Whether a creditor's claim is due in the current round (matured and outstanding).
 *
 * @example
 * ```ts
 * import { initialDebtRolloverState, isDue } from "./state.ts";
 * import { parseDebtRolloverParams } from "./params.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M0");
 * s.round = 1;
 * if (!isDue(s, s.creditors[0]) || isDue(s, s.creditors[2])) throw new Error();
 * ```
 */
export function isDue(state: DebtRolloverState, c: Creditor): boolean {
  return isActive(state, c) && state.round >= c.wave;
}

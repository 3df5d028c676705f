/**
 * Bank-run state: the authoritative balance sheet, the depositors' accounts
 * and the mechanism profile. Plain JSON data, so it hashes and checkpoints as is.
 *
 * @module
 */
import type { Stream } from "../../core/rng.ts";
import type { PendingDecision } from "../../frail/financial_decision.ts";
import { emptyProfile, type MechanismProfile } from "../../frail/mechanisms/profile.ts";
import { type MechanismId, type Message, participantIds } from "../../frail/types.ts";
import type { BankRunParams } from "./params.ts";

/** One depositor's account. */
export interface Depositor {
  /** Id, `dep_01` ... */
  id: string;
  /** Deposit at the start. */
  initial: number;
  /** Deposit still held at the bank. */
  balance: number;
  /** Total paid out on withdrawals. */
  withdrawn: number;
  /** Own past decisions (shown back to the depositor). */
  history: { round: number; reported: number; realized: boolean; processed: number }[];
}

/** The public (disclosed) snapshot as of the end of a round. */
export interface BankRunDisclosure {
  /** Liquid reserves. */
  cash: number;
  /** Long-term assets (units). */
  assets: number;
  /** Deposits still at the bank. */
  depositsRemaining: number;
  /** Share of the deposits at the start of the round that were paid out in it. */
  fractionRedeemed: number;
  /** Outstanding M1 compensation (aggregate; 0 without M1). */
  outstandingCompensation: number;
}

/** The bank-run state; its mechanism fields `m1`-`m3` are the shared {@linkcode MechanismProfile}. */
export interface BankRunState extends MechanismProfile {
  /** Parameters of the episode. */
  params: BankRunParams;
  /** Mechanism. */
  mechanism: MechanismId;
  /** Current round (0 before round 1). */
  round: number;
  /** Cash. */
  cash: number;
  /** Long-term assets still held (units). */
  assets: number;
  /** Asset units sold early so far (including a failure liquidation). */
  assetsSold: number;
  /** Accounts. */
  depositors: Depositor[];
  /** This round's reports, between the financial step and settlement. */
  pending: PendingDecision[];
  /** Sum of withdrawals paid since round 1. */
  cumulativeWithdrawn: number;
  /** What the last settlement did. */
  last: {
    requested: number;
    processed: number;
    expired: number;
    sold: number;
    depositsAtStart: number;
  };
  /** Snapshot disclosed at the end of the last round (what agents see this round). */
  disclosed: BankRunDisclosure;
  /** Failure, if any. */
  failure: { kind: "liquidity" | "insolvency"; round: number } | null;
  /** Whether the episode is over. */
  done: boolean;
  /** Certified messages delivered this round, by recipient. */
  inbox: Record<string, Message[]>;
}

/**
 * The bank's id.
 *
 * @example
 * ```ts
 * import { BANK_ID } from "./state.ts";
 * if (BANK_ID !== "bank") throw new Error();
 * ```
 */
export const BANK_ID = "bank";

/**
 * Splits total deposits: equal units, or a seeded heterogeneous split in
 * thousandths that sums exactly to the total (each share drawn uniform on
 * [0.5, 1.5) and normalised).
 *
 * @example
 * ```ts
 * import { splitDeposits } from "./state.ts";
 * import { openStream } from "../../core/rng.ts";
 * const s = openStream({ seed: 3, round: 0, agent: "engine", purpose: "deposit_split" });
 * const d = splitDeposits(15, 15, "heterogeneous", s);
 * if (Math.round(d.reduce((a, b) => a + b, 0) * 1000) !== 15000) throw new Error();
 * ```
 */
export function splitDeposits(
  n: number,
  total: number,
  split: "equal" | "heterogeneous",
  stream: Stream,
): number[] {
  if (split === "equal") {
    const equal: number[] = [];
    for (let i = 0; i < Math.floor(n); i++) equal.push(total / n);
    return equal;
  }
  const weights = Array.from({ length: n }, () => 0.5 + stream.uniform());
  const sum = weights.reduce((a, b) => a + b, 0);
  const milli = Math.round(total * 1000);
  const units = weights.map((w) => Math.max(1, Math.floor((w / sum) * milli)));
  units[n - 1] += milli - units.reduce((a, b) => a + b, 0);
  return units.map((u) => u / 1000);
}

/**
 * The initial state.
 *
 * @example
 * ```ts
 * import { initialBankRunState } from "./state.ts";
 * import { parseBankRunParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M0",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * if (s.cash !== 1.125 || s.depositors.length !== 15) throw new Error();
 * ```
 */
export function initialBankRunState(
  params: BankRunParams,
  mechanism: MechanismId,
  splitStream: Stream,
): BankRunState {
  const amounts = splitDeposits(
    params.depositors,
    params.totalDeposits,
    params.depositSplit,
    splitStream,
  );
  const depositors = participantIds("dep", params.depositors).map((id, i) => ({
    id,
    initial: amounts[i],
    balance: amounts[i],
    withdrawn: 0,
    history: [],
  }));
  return {
    params,
    mechanism,
    round: 0,
    cash: params.initialCash,
    assets: params.longTermAssets,
    assetsSold: 0,
    depositors,
    pending: [],
    cumulativeWithdrawn: 0,
    last: {
      requested: 0,
      processed: 0,
      expired: 0,
      sold: 0,
      depositsAtStart: params.totalDeposits,
    },
    disclosed: {
      cash: params.initialCash,
      assets: params.longTermAssets,
      depositsRemaining: params.totalDeposits,
      fractionRedeemed: 0,
      outstandingCompensation: 0,
    },
    failure: null,
    done: false,
    inbox: {},
    ...emptyProfile(mechanism),
  };
}

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
 * Whether a depositor still has money at the bank and the episode runs.
 *
 * @example
 * ```ts
 * import { isActive } from "./state.ts";
 * if (isActive({ done: false } as never, { balance: 0 } as never)) throw new Error();
 * ```
 */
export function isActive(state: BankRunState, d: Depositor): boolean {
  return !state.done && d.balance > EPS;
}

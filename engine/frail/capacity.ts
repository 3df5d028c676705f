/**
 * The per-round processing capacity of FRAIL Table 4, shared by the three
 * environments: a round's requests are taken one by one in their seeded order
 * and each is granted what the capacity rule allows.
 *
 * - `"expire"` (the default, the paper's reading): a request that would take
 *   the round's processed total above the capacity is not processed at all.
 *   Table 4: bank run "excess requests expire" (the deposit stays), debt
 *   rollover "excess requests roll one round", crowdfunding "excess requests
 *   stay pledged". A later, smaller request that still fits is processed.
 * - `"partial"` (a documented alternative, not the paper's): capacity is a
 *   volume; the request that crosses it is granted what is left and the rest
 *   of it is not processed, like every later request.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";

/** How a request that does not fit the round's remaining capacity is treated. */
export type CapacityRule = "expire" | "partial";

/**
 * Zod schema of {@linkcode CapacityRule}, defaulting to the paper's `"expire"`.
 *
 * @example
 * ```ts
 * import { CapacityRuleSchema } from "./capacity.ts";
 * if (CapacityRuleSchema.parse(undefined) !== "expire") throw new Error();
 * if (CapacityRuleSchema.safeParse("volume").success) throw new Error();
 * ```
 */
export const CapacityRuleSchema: z.ZodType<CapacityRule, CapacityRule | undefined> = z
  .enum(["expire", "partial"]).default("expire");

/** Options of {@linkcode roundCapacity}. */
export interface RoundCapacityOptions {
  /** What can be processed in the round, in the requests' unit (face or deposits). */
  capacity: number;
  /** The rule for a request that does not fit. */
  rule: CapacityRule;
}

/** One round's capacity, consumed request by request. */
export interface RoundCapacity {
  /**
   * Grants what the rule allows of a request for `amount` and counts it as
   * processed: `amount`, 0 (the request is not processed), or under
   * `"partial"` what is left of the capacity.
   */
  take(amount: number): number;
  /** What has been granted so far this round. */
  readonly used: number;
}

/** Float dust tolerated when a request fills the capacity exactly. */
const EPS = 1e-9;

/**
 * A fresh round capacity.
 *
 * @example
 * ```ts
 * import { roundCapacity } from "./capacity.ts";
 * const expire = roundCapacity({ capacity: 3.75, rule: "expire" });
 * const got = [1, 1, 1, 1, 0.5].map((a) => expire.take(a));
 * if (got.join() !== "1,1,1,0,0.5" || expire.used !== 3.5) throw new Error(got.join());
 * const partial = roundCapacity({ capacity: 3.75, rule: "partial" });
 * if ([1, 1, 1, 1, 1].map((a) => partial.take(a)).join() !== "1,1,1,0.75,0") throw new Error();
 * ```
 */
export function roundCapacity(options: RoundCapacityOptions): RoundCapacity {
  return new Capacity(options.capacity, options.rule);
}

// A class rather than an object literal with a getter: V8 builds such a
// literal slowly, and a settlement makes one per round.
class Capacity implements RoundCapacity {
  used = 0;
  constructor(readonly capacity: number, readonly rule: CapacityRule) {}
  take(amount: number): number {
    const left = this.capacity - this.used;
    const granted = this.rule === "partial"
      ? Math.max(0, Math.min(amount, left))
      : amount <= left + EPS
      ? amount
      : 0;
    this.used += granted;
    return granted;
  }
}

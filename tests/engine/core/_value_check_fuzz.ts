// Test helper: every hand-written value check against its zod schema on a
// seeded fuzz of values (value_check_test.ts 800 values a schema,
// value_check_long_test.ts 4,000).
import { assert, assertEquals } from "../../_assert.ts";
import type { z } from "npm:zod@4.6.7";
import { openStream, type Stream } from "../../../engine/core/rng.ts";
import { checkOf, INVALID } from "../../../engine/core/value_check.ts";
import { RetentionOfferSchema } from "../../../engine/games/bank_run/contracts.ts";
import { CoalitionVoteSchema } from "../../../engine/games/crowdfunding/contracts.ts";
import {
  OfferItemSchema,
  ParticipantActionSchema,
  RecipientsSchema,
  solicitationContract,
} from "../../../engine/frail/mechanisms/contracts.ts";
import { ActionSchema, turnContract } from "../../../engine/games/staghunt/contracts.ts";

const KEYS = [
  "action",
  "proposal_id",
  "announce_to",
  "vote_id",
  "support",
  "target",
  "amount",
  "lock_until",
  "lock_rounds",
  "x",
];
const WORDS = [
  "accept",
  "decline",
  "sign",
  "exit",
  "join",
  "exit_request",
  "propose_announcement_vote",
  "vote",
  "fly",
  "all",
  "none",
  "dep_01",
  "Stag",
  "Hare",
  " stag ",
  "HARE\\n",
  "stag.",
  "\\u00a0Hare",
  "Ｓｔａｇ",
  "",
];
const NUMBERS = [0, -0, 1, 0.5, 1.5, -1, 3, 12, 2 ** 53 - 1, 2 ** 53, 1e21, 5e-324, NaN, Infinity];

function pick<T>(s: Stream, list: readonly T[]): T {
  return list[s.int(list.length)];
}

/**
 * A random value: mostly objects over the contract vocabulary (the `focus`
 * keys present more often), sometimes anything.
 */
function value(s: Stream, focus: readonly string[] = [], depth = 0): unknown {
  const u = s.uniform();
  if (u < 0.15) return pick(s, WORDS).replace("\\n", "\n").replace("\\u00a0", "\u00a0");
  if (u < 0.3) return pick(s, NUMBERS);
  if (u < 0.35) return pick(s, [true, false, null, undefined]);
  if (u < 0.5 && depth < 2) {
    return Array.from(
      { length: s.int(4) },
      () => s.uniform() < 0.7 ? pick(s, WORDS) : value(s, [], depth + 1),
    );
  }
  if (depth >= 2) return pick(s, WORDS);
  const o: Record<string, unknown> = {};
  for (const k of KEYS) {
    if (s.uniform() < (focus.includes(k) ? 0.9 : 0.35)) {
      o[k] = focus.includes(k) && s.uniform() < 0.7
        ? pick<unknown>(s, k === "target" ? WORDS : NUMBERS)
        : value(s, [], depth + 1);
    }
  }
  if (s.uniform() < 0.6) o.action = pick(s, WORDS);
  if (s.uniform() < 0.1) return Object.assign(Object.create({ proposal_id: "inherited" }), o);
  if (s.uniform() < 0.05) return Object.assign(new Date(0), o);
  return o;
}

function agrees(
  name: string,
  schema: z.ZodType,
  seed: number,
  values: number,
  focus: readonly string[] = [],
): number {
  const check = checkOf(schema);
  const s = openStream({ seed, round: 0, agent: "test", purpose: name });
  let accepted = 0;
  for (let i = 0; i < values; i++) {
    const v = value(s, focus);
    const zod = schema.safeParse(v);
    const got = check(v);
    if (!zod.success) {
      assertEquals(got, INVALID, `${name} accepted what zod rejects: ${Deno.inspect(v)}`);
      continue;
    }
    accepted++;
    assert(got !== INVALID, `${name} rejected what zod accepts: ${Deno.inspect(v)}`);
    assertEquals(got, zod.data, `${name} of ${Deno.inspect(v)}`);
    assertEquals(Object.keys(got ?? {}), Object.keys(zod.data ?? {}), `key order of ${name}`);
  }
  return accepted;
}

/**
 * Checks every hand-written value check against its zod schema on the first
 * `values` seeded values of each schema's stream (the same stream whatever
 * their number); returns how many values each schema accepted.
 */
export function agreeing(values: number): number[] {
  return [
    agrees("ParticipantAction", ParticipantActionSchema, 1, values),
    agrees("OfferItem", OfferItemSchema, 2, values, ["target", "amount", "lock_until"]),
    agrees("RetentionOffer", RetentionOfferSchema, 3, values, ["target", "amount", "lock_rounds"]),
    agrees("Recipients", RecipientsSchema, 4, values),
    agrees("CoalitionVote", CoalitionVoteSchema, 5, values),
    agrees("Action", ActionSchema, 6, values),
    agrees(
      "confidence",
      turnContract.fields.confidence.kind === "value"
        ? turnContract.fields.confidence.schema
        : ActionSchema,
      7,
      values,
    ),
    agrees(
      "solicit item",
      (solicitationContract("x").fields.solicit as { item: z.ZodType }).item,
      8,
      values,
    ),
  ];
}

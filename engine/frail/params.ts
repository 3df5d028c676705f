/**
 * Shared helpers for environment parameters: zod validation whose failures
 * become one `RangeError` sentence naming the field and what it accepts.
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";

/** Regime ids of Table 5. */
export type RegimeId = "expansion" | "stable" | "contraction";

/**
 * All regime ids, in the paper's order.
 *
 * @example
 * ```ts
 * import { REGIMES } from "./params.ts";
 * if (REGIMES.length !== 3) throw new Error();
 * ```
 */
export const REGIMES: readonly RegimeId[] = ["expansion", "stable", "contraction"];

/**
 * Parses `input` with `schema`; a failure throws a `RangeError` naming the
 * environment, the field and the problem.
 *
 * @example
 * ```ts
 * import { z } from "npm:zod@4.6.7";
 * import { parseWith } from "./params.ts";
 * const schema = z.object({ capacity: z.number().positive() }).strict();
 * try {
 *   parseWith(schema, { capacity: -1 }, "bank_run");
 *   throw new Error("should have thrown");
 * } catch (e) {
 *   if (!(e instanceof RangeError) || !e.message.includes('"capacity"')) throw e;
 * }
 * ```
 */
export function parseWith<T>(schema: z.ZodType<T>, input: unknown, env: string): T {
  const r = schema.safeParse(input ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue.path.length ? issue.path.join(".") : "(parameters)";
  const detail = issue.code === "unrecognized_keys"
    ? `unknown field(s) ${(issue as { keys: string[] }).keys.map((k) => `"${k}"`).join(", ")}`
    : issue.message;
  const got = issue.path.length ? getPath(input, issue.path) : undefined;
  throw new RangeError(
    `Invalid ${env} parameter "${
      issue.code === "unrecognized_keys" ? (issue as { keys: string[] }).keys[0] : field
    }": ${detail}` +
      (got !== undefined ? ` (got ${JSON.stringify(got)})` : ""),
  );
}

function getPath(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value as Record<PropertyKey, unknown> | undefined;
  for (const k of path) v = v?.[k] as Record<PropertyKey, unknown> | undefined;
  return v;
}

/**
 * Checks a regime id.
 *
 * @example
 * ```ts
 * import { assertRegime } from "./params.ts";
 * assertRegime("stable");
 * ```
 * @throws {RangeError} For an unknown regime, listing the allowed ids.
 */
export function assertRegime(regime: string): asserts regime is RegimeId {
  if (!(REGIMES as readonly string[]).includes(regime)) {
    throw new RangeError(
      `Unknown regime "${regime}": expected one of ${REGIMES.map((r) => `"${r}"`).join(", ")}`,
    );
  }
}

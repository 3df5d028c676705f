/**
 * Shared helpers for environment parameters: zod validation whose failures
 * become one `RangeError` sentence naming the field and what it accepts.
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";
import { unknownFieldMessage } from "../core/strict_input.ts";

/**
 * The economic regimes of Table 5, in the paper's order. This is the one
 * list of regime ids; each environment's presets are keyed by them.
 *
 * @example
 * ```ts
 * import { REGIME_INFO } from "./params.ts";
 * if (REGIME_INFO[0].label !== "Expansion") throw new Error();
 * ```
 */
export const REGIME_INFO = [
  { id: "expansion", label: "Expansion" },
  { id: "stable", label: "Stable" },
  { id: "contraction", label: "Contraction" },
] as const;

/** Regime ids of Table 5. */
export type RegimeId = typeof REGIME_INFO[number]["id"];

/**
 * All regime ids, in the paper's order.
 *
 * @example
 * ```ts
 * import { REGIMES } from "./params.ts";
 * if (REGIMES.join() !== "expansion,stable,contraction") throw new Error();
 * ```
 */
export const REGIMES: readonly [RegimeId, ...RegimeId[]] = REGIME_INFO.map((r) => r.id) as [
  RegimeId,
  ...RegimeId[],
];

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
    ? unknownFieldMessage(String(issue.keys[0]), objectKeys(schema, issue.path))
    : issue.message;
  const got = issue.path.length ? getPath(input, issue.path) : undefined;
  throw new RangeError(
    `Invalid ${env} parameter "${
      issue.code === "unrecognized_keys" ? (issue as { keys: string[] }).keys[0] : field
    }": ${detail}` +
      (got !== undefined ? ` (got ${JSON.stringify(got)})` : ""),
  );
}

/** The keys of the object schema at a path, looking through pipes, defaults and wrappers. */
function objectKeys(schema: unknown, path: readonly PropertyKey[]): string[] {
  type Def = {
    type?: string;
    shape?: Record<string, unknown>;
    in?: unknown;
    innerType?: unknown;
    element?: unknown;
  };
  const defOf = (s: unknown) => (s as { _zod?: { def?: Def } })?._zod?.def;
  let current: unknown = schema;
  let rest = [...path];
  for (let guard = 0; guard < 64; guard++) {
    const def = defOf(current);
    if (!def) return [];
    if (def.type === "object") {
      if (rest.length === 0) return Object.keys(def.shape ?? {});
      current = def.shape?.[String(rest[0])];
      rest = rest.slice(1);
    } else if (def.type === "array" && rest.length > 0) {
      current = def.element;
      rest = rest.slice(1);
    } else {
      current = def.in ?? def.innerType;
    }
  }
  return [];
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

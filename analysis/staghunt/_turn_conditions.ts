// The condition of Stag Hunt turn records (N, M, T, F, corruption,
// heterogeneity, payoffs) and the check of ../conditions.ts applied to
// them: which columns a figure groups by, and the one error when the
// records mix conditions it was not told to split.

import pl from "npm:nodejs-polars@0.25.2";
import { payoffsLabel } from "../../engine/games/staghunt/descriptor.ts";
import type { StagHuntPayoffs } from "../../engine/games/staghunt/payoffs.ts";
import { assertSingleCondition, STAGHUNT_CONDITION_KEYS } from "../conditions.ts";
import type { ModelTurn } from "./turn_records.ts";

/** A value of a group column: a key as the key columns hold it, or a model. */
export type KeyValue = string | number | null;

/** How a figure treats the condition keys. */
export interface TurnConditionOptions {
  /** Keys the figure always splits by (e.g. N, M, F for the figures by corrupted fraction). */
  groups: readonly string[];
  /** Keys it pools over by design (e.g. every setting key for Table 1). */
  pooled?: readonly string[];
  /** Keys the caller may pool over with `pool`. */
  poolable?: readonly string[];
  /** The caller's extra split. */
  by?: readonly string[];
  /** The caller's deliberate pooling (only keys in `poolable`). */
  pool?: readonly string[];
  /** Split by the speaker's model. */
  byModel?: boolean;
}

/** The value of a condition key (or `model`) of a turn; payoffs as `RS-HS-RF-HF`, null when absent. */
export function turnKey(turn: ModelTurn, key: string): KeyValue {
  const value = (turn as unknown as Record<string, unknown>)[key];
  if (value === undefined || value === null) return null;
  if (key === "payoffs" && typeof value === "object") {
    return payoffsLabel(value as StagHuntPayoffs);
  }
  return value as string | number;
}

/**
 * Checks that the records do not mix conditions the figure was not told to
 * split and returns its group columns: `model` (when split by model), then
 * every condition key the records carry that is not pooled, in key order.
 */
export function turnConditions(
  records: readonly ModelTurn[],
  fn: string,
  options: TurnConditionOptions,
): string[] {
  const { groups, pooled = [], poolable = [], by = [], pool = [], byModel = false } = options;
  const allowed = [...STAGHUNT_CONDITION_KEYS, "model"];
  for (const key of by) {
    if (!allowed.includes(key)) {
      throw new RangeError(
        `${fn}: by accepts ${allowed.map((k) => `"${k}"`).join(", ")} (got "${key}")`,
      );
    }
  }
  for (const key of pool) {
    if (!poolable.includes(key)) {
      const accepts = poolable.length === 0 ? "nothing" : poolable.map((k) => `"${k}"`).join(", ");
      throw new RangeError(`${fn}: pool accepts ${accepts} (got "${key}")`);
    }
  }
  const model = byModel || by.includes("model");
  const present = STAGHUNT_CONDITION_KEYS.filter((key) =>
    records.some((t) => turnKey(t, key) !== null)
  );
  const columns = [...(model ? ["model"] : []), ...present];
  const combos = new Map<string, Record<string, KeyValue>>();
  for (const t of records) {
    const row = Object.fromEntries(columns.map((c) => [c, turnKey(t, c)]));
    combos.set(JSON.stringify(columns.map((c) => row[c])), row);
  }
  if (combos.size === 0) return model ? ["model"] : [];
  const keys = assertSingleCondition(pl.DataFrame([...combos.values()]), fn, {
    keys: present,
    by: [...(model ? ["model"] : []), ...groups.filter((k) => present.includes(k)), ...by],
    pooled: [...pooled, ...pool],
    poolable,
    subject: "turn records",
  });
  return [...(model ? ["model"] : []), ...keys];
}

/** The values of `columns` for a turn, and their grouping key. */
export function groupOf(turn: ModelTurn, columns: readonly string[]): {
  key: string;
  values: KeyValue[];
} {
  const values = columns.map((c) => turnKey(turn, c));
  return { key: JSON.stringify(values), values };
}

/** Columns of a result frame from the group values of its rows, typed as the key columns are. */
export function keySeries(
  columns: readonly string[],
  rows: readonly { values: readonly KeyValue[] }[],
): pl.Series[] {
  return columns.map((column, i) => {
    const values = rows.map((row) => row.values[i]);
    const numeric = typeof values.find((v) => v !== null) === "number";
    return pl.Series(column, values, numeric ? pl.Int32 : pl.Utf8);
  });
}

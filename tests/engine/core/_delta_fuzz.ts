// Test helper: DeltaWriter.state() against the state delta written piece by
// piece, on seeded edits of state texts (delta_layout_test.ts 1,600 cases,
// delta_layout_long_test.ts 8,000).
import { assertEquals } from "../../_assert.ts";
import { blockHeader, DeltaWriter } from "../../../engine/core/event_layout.ts";

/**
 * The state delta as the layout defines it, piece by piece: the equal pieces
 * skipped one at a time (the writer skips runs of them in a few slice
 * comparisons, which must give the same ops).
 */
function pieceByPieceState(before: string | undefined, after: string): string {
  const whole = `"state":${after}`;
  if (before === undefined) return whole;
  // A piece is compared with its comma: the last piece, which has none, is not
  // the same as an equal text before a comma (the writer compares slices so).
  const withComma = (p: string, i: number, all: string[]) => i < all.length - 1 ? p + "," : p;
  const b = before.split(",").map(withComma);
  const a = after.split(",").map(withComma);
  const join = (list: string[]) => list.join("").replace(/,$/, "");
  const n = b.length;
  const m = a.length;
  const ops: [number, number, string][] = [];
  if (n === m) {
    let i = 0;
    while (i < n) {
      if (b[i] === a[i]) {
        i++;
        continue;
      }
      let j = i + 1;
      while (j < n && b[j] !== a[j]) j++;
      ops.push([i, j - i, join(a.slice(i, j))]);
      i = j;
    }
  } else {
    let p = 0;
    while (p < n && p < m && b[p] === a[p]) p++;
    let s = 0;
    while (s < n - p && s < m - p && b[n - 1 - s] === a[m - 1 - s]) s++;
    if (m - s - p === 0) {
      if (p > 0) p--;
      else if (s > 0) s--;
      else return whole;
    }
    ops.push([p, n - s - p, join(a.slice(p, m - s))]);
  }
  const delta = `"delta":${JSON.stringify(ops)}`;
  return delta.length < whole.length ? delta : whole;
}

/**
 * Checks DeltaWriter.state() on five states of each of the first `cases`
 * seeded cases (the same stream whatever their number); returns the states
 * checked and how many of them were written as a delta.
 */
export function fuzzStates(cases: number): { checked: number; deltas: number } {
  let x = 12345;
  const rnd = (n: number) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
  const alphabet = ["a", "b", "1", "22", "{", "}", '"x"', ":", "[]", "0.5"];
  const pieces = (k: number) => Array.from({ length: k }, () => alphabet[rnd(alphabet.length)]);
  let checked = 0;
  let deltas = 0;
  for (let t = 0; t < cases; t++) {
    const writer = new DeltaWriter(blockHeader("r", "e", "2026-12-01T00:00:00.000Z"));
    let state = pieces(rnd(300) + 1);
    let before: string | undefined;
    for (let c = 0; c < 5; c++) {
      const text = state.join(",");
      const got = writer.state(text);
      assertEquals(got, pieceByPieceState(before, text), `case ${t}, state ${c}`);
      checked++;
      if (got.startsWith('"delta"')) deltas++;
      before = text;
      const next = [...state];
      for (let e = rnd(4); e > 0; e--) {
        const at = rnd(next.length + 1);
        const op = rnd(3);
        if (op === 0 && next.length > 0) {
          next[Math.min(at, next.length - 1)] = alphabet[rnd(alphabet.length)];
        } else if (op === 1) next.splice(at, 0, ...pieces(rnd(3) + 1));
        else if (next.length > 1) next.splice(Math.min(at, next.length - 1), rnd(3) + 1);
      }
      state = next.length > 0 ? next : ["a"];
    }
  }
  return { checked, deltas };
}

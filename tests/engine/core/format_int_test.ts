// formatInt() writes what toLocaleString("en-US") writes for the integers a
// plan or an estimate prints, without loading the locale data.
import { assertEquals } from "../../_assert.ts";
import { formatInt } from "../../../engine/core/progress.ts";

Deno.test("formatInt() gives toLocaleString('en-US') of the rounded number, at every length and sign, but -0 as 0", () => {
  const values = [0, -0, 0.4, 0.5, 1, -1, 999, 1000, -1000, 999_999.5, 1e15, -(2 ** 52)];
  let x = 7;
  for (let digits = 1; digits <= 16; digits++) {
    for (let k = 0; k < 40; k++) {
      x = (x * 48271) % 2147483647;
      const n = (x / 2147483647) * 10 ** digits;
      values.push(n, -n, Math.round(n));
    }
  }
  // toLocaleString writes a rounded -0 (of -0.3, say) as "-0".
  const wrong = values.filter((n) => formatInt(n) !== (Math.round(n) || 0).toLocaleString("en-US"));
  assertEquals(wrong, []);
  assertEquals([formatInt(-0.3), formatInt(-0)], ["0", "0"]);
  assertEquals(formatInt(118_831), "118,831");
});

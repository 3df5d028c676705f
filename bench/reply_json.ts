/**
 * Benchmark of JSON extraction from model replies (`extractJsonObject`) on
 * degenerate replies: 128K `{` (26 s per reply with the old quadratic
 * extraction), 1 MB of each adversarial pattern the unit test bounds by
 * counting steps, and a plain 100 KB reply of prose around one object. Each
 * row is the median of `--repeats` runs (default 5), with the steps counted.
 *
 * Usage: `deno run bench/reply_json.ts [--repeats N]`
 *
 * @module
 */
import { extractJsonObject } from "../engine/core/reply_json.ts";
import { machine, markdownTable, median } from "./_measure.ts";

const at = Deno.args.indexOf("--repeats");
const repeats = at >= 0 ? Number(Deno.args[at + 1]) : 5;
if (!Number.isSafeInteger(repeats) || repeats < 1) {
  console.error("--repeats must be a positive integer");
  Deno.exit(2);
}

const MB = 1 << 20;
const fill = (unit: string, size: number) =>
  unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
const cases: [string, string][] = [
  ["128K `{`", "{".repeat(128 * 1024)],
  ["1 MB `{`", fill("{", MB)],
  ['1 MB `{"a":` never closed', fill('{"a":', MB)],
  ['1 MB `"{`', fill('"{', MB)],
  ['1 MB `{"\\`', fill('{"\\', MB)],
  ["1 MB `[{`", fill("[{", MB)],
  [
    "1 MB valid object nested 100K deep",
    '{"a":'.repeat(MB / 10) + "1" + "}".repeat(MB / 10),
  ],
  [
    "100 KB prose around one object",
    fill("I weigh the bank's liquidity { carefully }. ", 100 * 1024) +
    '{"withdraw_probability": 20, "reasoning": "calm"}',
  ],
];

const rows: string[][] = [];
for (const [name, text] of cases) {
  const times: number[] = [];
  const steps = { count: 0 };
  for (let i = 0; i < repeats; i++) {
    steps.count = 0;
    const t0 = performance.now();
    extractJsonObject(text, { steps });
    times.push(performance.now() - t0);
  }
  rows.push([
    name,
    text.length.toLocaleString("en"),
    (steps.count / text.length).toFixed(2),
    median(times).toFixed(1),
  ]);
}
console.log(`${machine({ cpuModel: true })}, median of ${repeats}`);
console.log(markdownTable(["reply", "characters", "steps per character", "ms"], rows, {
  alignRight: true,
}));

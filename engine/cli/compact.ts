/**
 * Compaction from the command line: a run folder's NDJSON logs (any depth, so
 * a folder of shard folders gives their union) to Parquet tables.
 *
 * ```
 * deno task compact RUN_DIR [--out DIR]
 * ```
 *
 * `--out` defaults to `<RUN_DIR>-parquet`. Exit codes: 0 done, 2 bad
 * arguments or input.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { formatTable } from "./format_table.ts";
import { compactRun } from "../grid/compact.ts";

const USAGE = "Usage: deno task compact RUN_DIR [--out DIR]";

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: Deno.args,
      options: { out: { type: "string" }, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return 0;
  }
  if (parsed.positionals.length !== 1) {
    console.error(`Expected one run folder, got ${parsed.positionals.length}\n\n${USAGE}`);
    return 2;
  }
  try {
    const r = await compactRun(parsed.positionals[0], { out: parsed.values.out });
    console.log(`${r.rows.episodes} episodes from ${r.logs} log files compacted into ${r.out}`);
    console.log(
      formatTable(["table", "rows"], Object.entries(r.rows).map(([t, n]) => [t, String(n)])),
    );
    return 0;
  } catch (err) {
    if (
      err instanceof RangeError || err instanceof SyntaxError || err instanceof Deno.errors.NotFound
    ) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
}

if (import.meta.main) Deno.exit(await main());

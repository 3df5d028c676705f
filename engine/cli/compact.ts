/**
 * Compaction from the command line: a run folder's NDJSON logs (any depth, so
 * a folder of shard folders gives their union) to Parquet tables.
 *
 * ```
 * deno task compact RUN_DIR [--out DIR] [--take-over-lock]
 * ```
 *
 * `--out` defaults to `<RUN_DIR>-parquet`. Exit codes: 0 done; 2 bad
 * arguments, input or permissions, an output another process (or host) is
 * writing, or whose lock is a link; 74 the output folder could not be
 * written (a full or failing disk): one line names the folder and the
 * error, the current set stays as it was, and the command to run again is
 * printed. `--take-over-lock` takes over an output lock that names another
 * host, once its process is known to have ended.
 *
 * Permissions: nodejs-polars is a native addon, loaded from the toolkit's
 * `node_modules` (`--allow-ffi=node_modules`), and its
 * loader reads the CPUs, network interfaces and host name to pick its
 * binary (`--allow-sys=cpus,networkInterfaces,hostname`); `deno task compact`
 * grants these, reading, and writing under `runs/`. For an output elsewhere
 * the command prints the narrow `deno run` command that grants it.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { formatTable } from "../grid/format_table.ts";
import { compactRun } from "../../analysis/load/compact.ts";
import { FolderLockedError, LockPathError } from "../grid/lock.ts";
import { FolderWriteError, isOsError } from "../grid/write_error.ts";
import { addonFolder, checkPermissions, DENO_COMMAND, quote } from "./_permissions.ts";
import { EXIT_WRITE } from "./_exit_codes.ts";

const USAGE = `Usage: ${DENO_COMMAND} task compact RUN_DIR [--out DIR] [--take-over-lock]`;
/** What nodejs-polars' loader reads to pick its native binary (see the module doc). */
const POLARS_SYS = ["cpus", "networkInterfaces", "hostname"];

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: Deno.args,
      options: {
        out: { type: "string" },
        "take-over-lock": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
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
  const dir = parsed.positionals[0];
  const out = parsed.values.out ?? `${dir.replace(/\/+$/, "")}-parquet`;
  const needs = { write: [out], net: [], env: [], sys: POLARS_SYS, ffi: addonFolder() };
  if (!checkPermissions(needs, new URL(import.meta.url), Deno.args)) return 2;
  try {
    const r = await compactRun(dir, { out, takeOverLock: parsed.values["take-over-lock"] });
    console.log(`${r.rows.episodes} episodes from ${r.logs} log files compacted into ${r.out}`);
    console.log(
      formatTable(["table", "rows"], Object.entries(r.rows).map(([t, n]) => [t, String(n)])),
    );
    return 0;
  } catch (err) {
    if (
      err instanceof FolderWriteError || (isOsError(err) && !(err instanceof Deno.errors.NotFound))
    ) {
      console.error(
        err instanceof FolderWriteError
          ? err.message
          : `Compaction into "${out}" stopped: ${err.code}, ${err.message}`,
      );
      console.error(`Run again with: deno task compact ${Deno.args.map(quote).join(" ")}`);
      return EXIT_WRITE;
    }
    if (
      err instanceof RangeError || err instanceof SyntaxError ||
      err instanceof Deno.errors.NotFound || err instanceof FolderLockedError ||
      err instanceof LockPathError
    ) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
}

if (import.meta.main) Deno.exit(await main());

/**
 * Writes the grid spec's reference (generated from its zod schemas) into
 * docs/grids.md, between its two markers; `--check` only says whether the
 * file is up to date (exit 1 when not).
 *
 * Usage: `deno task docs:spec [--check]`
 *
 * @module
 */
import { specReference, withReference } from "../grid/_spec_reference.ts";

const path = new URL("../../docs/grids.md", import.meta.url);
const text = await Deno.readTextFile(path);
const updated = withReference(text, specReference());
if (Deno.args.includes("--check")) {
  if (updated !== text) {
    console.error("docs/grids.md is out of date: run `deno task docs:spec`");
    Deno.exit(1);
  }
  console.log("docs/grids.md is up to date");
} else if (updated !== text) {
  await Deno.writeTextFile(path, updated);
  console.log("docs/grids.md: spec reference rewritten");
} else {
  console.log("docs/grids.md is up to date");
}

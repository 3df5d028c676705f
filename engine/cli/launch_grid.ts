/**
 * `deno task grid`: runs the grid command (grid.ts) with exactly the
 * permissions its arguments need, and nothing else.
 *
 * The launcher reads the spec and the models file, derives the permissions
 * (`gridNeeds` in _permissions.ts: reading, writing the output and cache
 * folders, the network to the hosts of the models the spec names, their key
 * variables, the host name), checks that every key variable is set (a
 * missing one ends here with one message naming it and its model, exit 2),
 * and runs grid.ts as a child `deno run --no-prompt <those flags> grid.ts
 * <the same arguments>`. A dry run gets reading only; with `--pilot` (which
 * plays episodes for real) it gets what a run needs, writing the temporary
 * folder (`$TMPDIR`, else `/tmp`) instead of an output folder. Arguments the launcher cannot read (a bad spec, an
 * unknown flag) are passed to the child with reading only, which reports
 * them as it always does.
 *
 * The launcher forwards SIGINT, SIGTERM and SIGHUP to the child and exits
 * with its exit code (128 + the signal's number when a signal ended it). The
 * child runs in its own process group, so a Ctrl-C in the terminal reaches it
 * once, through the launcher, not twice (`launch` in _launch.ts, shared with
 * `deno task reproduce`).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadModelConfigs, type ModelConfig } from "../agents/llm/model_config.ts";
import { readGridSpec } from "../grid/spec_file.ts";
import { launch } from "./_launch.ts";
import { gridNeeds, type Needs, usedModels } from "./_permissions.ts";

const GRID = fileURLToPath(new URL("./grid.ts", import.meta.url));

/** Reading only: what a dry run, or a child that will only report bad arguments, needs. */
const READ_ONLY: Needs = { write: [], net: [], env: [], sys: [], ffi: null };

/** The string options of grid.ts the launcher reads (the others are passed through). */
const OPTIONS = {
  spec: { type: "string" },
  out: { type: "string" },
  shard: { type: "string" },
  models: { type: "string" },
  cache: { type: "string" },
  pilot: { type: "string" },
  "dry-run": { type: "boolean" },
} as const;

/** The permissions and the models to check keys of, or `null` to pass the arguments through. */
async function derive(args: string[]): Promise<{ needs: Needs; keyed: ModelConfig[] } | null> {
  let values;
  try {
    // grid.ts's own, strict parse reports bad arguments.
    ({ values } = parseArgs({ args, options: OPTIONS, strict: false, allowPositionals: true }));
  } catch {
    return null;
  }
  const str = (v: unknown) => typeof v === "string" ? v : undefined;
  const spec = str(values.spec);
  if (!spec) return null;
  const modelsPath = str(values.models);
  let parsedSpec: unknown;
  let models: ModelConfig[];
  try {
    parsedSpec = await readGridSpec(spec);
    models = modelsPath ? await loadModelConfigs(modelsPath) : [];
    if (values["dry-run"] && str(values.pilot) === undefined) {
      return { needs: READ_ONLY, keyed: [] };
    }
    const needs = gridNeeds(parsedSpec, models, {
      out: str(values.out),
      shard: str(values.shard),
      cache: str(values.cache),
      // A pilot's temporary folder is made where Deno.makeTempDir makes it.
      pilot: values["dry-run"] ? Deno.env.get("TMPDIR") || "/tmp" : undefined,
    });
    return { needs, keyed: usedModels(parsedSpec, models) };
  } catch {
    return null;
  }
}

/** The variable a run's default number of workers follows inside a Slurm allocation. */
const WORKERS_VARIABLE = "SLURM_CPUS_PER_TASK";

async function main(): Promise<number> {
  const args = [...Deno.args];
  const derived = await derive(args);
  const needs = derived?.needs ?? READ_ONLY;
  // A run may also read SLURM_CPUS_PER_TASK, its workers' default inside a
  // Slurm allocation (optional, so not a need grid.ts checks).
  const granted = needs.write.length ? { ...needs, env: [...needs.env, WORKERS_VARIABLE] } : needs;
  return await launch(GRID, args, { needs: granted, keyed: derived?.keyed ?? [] });
}

if (import.meta.main) Deno.exit(await main());

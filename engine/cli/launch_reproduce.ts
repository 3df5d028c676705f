/**
 * `deno task reproduce`: runs the reproduce command (reproduce.ts) with
 * exactly the permissions its arguments need, and nothing else.
 *
 * The launcher reads the command line as the command does
 * (`readReproduceCommand`: the spec, the models file), derives the
 * permissions (`reproduceNeeds`: reading; Polars' addon, which the report
 * needs; for a run, writing the output and cache folders and the pack, the network
 * to the hosts of the models the spec names and their key variables),
 * checks that every key variable is set (a missing one ends here with the
 * grid's message naming it and its model, exit 2, before any request), and
 * runs reproduce.ts as a child with those (`launch` in _launch.ts: its own
 * process group, SIGINT, SIGTERM and SIGHUP forwarded, its exit code). A dry
 * run and `--from-pack` get no network and no variable. Arguments the
 * launcher cannot read (a bad spec, an unknown flag) are passed to the child
 * with Polars' addon only, which reports them as it always does.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { launch } from "./_launch.ts";
import {
  readReproduceCommand,
  type ReproduceCommand,
  reproduceModels,
  reproduceNeeds,
} from "./_reproduce_args.ts";

const REPRODUCE = fileURLToPath(new URL("./reproduce.ts", import.meta.url));

async function main(): Promise<number> {
  const args = [...Deno.args];
  let command: ReproduceCommand;
  try {
    command = await readReproduceCommand(args);
  } catch {
    // The child's own reading reports it, with its usage and exit code.
    command = { kind: "help" };
  }
  return await launch(REPRODUCE, args, {
    needs: reproduceNeeds(command),
    keyed: reproduceModels(command),
  });
}

if (import.meta.main) Deno.exit(await main());

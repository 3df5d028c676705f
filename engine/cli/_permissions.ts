// What a command needs of Deno's permissions, derived in one place: the
// launchers (`deno task grid`, launch_grid.ts; `deno task reproduce`,
// launch_reproduce.ts) grant exactly these to the command they run, and a
// command run directly checks them before it starts (when
// something is missing it prints the exact narrow `deno run` line that grants
// it, instead of failing half-way or prompting).
import { relative } from "node:path";
import type { ModelConfig } from "../agents/llm/model_config.ts";
import { expandCells } from "../grid/cells.ts";
import { defaultRunFolder } from "../grid/run_grid.ts";
import { parseShard } from "../grid/shard.ts";
import { modelsOf, parseGridSpec } from "../grid/spec.ts";

/**
 * Where nodejs-polars' native addon lies: the toolkit's `node_modules`
 * (deno.json sets `nodeModulesDir`), relative to the working folder.
 */
export function addonFolder(): string {
  const path = new URL("../../node_modules", import.meta.url).pathname;
  return relative(Deno.cwd(), path) || path;
}

/**
 * The `Deno.systemInfo` kinds nodejs-polars' loader reads to pick its binary
 * (with ffi from {@linkcode addonFolder}).
 *
 * @example
 * ```ts
 * import { POLARS_SYS } from "./_permissions.ts";
 * if (POLARS_SYS.join() !== "cpus,networkInterfaces,hostname") throw new Error();
 * ```
 */
export const POLARS_SYS: readonly string[] = ["cpus", "networkInterfaces", "hostname"];

/** Permissions a command needs beyond reading. */
export interface Needs {
  /** Folders written (and created). */
  write: string[];
  /** Hosts reached (`host` or `host:port`). */
  net: string[];
  /** Environment variables read. */
  env: string[];
  /** `Deno.systemInfo` kinds (e.g. `"hostname"`). */
  sys: string[];
  /** The folder native addons are loaded from (nodejs-polars'), or `null` for none. */
  ffi: string | null;
}

/**
 * How the documentation and the commands' messages spell the Deno command:
 * Deno from its npm package, pinned, as the README's set-up runs it, so a
 * command printed runs as written on a machine with only Node.js and npm.
 *
 * @example
 * ```ts
 * import { DENO_COMMAND } from "./_permissions.ts";
 * if (DENO_COMMAND !== "npx -y deno@2.9.6") throw new Error();
 * ```
 */
export const DENO_COMMAND = "npx -y deno@2.9.6";

/** Where a grid run writes and which models it calls: what {@linkcode gridNeeds} reads. */
export interface GridRunArgs {
  /** `--out`, or `undefined` for the default folder under `runs/`. */
  out?: string;
  /** `--shard`, as `i/n`. */
  shard?: string;
  /** `--cache`. */
  cache?: string;
  /**
   * For a dry run's pilot (`--pilot`): the folder its temporary log folder
   * is made in. The run then writes no output folder and takes no lock.
   */
  pilot?: string;
}

/** The models of `models` that the cells of `spec` name, in the file's order. */
export function usedModels(spec: unknown, models: readonly ModelConfig[]): ModelConfig[] {
  const named = new Set(expandCells(parseGridSpec(spec)).flatMap((c) => modelsOf(c.agents)));
  return models.filter((m) => named.has(m.id));
}

/**
 * What a grid run needs beyond reading: its output and cache folders, the
 * hosts (deduplicated) and key variables of the models its cells name, and
 * the host name (for the folder lock's messages).
 *
 * @throws {RangeError} For a bad spec or shard, naming the field.
 */
export function gridNeeds(
  spec: unknown,
  models: readonly ModelConfig[],
  args: GridRunArgs,
): Needs {
  const parsed = parseGridSpec(spec);
  const used = usedModels(parsed, models);
  const dir = args.pilot ??
    args.out ?? defaultRunFolder(parsed.name, args.shard ? parseShard(args.shard) : null);
  return {
    write: [...new Set([dir, ...(args.cache ? [args.cache] : [])])],
    ...modelNeeds(used),
    sys: args.pilot === undefined ? ["hostname"] : [],
    ffi: null,
  };
}

/**
 * What calling `models` needs: the network to their hosts and their key
 * variables, each once, in the models' order.
 *
 * @example
 * ```ts
 * import { modelNeeds } from "./_permissions.ts";
 * import { parseModelConfigs } from "../agents/llm/model_config.ts";
 * const needs = modelNeeds(parseModelConfigs([
 *   { id: "a", baseURL: "https://api.example.com/v1", model: "x", apiKeyEnv: "K" },
 *   { id: "b", baseURL: "https://api.example.com/v1", model: "y", apiKeyEnv: "K" },
 * ]));
 * if (needs.net.join() !== "api.example.com" || needs.env.join() !== "K") throw new Error();
 * ```
 */
export function modelNeeds(models: readonly ModelConfig[]): Pick<Needs, "net" | "env"> {
  const unique = (items: string[]) => [...new Set(items)];
  return {
    net: unique(models.map((m) => new URL(m.baseURL).host)),
    env: unique(models.map((m) => m.apiKeyEnv).filter((k): k is string => k !== null)),
  };
}

/**
 * The first model whose key variable is unset or blank, as the message the
 * runtime would give, or `null` when every key is there.
 */
export function missingKey(
  models: readonly ModelConfig[],
  readEnv: (name: string) => string | undefined,
): string | null {
  for (const m of models) {
    if (m.apiKeyEnv !== null && !readEnv(m.apiKeyEnv)?.trim()) {
      return `The API key variable ${m.apiKeyEnv} of model "${m.id}" is not set: ` +
        `export ${m.apiKeyEnv}=... before running the grid.`;
    }
  }
  return null;
}

/** The needs not granted, each as a few words. */
export function missingPermissions(needs: Needs): string[] {
  const q = (d: Deno.PermissionDescriptor) => Deno.permissions.querySync(d).state === "granted";
  return [
    ...needs.write.filter((path) => !q({ name: "write", path })).map((p) => `write to "${p}"`),
    ...needs.net.filter((host) => !q({ name: "net", host })).map((h) => `network access to ${h}`),
    ...needs.env.filter((variable) => !q({ name: "env", variable })).map((v) => `variable ${v}`),
    ...needs.sys.filter((kind) => !q({ name: "sys", kind: kind as "hostname" })).map((k) =>
      `system information "${k}"`
    ),
    ...(needs.ffi !== null && !q({ name: "ffi", path: needs.ffi })
      ? [`loading native addons from "${needs.ffi}" (ffi)`]
      : []),
  ];
}

/** The narrowest `deno run` flags that meet the needs (reading stays open). */
export function narrowFlags(needs: Needs): string[] {
  const list = (items: string[]) => [...new Set(items)].join(",");
  return [
    "--no-prompt",
    "--allow-read",
    ...(needs.write.length ? [`--allow-write=${list(needs.write)}`] : []),
    ...(needs.net.length ? [`--allow-net=${list(needs.net)}`] : []),
    ...(needs.env.length ? [`--allow-env=${list(needs.env)}`] : []),
    ...(needs.sys.length ? [`--allow-sys=${list(needs.sys)}`] : []),
    ...(needs.ffi !== null ? [`--allow-ffi=${needs.ffi}`] : []),
  ];
}

/** An argument as a POSIX shell reads it back: as is when safe, else single-quoted. */
export const quote = (a: string): string =>
  /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;

/**
 * Prints what is missing and the command to run instead, and returns
 * `false`, when a need is not granted; returns `true` otherwise.
 */
export function checkPermissions(needs: Needs, script: URL, args: readonly string[]): boolean {
  const missing = missingPermissions(needs);
  if (missing.length === 0) return true;
  const path = relative(Deno.cwd(), script.pathname) || script.pathname;
  console.error(
    `This command needs permissions it was not given: ${missing.join(", ")}. ` +
      `Run it with exactly what it needs:\n\n  ${DENO_COMMAND} run ${
        [...narrowFlags(needs), path, ...args].map(quote).join(" ")
      }\n`,
  );
  return false;
}

/**
 * The narrow Deno permissions an LLM run needs: network access to the
 * configured hosts only, the key variables only, and reads and writes inside
 * the run and cache folders only. `--no-prompt` makes anything else fail
 * instead of asking. (The `openai` SDK also looks for its own `OPENAI_*`
 * variables; without permission it treats them as unset.)
 *
 * @module
 */
import type { ModelConfig } from "./model_config.ts";

/** Options of {@linkcode denoPermissionFlags}. */
export interface PermissionOptions {
  /** Folder the run writes its logs to (read and write). */
  runDir: string;
  /** Response-cache folder (read and write). Default none. */
  cacheDir?: string;
  /** Further folders to read (e.g. a model-config file's folder). Default none. */
  readDirs?: readonly string[];
}

/**
 * The `deno run` flags for a run with these models.
 *
 * @example
 * ```ts
 * import { denoPermissionFlags } from "./permissions.ts";
 * import { parseModelConfig } from "./model_config.ts";
 * const m = parseModelConfig({ id: "ds", baseURL: "https://api.deepseek.com/v1", model: "x", apiKeyEnv: "DEEPSEEK_API_KEY" });
 * const flags = denoPermissionFlags([m], { runDir: "runs/ds", cacheDir: "runs/cache" });
 * if (!flags.includes("--allow-net=api.deepseek.com") || !flags.includes("--allow-env=DEEPSEEK_API_KEY")) throw new Error();
 * if (!flags.includes("--allow-write=runs/ds,runs/cache")) throw new Error(flags.join(" "));
 * ```
 */
export function denoPermissionFlags(
  models: readonly ModelConfig[],
  options: PermissionOptions,
): string[] {
  const hosts = [...new Set(models.map((m) => new URL(m.baseURL).host))];
  const keys = [...new Set(models.map((m) => m.apiKeyEnv).filter((k): k is string => k !== null))];
  const writes = [options.runDir, ...(options.cacheDir ? [options.cacheDir] : [])];
  const reads = [...writes, ...(options.readDirs ?? [])];
  return [
    "--no-prompt",
    `--allow-net=${hosts.join(",")}`,
    ...(keys.length ? [`--allow-env=${keys.join(",")}`] : []),
    `--allow-read=${reads.join(",")}`,
    `--allow-write=${writes.join(",")}`,
  ];
}

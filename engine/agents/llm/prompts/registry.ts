/**
 * The prompt sets by game id, as each game's descriptor holds them (`prompts`). A set holds one template
 * per (role, call); {@linkcode missingTemplates} checks it covers every call
 * the environment's contracts name.
 *
 * @module
 */
import { GAMES } from "../../../games/registry.ts";
import type { PromptSet } from "./template.ts";

/**
 * Environment ids with prompt templates.
 *
 * @example
 * ```ts
 * import { promptEnvironments } from "./registry.ts";
 * if (!promptEnvironments().includes("bank_run")) throw new Error();
 * ```
 */
export function promptEnvironments(): string[] {
  return GAMES.map((g) => g.id);
}

/**
 * The prompt templates of an environment.
 *
 * @example
 * ```ts
 * import { promptSet } from "./registry.ts";
 * if (promptSet("bank_run").length !== 4) throw new Error();
 * ```
 * @throws {RangeError} For an environment without templates, listing those with.
 */
export function promptSet(env: string): PromptSet {
  const set = GAMES.find((g) => g.id === env)?.prompts;
  if (!set) {
    throw new RangeError(
      `No prompt templates for environment "${env}": templates exist for ${
        promptEnvironments().map((e) => `"${e}"`).join(", ")
      }`,
    );
  }
  return set;
}

/**
 * The calls of an environment's contracts that no template answers.
 *
 * @example
 * ```ts
 * import { missingTemplates, promptSet } from "./registry.ts";
 * import { bankRun } from "../../../games/bank_run/environment.ts";
 * if (missingTemplates(bankRun, promptSet("bank_run")).length !== 0) throw new Error();
 * ```
 */
export function missingTemplates(
  env: { contracts: Readonly<Record<string, unknown>> },
  set: PromptSet,
): string[] {
  return Object.keys(env.contracts).filter((call) => !set.some((t) => t.call === call));
}

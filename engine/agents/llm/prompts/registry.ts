/**
 * The prompt sets by environment id. An environment's set holds one template
 * per (role, call); {@linkcode missingTemplates} checks it covers every call
 * the environment's contracts name.
 *
 * @module
 */
import { bankRunPrompts } from "../../../games/bank_run/prompts/mod.ts";
import { crowdfundingPrompts } from "../../../games/crowdfunding/prompts/mod.ts";
import { debtRolloverPrompts } from "../../../games/debt_rollover/prompts/mod.ts";
import { stagHuntPrompts } from "../../../games/staghunt/prompts/mod.ts";
import type { PromptSet } from "./template.ts";

const SETS: Record<string, PromptSet> = {
  bank_run: bankRunPrompts,
  debt_rollover: debtRolloverPrompts,
  crowdfunding: crowdfundingPrompts,
  staghunt: stagHuntPrompts,
};

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
  return Object.keys(SETS);
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
  const set = SETS[env];
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

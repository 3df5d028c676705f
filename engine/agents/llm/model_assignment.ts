/**
 * Which model plays which player. Homogeneous by default (every role one
 * model, as in the paper, Section 3.3); heterogeneous assignments name a model
 * per role and, above that, per agent id.
 *
 * @module
 */

/** A model id for everyone, or a default with per-role and per-agent overrides. */
export type ModelAssignment = string | {
  /** Model id for players not named below. */
  default: string;
  /** Model id by role, e.g. `{ bank: "glm" }`. */
  roles?: Record<string, string>;
  /** Model id by agent id, e.g. `{ dep_03: "qwen" }`; wins over `roles`. */
  agents?: Record<string, string>;
};

/**
 * The model id that plays a player. A runner that assigns models itself (the
 * Stag Hunt's heterogeneity policies) passes the player's `model`; it wins
 * over the assignment.
 *
 * @example
 * ```ts
 * import { modelFor } from "./model_assignment.ts";
 * const a = { default: "gpt", roles: { bank: "glm" }, agents: { dep_02: "qwen" } };
 * if (modelFor(a, { id: "bank", role: "bank" }) !== "glm") throw new Error();
 * if (modelFor(a, { id: "dep_02", role: "depositor" }) !== "qwen") throw new Error();
 * if (modelFor("gpt", { id: "dep_01", role: "depositor" }) !== "gpt") throw new Error();
 * if (modelFor("gpt", { id: "p01", role: "player", model: "qwen" }) !== "qwen") throw new Error();
 * ```
 */
export function modelFor(
  assignment: ModelAssignment,
  player: { id: string; role: string; model?: string },
): string {
  if (player.model !== undefined) return player.model;
  if (typeof assignment === "string") return assignment;
  return assignment.agents?.[player.id] ?? assignment.roles?.[player.role] ?? assignment.default;
}

/**
 * Every model id an assignment can name.
 *
 * @example
 * ```ts
 * import { assignedModels } from "./model_assignment.ts";
 * const ids = assignedModels({ default: "gpt", roles: { bank: "glm" } });
 * if (ids.join() !== "gpt,glm") throw new Error();
 * ```
 */
export function assignedModels(assignment: ModelAssignment): string[] {
  if (typeof assignment === "string") return [assignment];
  return [
    ...new Set([
      assignment.default,
      ...Object.values(assignment.roles ?? {}),
      ...Object.values(assignment.agents ?? {}),
    ]),
  ];
}

/**
 * Model heterogeneity (ablations h1 / h2 / h3): which model plays which
 * player, as a pure function of the player's index, its corrupted flag and a
 * configured policy. The LLM layer and the grid runner use it; the runner
 * records the model in each player's `policy` in `episode_start`.
 *
 * - `h1`: one model for every player (the base condition).
 * - `h2`: round-robin over a pool by player index (index 0 gets `pool[0]`).
 * - `h3`: the stronger and the weaker model split between the corrupted and
 *   the honest roles; `corrupted: "strong"` (default) gives the corrupted
 *   players the strong model and honest players the weak one, `"weak"` the
 *   reverse. The paper names the ablation, not the direction, so both are
 *   configurable.
 *
 * Agents are never told whether they are corrupted; only this assignment
 * (made outside the agents) depends on it.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { corruptedPlayers } from "./corruption.ts";
import { playerIds } from "./players.ts";

/**
 * Heterogeneity ids (the one list of them): h1 one model, h2 a round-robin
 * pool, h3 strong and weak models split by role.
 *
 * @example
 * ```ts
 * import { HETEROGENEITY_IDS } from "./heterogeneity.ts";
 * if (HETEROGENEITY_IDS.join() !== "h1,h2,h3") throw new Error();
 * ```
 */
export const HETEROGENEITY_IDS = ["h1", "h2", "h3"] as const;

/** Heterogeneity ids. */
export type HeterogeneityId = (typeof HETEROGENEITY_IDS)[number];

/** How models are assigned to players. */
export type ModelPolicy =
  | { kind: "h1"; model: string }
  | { kind: "h2"; pool: readonly string[] }
  | { kind: "h3"; strong: string; weak: string; corrupted?: "strong" | "weak" };

/** Zod schema of {@linkcode ModelPolicy}. */
export const ModelPolicySchema: z.ZodType<ModelPolicy> = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("h1"), model: z.string().min(1) }).strict(),
  z.object({ kind: z.literal("h2"), pool: z.array(z.string().min(1)).min(1) }).strict(),
  z.object({
    kind: z.literal("h3"),
    strong: z.string().min(1),
    weak: z.string().min(1),
    corrupted: z.enum(["strong", "weak"]).optional(),
  }).strict(),
]);

/**
 * The model id of one player.
 *
 * @example
 * ```ts
 * import { assignModel } from "./heterogeneity.ts";
 * const pool = { kind: "h2", pool: ["a", "b"] } as const;
 * if (assignModel({ index: 3, corrupted: false }, pool) !== "b") throw new Error();
 * const h3 = { kind: "h3", strong: "big", weak: "small" } as const;
 * if (assignModel({ index: 0, corrupted: true }, h3) !== "big") throw new Error();
 * if (assignModel({ index: 0, corrupted: false }, h3) !== "small") throw new Error();
 * ```
 * @throws {RangeError} For a negative or fractional index, or an empty h2 pool.
 */
export function assignModel(
  player: { index: number; corrupted: boolean },
  policy: ModelPolicy,
): string {
  if (!Number.isSafeInteger(player.index) || player.index < 0) {
    throw new RangeError(`Player index must be an integer >= 0, got ${player.index}`);
  }
  switch (policy.kind) {
    case "h1":
      return policy.model;
    case "h2":
      if (policy.pool.length === 0) throw new RangeError("The h2 model pool is empty");
      return policy.pool[player.index % policy.pool.length];
    case "h3": {
      const corruptedGetsStrong = (policy.corrupted ?? "strong") === "strong";
      return player.corrupted === corruptedGetsStrong ? policy.strong : policy.weak;
    }
  }
}

/** Options of {@linkcode assignModels}. */
export interface AssignModelsOptions {
  /** Episode seed (decides the corrupted players). */
  seed: number;
  /** The assignment policy. */
  policy: ModelPolicy;
}

/**
 * The model of every player of an episode, by id, with the corrupted players
 * drawn from the seed exactly as the environment draws them.
 *
 * @example
 * ```ts
 * import { assignModels } from "./heterogeneity.ts";
 * const m = assignModels({ N: 3, F: 0 }, { seed: 1, policy: { kind: "h2", pool: ["a", "b"] } });
 * if (JSON.stringify(m) !== '{"p01":"a","p02":"b","p03":"a"}') throw new Error();
 * ```
 */
export function assignModels(
  params: { N: number; F: number },
  options: AssignModelsOptions,
): Record<string, string> {
  const corrupted = new Set(corruptedPlayers(params, options.seed));
  return Object.fromEntries(
    playerIds(params.N).map((
      id,
      index,
    ) => [id, assignModel({ index, corrupted: corrupted.has(id) }, options.policy)]),
  );
}

// Schema pieces every block family of a grid spec uses: labels, unit
// numbers, episode counts, model ids and the `kind` of an agents entry.
import { z } from "npm:zod@4.6.7";
import { assignedModels, type ModelAssignment } from "../agents/llm/model_assignment.ts";
import type { GameDescriptor } from "../core/game.ts";
import { strictObject } from "../core/strict_input.ts";
import { NAME_HINT, NAME_PATTERN } from "../names.ts";

/** A label of an agents entry (a part of file names). */
export const label = () => z.string().regex(NAME_PATTERN, NAME_HINT).max(60);
/** A number in [0, 1]. */
export const unit = () => z.number().min(0).max(1);
/** A non-empty list of integers >= 1. */
export const positiveInts = () => z.array(z.number().int().min(1)).min(1);
/** Episodes per cell. */
export const episodes = () => z.number().int().min(1).max(1_000_000);
/** A model id. */
export const modelId = () => z.string().min(1);

/** A model for every player, or an assignment by role and agent id. */
export const ModelAssignmentSchema: z.ZodType<ModelAssignment> = z.union([
  modelId(),
  strictObject({
    default: modelId(),
    roles: z.record(z.string(), modelId()).optional(),
    agents: z.record(z.string(), modelId()).optional(),
  }),
]);

export { assignedModels };

/** One optional enum per mock option of the descriptors' roles. */
export function mockOptionsShape(
  games: readonly GameDescriptor[],
): Record<string, z.ZodOptional<z.ZodEnum>> {
  const shape: Record<string, z.ZodOptional<z.ZodEnum>> = {};
  for (const g of games) {
    for (const m of g.mockPolicies) {
      shape[m.option] = z.enum(m.policies).optional().describe(
        `The ${m.role} policy: ${m.policies.map((p) => `"${p}"`).join(", ")}. ` +
          `Default "${m.policies[0]}".`,
      );
    }
  }
  return shape;
}

/** Adds the `kind` of an agents entry from the key it has (`mock`, `model` or `models`). */
export function withKind(input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input) || "kind" in input) {
    return input;
  }
  const kind = ["models", "model", "mock"].find((k) => k in input);
  return kind ? { kind, ...input } : input;
}

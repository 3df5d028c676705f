/**
 * The block of a game without a block of its own (a game registered with
 * `registerGame`): a list of conditions, each given as the fields the game's
 * `setup` takes, crossed with agents entries (`{ mock: {...} }` with the
 * game's mock options, or `{ model: "<id>" }`).
 *
 * `{ "game": "<id>" }` with nothing else is one cell: the game's default
 * condition (`setup({})`) with its default rule-based agents. A cell's id is
 * `<condition_id>_<agents label>`, its condition `{ game: <id>, ...fields }`
 * (so a game's condition fields must not include `game` or `env`).
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { assertKnownKeys, strictObject } from "../core/strict_input.ts";
import { gameDescriptor } from "../games/registry.ts";
import type { ModelAssignment } from "../agents/llm/model_assignment.ts";

/** An agents entry of a game's block. */
export type GameAgentsSpec =
  | { kind: "mock"; mock: Record<string, unknown>; label?: string }
  | { kind: "model"; model: ModelAssignment; label?: string };

/** A block of a game without a block of its own: conditions x agents. */
export interface GameBlock {
  /** The game's id (a registered game's). */
  game: string;
  /** Conditions, as the fields of the game's `setup`. Default `[{}]` (its default condition). */
  conditions: Record<string, unknown>[];
  /** Agents entries. Default `[{ mock: {} }]`. */
  agents: GameAgentsSpec[];
  /** Episodes per cell. Default: the spec's `episodes`. */
  episodes?: number;
}

/** What a game's cell plays: the game's id and the fields of its `setup`. */
export interface GameCondition {
  /** The game's id. */
  game: string;
  /** The condition's fields. */
  [field: string]: unknown;
}

/**
 * The schema of a game's block, for these game ids.
 *
 * @example
 * ```ts
 * import { z } from "npm:zod@4.6.7";
 * import { gameBlockSchema } from "./_game_block.ts";
 * const s = gameBlockSchema(["staghunt"], { agents: z.unknown(), episodes: z.number() });
 * if (s.safeParse({ game: "staghunt" }).success !== true) throw new Error();
 * ```
 */
export function gameBlockSchema(
  ids: readonly [string, ...string[]],
  parts: { agents: z.ZodType; episodes: z.ZodType },
): z.ZodType {
  return strictObject({
    game: z.enum(ids).describe("The game's id, as registered (`registerGame`)."),
    conditions: z.array(z.record(z.string(), z.unknown())).min(1).default([{}]).describe(
      "Conditions, each the fields of the game's set-up (its descriptor's setupKeys, e.g. " +
        '{ "N": 16 } for min_effort). Default [{}]: the game\'s defaults.',
    ),
    agents: z.array(parts.agents).min(1).default([{ kind: "mock", mock: {} }]).describe(
      'Agents entries: { "mock": { ... } } with the game\'s mock options, or { "model": ... }. ' +
        "Default one mock entry with the game's default policies.",
    ),
    episodes: parts.episodes.optional().describe("Episodes per cell. Default the spec's episodes."),
  }).superRefine((b, ctx) => {
    const keys = gameDescriptor(b.game).setupKeys;
    b.conditions.forEach((c, i) => {
      try {
        assertKnownKeys(c, keys, "condition");
      } catch (err) {
        ctx.addIssue({ code: "custom", path: ["conditions", i], message: (err as Error).message });
      }
    });
  });
}

/**
 * The cells of a game's block (before their block index and episode count).
 *
 * @example
 * ```ts
 * import { gameBlockCells } from "./_game_block.ts";
 * const [c] = gameBlockCells({ game: "staghunt", conditions: [{ N: 3, M: 2 }], agents: [{ kind: "mock", mock: {} }] }, 0, () => "mock");
 * if (c.id !== "staghunt_N3_M2_T4_F0_base_h1_mock" || c.condition.N !== 3) throw new Error(c.id);
 * ```
 * @throws {RangeError} Naming the block's condition that the game's `setup` refuses.
 */
export function gameBlockCells(
  block: GameBlock,
  b: number,
  label: (agents: GameAgentsSpec) => string,
): { id: string; condition: GameCondition; agents: GameAgentsSpec }[] {
  const game = gameDescriptor(block.game);
  const out: { id: string; condition: GameCondition; agents: GameAgentsSpec }[] = [];
  block.conditions.forEach((fields, i) => {
    let id: string;
    try {
      id = game.setup(fields).condition.id;
    } catch (err) {
      throw new RangeError(
        `Invalid grid spec "blocks.${b}.conditions.${i}": ${(err as Error).message}`,
      );
    }
    for (const agents of block.agents) {
      out.push({
        id: `${id}_${label(agents)}`,
        condition: { ...fields, game: block.game },
        agents,
      });
    }
  });
  return out;
}

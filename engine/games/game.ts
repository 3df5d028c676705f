/**
 * A game as the toolkit plays it: its descriptor (what it is, and the factory
 * that builds an episode from a condition: `setup`, `mockAgents`,
 * `episodeId`, `players`; see `GameDescriptor`) and its LLM prompt set.
 * `registerGame` adds one to the registry (`GAMES`).
 *
 * @module
 */
import type { GameDescriptor } from "../core/game.ts";
import type { PromptSet } from "../agents/llm/prompts/template.ts";

/** A game's descriptor and its prompt set; `P` is its parameter type. */
export interface Game<P = unknown> extends GameDescriptor<P> {
  /** The LLM prompt templates of its calls (`[]` for a game played by rule-based agents only). */
  readonly prompts: PromptSet;
  /**
   * The mock options that stand in for its LLM agents in a mock run of a
   * paper's design (`deno task reproduce --mock`). Default `{}` (its default
   * rule-based agents).
   */
  readonly paperMock?: Readonly<Record<string, unknown>>;
}

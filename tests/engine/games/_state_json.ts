// Test helpers for a game's own state writer (`Environment.stateJson`): play
// seeded episodes with every state the engine reads compared with the generic
// canonical writer, and the same episode's log with and without the writer.
import { assert, assertEquals } from "../../_assert.ts";
import type { AgentFactory } from "../../../engine/core/agent.ts";
import { canonicalJson } from "../../../engine/core/canonical_json.ts";
import type { Environment } from "../../../engine/core/environment.ts";
import { playEpisode } from "../../../engine/core/episode.ts";
import { frailSetup } from "../../../engine/frail/descriptor.ts";
import { frailGame } from "../../../engine/frail/registry.ts";
import type { RegimeId } from "../../../engine/frail/params.ts";
import type { MechanismId } from "../../../engine/frail/types.ts";

/** One seeded episode of a FRAIL game. */
export interface WriterEpisode {
  mechanism: MechanismId;
  regime: RegimeId;
  overrides?: Record<string, unknown>;
  seed: number;
  agents: AgentFactory;
}

/** How many states a writer wrote, at checkpoints and at the start of rounds. */
export interface Written {
  /** States written when the checkpoint asked for them (one per round played). */
  checkpoints: number;
  /** States written at each `isDone` (the start of every round and before the end). */
  rounds: number;
}

/**
 * Plays an episode, hashed and logged, with an environment whose `stateJson`
 * (called by every checkpoint) and `isDone` compare the game's writer with
 * `canonicalJson` on the live state; then plays it again without the writer
 * and checks that the NDJSON log and the hashes are byte-identical. Returns
 * the counts and the final state.
 */
export async function compareWriter<P, S>(
  env: Environment<P, S>,
  episode: WriterEpisode,
): Promise<Written & { final: S }> {
  const own = env.stateJson!;
  const written: Written = { checkpoints: 0, rounds: 0 };
  const same = (state: S): string => {
    const text = own(state);
    assert(text !== undefined, "the writer gave up on a state of the game's own shape");
    assertEquals(text, canonicalJson(state));
    return text;
  };
  const checked: Environment<P, S> = {
    ...env,
    stateJson(state) {
      written.checkpoints++;
      return same(state);
    },
    isDone(state) {
      written.rounds++;
      same(state);
      return env.isDone(state);
    },
  };
  const generic: Environment<P, S> = { ...env, stateJson: undefined };
  const setup = frailSetup(frailGame(env.id), {
    mechanism: episode.mechanism,
    regime: episode.regime,
    overrides: episode.overrides,
  });
  const play = (e: Environment<P, S>) =>
    playEpisode(e, {
      ...setup,
      params: setup.params as P,
      seed: episode.seed,
      agents: episode.agents,
      clock: () => "t",
      hashes: true,
      ndjson: true,
    });
  const a = await play(checked);
  const b = await play(generic);
  assertEquals(a.hashes, b.hashes);
  assert(a.ndjson === b.ndjson, "the log differs with the generic writer");
  return { ...written, final: a.state };
}

/**
 * The writer's text for a state of another shape (each edit applied to a copy
 * of `state`) is `undefined`; the unedited copy's is its canonical JSON.
 */
export function assertOtherShapes<S>(
  write: (state: S) => string | undefined,
  state: S,
  edits: readonly ((s: Record<string, unknown>) => void)[],
): void {
  assertEquals(write(structuredClone(state)), canonicalJson(state));
  for (const edit of edits) {
    const edited = structuredClone(state) as unknown as Record<string, unknown>;
    edit(edited);
    assertEquals(write(edited as S), undefined, String(edit));
  }
}

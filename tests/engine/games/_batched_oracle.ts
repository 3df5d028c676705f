// What the batched paths' oracle tests share: the comparison of a batched
// episode with the general path's, and a game's environment with one draw
// changed (the draw of `agent` for `purpose` in `round`, inside step `step`,
// replaced by 1 - u, so that a copy of the rules making its own draws, not the
// environment's, is caught where that one draw decides something).
import { assert, assertEquals } from "../../_assert.ts";
import type { BatchedEpisode } from "../../../engine/core/batched.ts";
import type { Environment, StepContext } from "../../../engine/core/environment.ts";
import type { Stream } from "../../../engine/core/rng.ts";

/** The oracle: outcome, tally and final state equal, numbers to the bit (Object.is). */
export function assertSame(
  b: BatchedEpisode<unknown>,
  g: BatchedEpisode<unknown>,
  what: string,
): void {
  assertEquals(b.outcome, g.outcome, what);
  assert(Object.is(b.outcome.welfare, g.outcome.welfare), what);
  assert(Object.is(b.outcome.welfareRealization, g.outcome.welfareRealization), what);
  assertEquals(b.tally, g.tally, what);
  assertEquals(b.state, g.state, what);
  assertEquals(b.events, []);
  assertEquals(b.hashes, []);
}

/** Whether the oracle tells `b` from `g` (whether {@linkcode assertSame} throws). */
export function tellsApart(
  b: BatchedEpisode<unknown>,
  g: BatchedEpisode<unknown>,
  what: string,
): boolean {
  try {
    assertSame(b, g, what);
    return false;
  } catch {
    return true;
  }
}

/** Which draw {@linkcode withOneDrawFlipped} changes. */
export interface FlippedDraw {
  /** The step whose context draws it. */
  step: string;
  round: number;
  agent: string;
  purpose: string;
}

/** `env` with the draw `draw` names replaced by 1 - u; every other draw as it was. */
export function withOneDrawFlipped(
  env: Environment<unknown, unknown>,
  draw: FlippedDraw,
): Environment<unknown, unknown> {
  const perturb = (ctx: StepContext): StepContext => ({
    ...ctx,
    stream: (agent: string, purpose: string): Stream => {
      const s = ctx.stream(agent, purpose);
      if (ctx.round !== draw.round || agent !== draw.agent || purpose !== draw.purpose) return s;
      const u = s.uniform();
      return { uniform: () => 1 - u, int: (k) => Math.floor((1 - u) * k) };
    },
  });
  return {
    ...env,
    steps: (state) =>
      env.steps(state).map((step) =>
        step.id !== draw.step
          ? step
          : { ...step, apply: (s, reports, ctx) => step.apply(s, reports, perturb(ctx)) }
      ),
  };
}

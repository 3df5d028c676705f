/**
 * Rule-based minimum-effort players, reading only their view:
 *
 * - `best_response` (the default): with a > b the best reply to a believed
 *   minimum m is m itself (any higher effort costs b a unit and raises
 *   nothing; any lower one loses a - b a unit), so it plays the minimum
 *   announced last round. In round 1, where nothing was announced, it plays
 *   its stated prior: the minimum it expects, `prior` (default the highest
 *   effort, the payoff-dominant equilibrium). With probability `epsilon`
 *   (default 0.1) it plays an effort drawn uniformly from 1..E instead
 *   (which may be the same one): one uniform and, when it deviates, one
 *   integer from the stream (seed, round, player, `"mock_noise"`).
 * - `always_max` / `always_min`: the highest effort E / effort 1 every round.
 * - `uniform`: an effort drawn uniformly from 1..E every round, from the
 *   stream (seed, round, player, `"mock_uniform"`).
 *
 * The seed of the draws is the factory's `seed` option (the runner passes
 * the episode seed), so an episode of mock players is a function of its seed.
 *
 * @module
 */
import type { Agent, AgentFactory } from "../../core/agent.ts";
import { trustReplies } from "../../core/_trusted_replies.ts";
import { openStream } from "../../core/rng.ts";
import { assertKnownKeys } from "../../core/strict_input.ts";
import type { EffortReply } from "./contracts.ts";
import { MAX_EFFORTS } from "./params.ts";
import type { MinEffortView } from "./state.ts";

/**
 * The mock policies, the default first.
 *
 * @example
 * ```ts
 * import { MIN_EFFORT_POLICIES } from "./mock.ts";
 * if (MIN_EFFORT_POLICIES.join() !== "best_response,always_max,always_min,uniform") throw new Error();
 * ```
 */
export const MIN_EFFORT_POLICIES = [
  "best_response",
  "always_max",
  "always_min",
  "uniform",
] as const;

/** A mock minimum-effort policy. */
export type MinEffortPolicy = (typeof MIN_EFFORT_POLICIES)[number];

/**
 * Named mock options the local test double serves for this game, by served
 * model name (the same three names as the other games: a cautious, a
 * cooperative and a defecting population).
 *
 * @example
 * ```ts
 * import { MIN_EFFORT_MOCK_PRESETS } from "./mock.ts";
 * if (MIN_EFFORT_MOCK_PRESETS["coordlab-stay"].players !== "always_max") throw new Error();
 * ```
 */
export const MIN_EFFORT_MOCK_PRESETS: Readonly<Record<string, Readonly<MinEffortMockOptions>>> = {
  "coordlab-defensive": { players: "best_response" },
  "coordlab-stay": { players: "always_max" },
  "coordlab-run": { players: "always_min" },
};

/** Options of {@linkcode bestResponsePlayer}. */
export interface BestResponseOptions {
  /** Probability of a uniform effort instead of the best response, in [0, 1]. Default 0.1. */
  epsilon?: number;
  /** The minimum expected in round 1 (an integer in 1..E of the game). Default: the highest effort E. */
  prior?: number;
  /** Seed of the noise draws. Default 0. */
  seed?: number;
}

function checkEpsilon(v: number): number {
  if (!(typeof v === "number" && v >= 0 && v <= 1)) {
    throw new RangeError(`Mock min_effort option "epsilon" must be in [0, 1], got ${v}`);
  }
  return v;
}

function checkPrior(v: number | undefined): number | undefined {
  if (v !== undefined && !(Number.isInteger(v) && v >= 1 && v <= MAX_EFFORTS)) {
    throw new RangeError(
      `Mock min_effort option "prior" must be an integer in 1..${MAX_EFFORTS}, got ${v}`,
    );
  }
  return v;
}

function reply(effort: number, reasoning: string): EffortReply {
  return { effort, reasoning };
}

/**
 * A player that best-responds to last round's announced minimum, with noise.
 *
 * @example
 * ```ts
 * import { bestResponsePlayer } from "./mock.ts";
 * const p = bestResponsePlayer({ epsilon: 0 });
 * const view = { you: "p01", round: 2, T: 10, N: 7, efforts: 7, a: 0.2, b: 0.1, c: 0.6,
 *   history: [{ round: 1, effort: 7, minimum: 4, payoff: 0.7 }] };
 * const r = p.decide({ call: "effort_choice", view } as never) as { effort: number };
 * if (r.effort !== 4 || p.policy !== "mock:best_response(epsilon=0)") throw new Error();
 * ```
 * @throws {RangeError} For an option out of range; when deciding, for a prior above the game's highest effort.
 */
export function bestResponsePlayer(options: BestResponseOptions = {}): Agent {
  const epsilon = checkEpsilon(options.epsilon ?? 0.1);
  const prior = checkPrior(options.prior);
  const seed = options.seed ?? 0;
  const name = `mock:best_response(epsilon=${epsilon}${
    prior === undefined ? "" : `,prior=${prior}`
  })`;
  return trustReplies({
    policy: name,
    decide(req) {
      const v = req.view as MinEffortView;
      const last = v.history.at(-1);
      let effort: number;
      let why: string;
      if (last === undefined) {
        effort = prior ?? v.efforts;
        if (effort > v.efforts) {
          throw new RangeError(
            `Mock min_effort option "prior" ${effort} is above the game's highest effort ${v.efforts}`,
          );
        }
        why = `I expect a minimum of ${effort}, so I match it.`;
      } else {
        effort = last.minimum;
        why = `The minimum last round was ${effort}, so I match it.`;
      }
      if (epsilon > 0) {
        const s = openStream({ seed, round: v.round, agent: v.you, purpose: "mock_noise" });
        if (s.uniform() < epsilon) {
          effort = 1 + s.int(v.efforts);
          why = `I try effort ${effort} this round.`;
        }
      }
      return reply(effort, why);
    },
  });
}

/**
 * A player that always chooses the same end of the range: the highest effort or 1.
 *
 * @example
 * ```ts
 * import { alwaysPlayer } from "./mock.ts";
 * const view = { efforts: 7 };
 * if ((alwaysPlayer("max").decide({ view } as never) as { effort: number }).effort !== 7) throw new Error();
 * if ((alwaysPlayer("min").decide({ view } as never) as { effort: number }).effort !== 1) throw new Error();
 * ```
 */
export function alwaysPlayer(end: "max" | "min"): Agent {
  return trustReplies({
    policy: `mock:always_${end}`,
    decide(req) {
      const v = req.view as MinEffortView;
      return end === "max"
        ? reply(v.efforts, "I always choose the highest effort.")
        : reply(1, "I always choose the lowest effort.");
    },
  });
}

/**
 * A player that draws its effort uniformly from 1..E every round.
 *
 * @example
 * ```ts
 * import { uniformPlayer } from "./mock.ts";
 * const view = { you: "p01", round: 1, efforts: 7 };
 * const e = (uniformPlayer({ seed: 3 }).decide({ view } as never) as { effort: number }).effort;
 * if (!(Number.isInteger(e) && e >= 1 && e <= 7)) throw new Error();
 * ```
 */
export function uniformPlayer(options: { seed?: number } = {}): Agent {
  const seed = options.seed ?? 0;
  return trustReplies({
    policy: "mock:uniform",
    decide(req) {
      const v = req.view as MinEffortView;
      const s = openStream({ seed, round: v.round, agent: v.you, purpose: "mock_uniform" });
      const effort = 1 + s.int(v.efforts);
      return reply(effort, `I choose effort ${effort} at random.`);
    },
  });
}

/** Options of {@linkcode minEffortMockAgents}. */
export interface MinEffortMockOptions {
  /** Policy of every player, or a function of the index (from 0) and id. Default `"best_response"`. */
  players?: MinEffortPolicy | ((index: number, id: string) => MinEffortPolicy);
  /** Noise of the best-response players, in [0, 1]. Default 0.1. */
  epsilon?: number;
  /** Round-1 prior of the best-response players. Default: the highest effort. */
  prior?: number;
  /** Seed of the draws (the runner passes the episode seed). Default 0. */
  seed?: number;
}

/**
 * A factory of mock minimum-effort players.
 *
 * @example
 * ```ts
 * import { minEffortMockAgents } from "./mock.ts";
 * const make = minEffortMockAgents({ players: (i) => (i === 0 ? "always_min" : "best_response") });
 * if (make({ id: "p01", role: "player" }).policy !== "mock:always_min") throw new Error();
 * if (make({ id: "p02", role: "player" }).policy !== "mock:best_response(epsilon=0.1)") throw new Error();
 * ```
 * @throws {RangeError} For an unknown option (with a suggestion) or an option out of range;
 * when the factory is called, for an unknown policy or a role other than `"player"`.
 */
export function minEffortMockAgents(options: MinEffortMockOptions = {}): AgentFactory {
  assertKnownKeys(options, ["players", "epsilon", "prior", "seed"], "mock min_effort options");
  const seed = options.seed ?? 0;
  const epsilon = checkEpsilon(options.epsilon ?? 0.1);
  const prior = checkPrior(options.prior);
  const choose = options.players ?? MIN_EFFORT_POLICIES[0];
  return ({ id, role }) => {
    if (role !== "player") {
      throw new RangeError(
        `No mock min_effort policy plays role "${role}": the game has only "player"`,
      );
    }
    const m = /(\d+)$/.exec(id);
    const index = m ? Number(m[1]) - 1 : -1;
    const policy = typeof choose === "function" ? choose(index, id) : choose;
    switch (policy) {
      case "best_response":
        return bestResponsePlayer({ epsilon, seed, ...(prior === undefined ? {} : { prior }) });
      case "always_max":
        return alwaysPlayer("max");
      case "always_min":
        return alwaysPlayer("min");
      case "uniform":
        return uniformPlayer({ seed });
      default:
        throw new RangeError(
          `Unknown mock min_effort policy "${policy}": expected one of ${
            MIN_EFFORT_POLICIES.map((p) => `"${p}"`).join(", ")
          }`,
        );
    }
  };
}

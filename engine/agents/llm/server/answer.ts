/**
 * The local test double's "models": each served model name is a mock preset
 * that the games' packages declare (`mockPresets` of a descriptor, e.g.
 * `"coordlab-stay"`), and a call is answered by the mock agent that the
 * call's game builds from that preset (`mockAgents`), deciding on the view
 * the call carries. So an episode played through HTTP behaves like one
 * played with the mock agents, and the double knows no game: a game the
 * registry lists, with its presets, is served as it is.
 *
 * @module
 */
import type { Agent, AgentFactory } from "../../../core/agent.ts";
import type { GameDescriptor } from "../../../core/game.ts";
import { TEST_DOUBLE_FIELD, type TestDoubleCall } from "../test_double.ts";

/** A served model's answer: the reply text and a short reasoning trace. */
export interface PolicyAnswer {
  /** Reply text (one JSON object). */
  content: string;
  /** Reasoning text returned beside it. */
  reasoning: string;
}

/** A request the double cannot answer, with the HTTP status it gets. */
export class DoubleRequestError extends Error {
  /** HTTP status (400, or 404 for a model the double does not serve). */
  readonly status: number;
  /** OpenAI error code, or `null`. */
  readonly code: string | null;
  /** Creates the error. */
  constructor(status: number, message: string, code: string | null = null) {
    super(message);
    this.name = "DoubleRequestError";
    this.status = status;
    this.code = code;
  }
}

/**
 * The answer to a preflight probe (a request that plays no game).
 *
 * @example
 * ```ts
 * import { PROBE_ANSWER } from "./answer.ts";
 * if (JSON.parse(PROBE_ANSWER.content).reasoning === undefined) throw new Error();
 * ```
 */
export const PROBE_ANSWER: PolicyAnswer = {
  // The lengths of the texts the prompt-reading server gave (16 and 11 tokens), so
  // that the spend pinned by the tests holds.
  content: JSON.stringify({ reasoning: "The local test double answers a probe with OK." }),
  reasoning: "A probe carries no call of a game to answer.",
};

/**
 * The models a list of games is served under: every preset name any of
 * them declares, in the order first declared.
 *
 * @example
 * ```ts
 * import { servedModels } from "./answer.ts";
 * import { GAMES } from "../../../games/registry.ts";
 * if (servedModels(GAMES).join() !== "coordlab-defensive,coordlab-stay,coordlab-run") throw new Error();
 * ```
 */
export function servedModels(games: readonly GameDescriptor[]): string[] {
  return [...new Set(games.flatMap((g) => Object.keys(g.mockPresets ?? {})))];
}

/**
 * The games' mock agents by served model, built once per game and model
 * (with the double's seed for the agents' traits and draws).
 */
export class ServedGames {
  readonly #games: readonly GameDescriptor[];
  readonly #seed: number;
  readonly #factories = new Map<string, AgentFactory>();
  /** The model names served, see {@linkcode servedModels}. */
  readonly models: readonly string[];

  /**
   * Serves `games` with mock agents seeded by `seed`.
   *
   * @example
   * ```ts
   * import { ServedGames } from "./answer.ts";
   * import { GAMES } from "../../../games/registry.ts";
   * const served = new ServedGames(GAMES, 0);
   * const agent = served.agentFor({ game: "staghunt", agent: "p01", role: "player",
   *   call: "stag_hunt_turn", round: 1, step: "turn", view: {} }, "coordlab-stay");
   * if (agent.policy !== "mock:always_stag") throw new Error();
   * ```
   */
  constructor(games: readonly GameDescriptor[], seed: number) {
    this.#games = games;
    this.#seed = seed;
    this.models = servedModels(games);
  }

  /**
   * The mock agent that answers a call for a served model.
   *
   * @throws {DoubleRequestError} For a game not served, a game without that
   * preset, or a role its mock agents do not play (400, naming the field).
   */
  agentFor(call: TestDoubleCall, model: string): Agent {
    const game = this.#games.find((g) => g.id === call.game);
    if (!game) {
      throw new DoubleRequestError(
        400,
        `Unknown game ${JSON.stringify(call.game)} in "${TEST_DOUBLE_FIELD}.game": the local ` +
          `test double serves ${this.#games.map((g) => `"${g.id}"`).join(", ")}`,
      );
    }
    const key = `${game.id}\u0000${model}`;
    let make = this.#factories.get(key);
    if (!make) {
      const preset = game.mockPresets && Object.hasOwn(game.mockPresets, model)
        ? game.mockPresets[model]
        : undefined;
      if (!preset) {
        const names = Object.keys(game.mockPresets ?? {});
        throw new DoubleRequestError(
          400,
          `The game "${game.id}" declares no mock preset named "${model}" (its presets: ${
            names.length ? names.map((n) => `"${n}"`).join(", ") : "none"
          })`,
        );
      }
      make = game.mockAgents({ ...preset, seed: this.#seed });
      this.#factories.set(key, make);
    }
    try {
      return make({ id: call.agent, role: call.role });
    } catch (err) {
      throw new DoubleRequestError(
        400,
        `"${TEST_DOUBLE_FIELD}.role" of game "${game.id}": ${(err as Error).message}`,
      );
    }
  }
}

/**
 * A mock agent's answer to a call: its reply as JSON and a one-line
 * reasoning naming its policy and id.
 *
 * @throws {DoubleRequestError} When the agent throws on the call (a view
 * that is not its call's, say): 400.
 *
 * @example
 * ```ts
 * import { answerCall } from "./answer.ts";
 * const agent = { policy: "mock:always_run", decide: () => ({ withdraw_probability: 100 }) };
 * const a = await answerCall(agent, { game: "bank_run", agent: "dep_01", role: "depositor",
 *   call: "withdrawal", round: 1, step: "withdrawal", view: {} });
 * if (a.content !== '{"withdraw_probability":100}') throw new Error(a.content);
 * if (a.reasoning !== "Rule-based always_run dep_01 read the prompt.") throw new Error(a.reasoning);
 * ```
 */
export async function answerCall(agent: Agent, call: TestDoubleCall): Promise<PolicyAnswer> {
  const { game: _, ...request } = call;
  let reply: unknown;
  try {
    reply = await agent.decide(request);
  } catch (err) {
    throw new DoubleRequestError(
      400,
      `The ${agent.policy} agent of game "${call.game}" could not answer "${TEST_DOUBLE_FIELD}" ` +
        `(is its view the view of a "${call.call}" call?): ${(err as Error).message}`,
    );
  }
  return {
    content: JSON.stringify(reply),
    // The words of the prompt-reading server, so that the token counts pinned by the tests hold.
    reasoning: `Rule-based ${agent.policy.replace(/^mock:/, "")} ${call.agent} read the prompt.`,
  };
}

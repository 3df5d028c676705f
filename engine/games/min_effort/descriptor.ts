/**
 * The minimum-effort game as a game: roles, mock policies, the fields of its
 * condition, its derived quantities, and the factory pieces that build an
 * episode (`minEffortSetup`, and `minEffortMockAgents` of `mock.ts`).
 *
 * The condition of an episode, as logged in `episode_start.condition`: `N`,
 * `T`, `a`, `b`, `c` and `efforts` (all the parameters). Its
 * `condition_id` is `min_effort_N<N>_T<T>`, with `_E<efforts>` when the
 * highest effort is not 7 and `_pay<a>-<b>-<c>` when the payoffs are not
 * game A's (0.2, 0.1, 0.6), e.g. `min_effort_N7_T10` or
 * `min_effort_N16_T10_pay0.2-0-0.6` (treatment B).
 *
 * Derived quantities (logged in `episode_start.derived`): `bounds`,
 * `efficient_payoff`, `secure_payoff`, `lowest_payoff`, `secure_welfare`
 * (see `bounds.ts`).
 *
 * @module
 */
import type { EpisodeCondition, GameView } from "../../core/game.ts";
import type { Game } from "../game.ts";
import { minEffortDerived } from "./bounds.ts";
import { minEffort, PLAYER_ROLE } from "./environment.ts";
import {
  MIN_EFFORT_MOCK_PRESETS,
  MIN_EFFORT_POLICIES,
  minEffortMockAgents,
  type MinEffortMockOptions,
} from "./mock.ts";
import { minEffortPrompts } from "./prompts/mod.ts";
import {
  MIN_EFFORT_DEFAULTS,
  MIN_EFFORT_ID,
  type MinEffortParams,
  parseMinEffortParams,
} from "./params.ts";

/**
 * Fields of a minimum-effort condition that identify it, in display order.
 *
 * @example
 * ```ts
 * import { MIN_EFFORT_CONDITION_KEYS } from "./descriptor.ts";
 * if (MIN_EFFORT_CONDITION_KEYS.join() !== "N,T,a,b,c,efforts") throw new Error();
 * ```
 */
export const MIN_EFFORT_CONDITION_KEYS: readonly string[] = ["N", "T", "a", "b", "c", "efforts"];

/**
 * How the viewer shows a minimum-effort episode: the minimum and the mean
 * effort of each round (the `disclosure` metrics); each round's summary shows
 * the announced minimum (the disclosure's public part) by the generic rules.
 *
 * @example
 * ```ts
 * import { MIN_EFFORT_VIEW } from "./descriptor.ts";
 * if (MIN_EFFORT_VIEW.chart.kind !== "disclosure" || MIN_EFFORT_VIEW.flips) throw new Error();
 * ```
 */
export const MIN_EFFORT_VIEW: GameView = {
  familyLabel: "Minimum effort",
  chart: { kind: "disclosure", metrics: ["minimum", "mean_effort"], yTitle: "Effort" },
  flips: false,
  roundPills: [],
  countsCalls: true,
  callsHeading: "Efforts",
};

/** The condition fields a minimum-effort set-up reads: the parameters. */
const SETUP_KEYS: readonly string[] = ["N", "T", "a", "b", "c", "efforts"];

/**
 * The minimum-effort game: its descriptor (the factory of its episodes) and
 * its prompt set. Registered in `engine/games/registry.ts` with one line.
 *
 * @example
 * ```ts
 * import { minEffortGame } from "./descriptor.ts";
 * import { parseMinEffortParams } from "./params.ts";
 * const d = minEffortGame.derive(parseMinEffortParams({}));
 * if (Math.abs(d.bounds.best - 91) > 1e-9 || minEffortGame.roles.central !== null) throw new Error();
 * const s = minEffortGame.setup({ N: 5 });
 * if (minEffortGame.episodeId(s, 3) !== "min_effort_N5_T10_s3") throw new Error();
 * ```
 */
export const minEffortGame: Game<MinEffortParams> = {
  id: MIN_EFFORT_ID,
  game: MIN_EFFORT_ID,
  label: "Minimum effort",
  environment: minEffort,
  roles: { central: null, participant: { id: PLAYER_ROLE, label: "Player" } },
  mockPolicies: [{ role: PLAYER_ROLE, option: "players", policies: MIN_EFFORT_POLICIES }],
  mockAgents: (options) => minEffortMockAgents(options as MinEffortMockOptions),
  mockPresets: MIN_EFFORT_MOCK_PRESETS,
  conditionKeys: MIN_EFFORT_CONDITION_KEYS,
  derive: minEffortDerived,
  view: MIN_EFFORT_VIEW,
  setupKeys: SETUP_KEYS,
  // The fields it does not read are ignored, as the descriptor contract says.
  setup: (fields) =>
    minEffortSetup(
      Object.fromEntries(
        SETUP_KEYS.filter((k) => fields[k] !== undefined).map((k) => [k, fields[k]]),
      ),
    ),
  episodeId: ({ condition }, seed) => `${condition.id}_s${seed}`,
  // A branch plays on under other payoffs, another highest effort or T (the
  // environment's `rebase` refuses another N and a T already played).
  branch: { keys: ["T", "a", "b", "c", "efforts"], apply: (c, change) => ({ ...c, ...change }) },
  prompts: minEffortPrompts,
};

/** Resolved parameters and the recorded condition of a minimum-effort episode. */
export interface MinEffortSetup {
  /** Validated parameters. */
  params: MinEffortParams;
  /** The condition to record. */
  condition: EpisodeCondition;
}

/**
 * Validates the condition's fields (the parameters, defaults filled) and
 * builds the condition to record.
 *
 * @example
 * ```ts
 * import { minEffortSetup } from "./descriptor.ts";
 * const { condition } = minEffortSetup({});
 * if (condition.id !== "min_effort_N7_T10" || condition.fields.a !== 0.2) throw new Error();
 * if (minEffortSetup({ N: 16, b: 0 }).condition.id !== "min_effort_N16_T10_pay0.2-0-0.6") throw new Error();
 * ```
 * @throws {RangeError} Naming a bad parameter.
 */
export function minEffortSetup(fields: unknown): MinEffortSetup {
  const params = parseMinEffortParams(fields);
  const { N, T, a, b, c, efforts } = params;
  const d = MIN_EFFORT_DEFAULTS;
  const pay = a === d.a && b === d.b && c === d.c ? "" : `_pay${a}-${b}-${c}`;
  const highest = efforts === d.efforts ? "" : `_E${efforts}`;
  return {
    params,
    condition: {
      game: MIN_EFFORT_ID,
      fields: { N, T, a, b, c, efforts },
      id: `${MIN_EFFORT_ID}_N${N}_T${T}${highest}${pay}`,
      derived: minEffortDerived(params),
      mechanism: "none",
      centralRole: null,
      centralId: null,
    },
  };
}

/**
 * The Stag Hunt as a game: roles, mock policies, the fields of its
 * condition, and the quantities the analysis needs from its parameters.
 *
 * The condition of a Stag Hunt episode, as logged in
 * `episode_start.condition`: `N`, `M`, `T`, `F`, `corruption` (`"base"` or
 * `"b3"`), `heterogeneity` (`"h1"`, `"h2"` or `"h3"`: how models were
 * assigned to players) and `payoffs` (`{ RS, HS, RF, HF }`). Its
 * `condition_id` is `staghunt_N<N>_M<M>_T<T>_F<F>_<corruption>_<heterogeneity>`,
 * with `_pay<RS>-<HS>-<RF>-<HF>` when the payoffs are not the paper's (4, 2, 0, 2).
 *
 * Derived quantities (logged in `episode_start.derived`): `bounds` (see
 * `stagHuntBounds`) and `q_star`, the Stag cutoff of Section 4.6 with the
 * paper's comparison H = H_F.
 *
 * @module
 */
import { copyData } from "../../core/copy_data.ts";
import type { EpisodeCondition, EpisodePlayers, GameView, PlayerHook } from "../../core/game.ts";
import { isPlainObject } from "../../core/strict_input.ts";
import type { Game } from "../game.ts";
import { corruptedPlayers } from "./corruption.ts";
import { PLAYER_ROLE, stagHunt } from "./environment.ts";
import { assignModel, type HeterogeneityId, type ModelPolicy } from "./heterogeneity.ts";
import { mockStagHuntPlayers, PLAYER_POLICIES, STAGHUNT_MOCK_PRESETS } from "./mock.ts";
import { stagHuntMockOf } from "./mock_options.ts";
import { stagHuntBatched } from "./batched.ts";
import { playerIndex } from "./players.ts";
import { stagHuntPrompts } from "./prompts/mod.ts";
import { parseStagHuntParams, stagHuntBounds, type StagHuntParams } from "./params.ts";
import { DEFAULT_PAYOFFS, type StagHuntPayoffs } from "./payoffs.ts";
import { qStar } from "./q_star.ts";

export { PLAYER_POLICIES };

/**
 * Fields of a Stag Hunt condition that identify it, in display order.
 *
 * @example
 * ```ts
 * import { STAGHUNT_CONDITION_KEYS } from "./descriptor.ts";
 * if (STAGHUNT_CONDITION_KEYS.join() !== "N,M,T,F,corruption,heterogeneity,payoffs") throw new Error();
 * ```
 */
export const STAGHUNT_CONDITION_KEYS: readonly string[] = [
  "N",
  "M",
  "T",
  "F",
  "corruption",
  "heterogeneity",
  "payoffs",
];

/**
 * The payoffs as a short label, `<RS>-<HS>-<RF>-<HF>`.
 *
 * @example
 * ```ts
 * import { payoffsLabel } from "./descriptor.ts";
 * if (payoffsLabel({ RS: 4, HS: 2, RF: 0, HF: 2 }) !== "4-2-0-2") throw new Error();
 * ```
 */
export function payoffsLabel(p: StagHuntPayoffs): string {
  return `${p.RS}-${p.HS}-${p.RF}-${p.HF}`;
}

/**
 * How the viewer shows a Stag Hunt episode: the Stag actions per round in the
 * public transcript and before flips (from each round's `round_outcome`
 * transition) against the threshold M, the same counts in each round's
 * summary, and flips counted on every page (players speak in turns; the
 * turn table holds the calls of each turn).
 *
 * @example
 * ```ts
 * import { STAGHUNT_VIEW } from "./descriptor.ts";
 * if (STAGHUNT_VIEW.chart.kind !== "transition" || !STAGHUNT_VIEW.flips) throw new Error();
 * ```
 */
export const STAGHUNT_VIEW: GameView = {
  familyLabel: "Stag Hunt",
  chart: {
    kind: "transition",
    transition: "round_outcome",
    series: [
      { field: "public_stag", label: "public Stag" },
      { field: "preflip_stag", label: "pre-flip Stag" },
    ],
    yTitle: "Stag actions",
    level: { condition: "M", label: "threshold M" },
    caption: "Stag actions per round, in the public transcript and before flips.",
  },
  flips: true,
  roundPills: [
    {
      transition: "round_outcome",
      field: "public_stag",
      label: "public Stag",
      success: "public_success",
    },
    { transition: "round_outcome", field: "preflip_stag", label: "pre-flip Stag", success: null },
  ],
  countsCalls: false,
  callsHeading: "Other calls",
};

/**
 * The Stag Hunt's per-player hook: the speaking index of every player, and
 * the model its heterogeneity policy assigns (h1 / h2 / h3, drawn with the
 * corrupted players from the seed as the environment draws them); a grid
 * entry `{ model }` is h1 with that model, `{ models }` its policy.
 */
const stagHuntPlayers: PlayerHook<StagHuntParams> = {
  policy(entry) {
    if (entry.kind === "model") return { kind: "h1", model: entry.model };
    if (entry.kind === "models") return entry.models;
    return undefined;
  },
  fields(policy) {
    return policy === undefined ? {} : { heterogeneity: (policy as ModelPolicy).kind };
  },
  players({ params }, seed, policy): EpisodePlayers {
    if (policy === undefined) {
      return { player: ({ id, role }) => ({ id, role, index: playerIndex(id) }) };
    }
    const corrupted = new Set(corruptedPlayers(params, seed));
    const models: Record<string, string> = {};
    return {
      models,
      player({ id, role }) {
        const index = playerIndex(id);
        const model = models[id] = assignModel(
          { index, corrupted: corrupted.has(id) },
          policy as ModelPolicy,
        );
        return { id, role, index, model };
      },
    };
  },
};

/**
 * The Stag Hunt descriptor. Its `setup` takes `N`, `M`, `T`, `F`,
 * `payoffs`, `corruption` (see `parseStagHuntParams`) and `heterogeneity`
 * (default `"h1"`); its `mockAgents` the plain options of a grid's `mock`
 * entry (`StagHuntMockSpec`) and `seed`, or `mockStagHuntPlayers`' own
 * `threshold` and `always` options (not both for one kind of player).
 *
 * @example
 * ```ts
 * import { stagHuntGame } from "./descriptor.ts";
 * import { parseStagHuntParams } from "./params.ts";
 * const d = stagHuntGame.derive(parseStagHuntParams({ N: 5, M: 3, T: 4 }));
 * if (d.bounds.best !== 80 || (d.q_star as number).toFixed(4) !== "0.3857") throw new Error();
 * const s = stagHuntGame.setup({ N: 3, M: 2, T: 2, F: 1, heterogeneity: "h2" });
 * if (stagHuntGame.episodeId(s, 7) !== "staghunt_N3_M2_T2_F1_base_h2_s7") throw new Error();
 * ```
 */
export const stagHuntGame: Game<StagHuntParams> = {
  id: "staghunt",
  game: "staghunt",
  label: "Stag Hunt",
  environment: stagHunt,
  roles: { central: null, participant: { id: PLAYER_ROLE, label: "Player" } },
  mockPolicies: [{ role: PLAYER_ROLE, option: "players", policies: PLAYER_POLICIES }],
  mockPresets: STAGHUNT_MOCK_PRESETS,
  conditionKeys: STAGHUNT_CONDITION_KEYS,
  derivedKeys: ["bounds", "q_star"],
  view: STAGHUNT_VIEW,
  derive(p) {
    return { bounds: stagHuntBounds(p), q_star: qStar(p) };
  },
  setupKeys: ["N", "M", "T", "F", "payoffs", "corruption", "heterogeneity"],
  setup(fields) {
    const { N, M, T, F, corruption, payoffs, heterogeneity = "h1" } = fields;
    const input: Record<string, unknown> = {};
    // Only the fields given, as `runStagHuntEpisode` passes them.
    for (const [k, v] of Object.entries({ N, M, T, F, payoffs, corruption })) {
      if (v !== undefined) input[k] = v;
    }
    return stagHuntSetup(input, heterogeneity as HeterogeneityId);
  },
  mockAgents(options) {
    return mockStagHuntPlayers(stagHuntMockOf(options));
  },
  episodeId({ params: p, condition }, seed) {
    return `staghunt_N${p.N}_M${p.M}_T${p.T}_F${p.F}_${p.corruption}_${condition.fields.heterogeneity}_s${seed}`;
  },
  players: stagHuntPlayers,
  // Episodes of its mock players, outcome only (batched.ts).
  batched: stagHuntBatched,
  branch: {
    keys: ["M", "T", "F", "corruption", "payoffs", "heterogeneity"],
    apply: (c, change) => ({ ...c, ...change }),
  },
  prompts: stagHuntPrompts,
  // Notebook 04's mock players: carryover threshold players, 10% noise.
  paperMock: { players: "threshold", rule: "carryover", noise: 0.1 },
};

/** Resolved parameters and the recorded condition of a Stag Hunt episode. */
export interface StagHuntSetup {
  /** Validated parameters. */
  params: StagHuntParams;
  /** The condition to record. */
  condition: EpisodeCondition;
}

/**
 * Validates Stag Hunt parameters and builds the condition to record.
 *
 * @example
 * ```ts
 * import { stagHuntSetup } from "./descriptor.ts";
 * const { condition } = stagHuntSetup({ N: 5, M: 3, T: 4, F: 2, corruption: "b3" }, "h1");
 * if (condition.id !== "staghunt_N5_M3_T4_F2_b3_h1" || condition.fields.corruption !== "b3") throw new Error();
 * ```
 * @throws {RangeError} Naming a bad parameter.
 */
export function stagHuntSetup(input: unknown, heterogeneity: HeterogeneityId): StagHuntSetup {
  const key = setupKey(input, heterogeneity);
  const hit = key === undefined ? undefined : setupCache.get(key);
  if (hit) return copyData(hit);
  const made = resolveSetup(input, heterogeneity);
  if (key !== undefined) {
    if (setupCache.size >= SETUP_LIMIT) setupCache.clear();
    setupCache.set(key, copyData(made));
  }
  return made;
}

// Set-ups by input: validating the parameters and computing q* by bisection
// cost more than a whole mock episode. The cache hands out deep copies, so no
// two episodes share an object.
const setupCache = new Map<string, StagHuntSetup>();
const SETUP_LIMIT = 256;

/**
 * The cache key of an input made of numbers N, M, T, F, a corruption mode and
 * payoffs (four numbers, as a tuple or an object with exactly R_S, H_S, R_F,
 * H_F), each possibly missing; `undefined` (not cached) for any other input.
 */
function setupKey(input: unknown, heterogeneity: string): string | undefined {
  if (!isPlainObject(input)) return undefined;
  const { N, M, T, F, corruption, payoffs, ...rest } = input;
  for (const _ in rest) return undefined;
  for (const v of [N, M, T, F]) if (v !== undefined && !isPlainNumber(v)) return undefined;
  if (corruption !== undefined && typeof corruption !== "string") return undefined;
  let tuple: unknown[] | undefined;
  if (payoffs !== undefined) {
    tuple = Array.isArray(payoffs)
      ? payoffs
      : isPlainObject(payoffs)
      ? payoffsTuple(payoffs)
      : undefined;
    if (!tuple || tuple.length !== 4 || !tuple.every(isPlainNumber)) return undefined;
  }
  // Missing fields become null, which no accepted field is.
  return JSON.stringify([heterogeneity, N, M, T, F, corruption, tuple].map((v) => v ?? null));
}

function payoffsTuple(p: Record<string, unknown>): unknown[] | undefined {
  const keys = Object.keys(p);
  if (keys.length !== 4) return undefined;
  const { RS, HS, RF, HF } = p;
  return [RS, HS, RF, HF];
}

/** A number that writes back as itself (not -0, NaN or infinite). */
function isPlainNumber(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v) && !Object.is(v, -0);
}

function resolveSetup(input: unknown, heterogeneity: HeterogeneityId): StagHuntSetup {
  const params = parseStagHuntParams(input);
  const { N, M, T, F, corruption, payoffs } = params;
  const isDefault = payoffsLabel(payoffs) === payoffsLabel(DEFAULT_PAYOFFS);
  return {
    params,
    condition: {
      game: "staghunt",
      fields: { N, M, T, F, corruption, heterogeneity, payoffs: { ...payoffs } },
      id: `staghunt_N${N}_M${M}_T${T}_F${F}_${corruption}_${heterogeneity}${
        isDefault ? "" : `_pay${payoffsLabel(payoffs)}`
      }`,
      derived: stagHuntGame.derive(params),
      mechanism: "none",
      centralRole: null,
      centralId: null,
    },
  };
}

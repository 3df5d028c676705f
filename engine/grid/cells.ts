/**
 * Cell expansion: a spec becomes a flat, deterministically ordered list of
 * cells and of episodes, each episode with its seed and its id (the log's
 * file name without `.ndjson`).
 *
 * Order: cells in block order, and within a block in the nested order of its
 * factors (FRAIL: env, mechanism, regime, params, agents; Stag Hunt: N, M, T,
 * F, corruption, heterogeneity, agents; the paper's grid in its own order,
 * then agents). Episodes are replicate-major: replicate 0 of every cell, then
 * replicate 1, ..., so a run that stops part-way has covered every cell
 * about equally.
 *
 * Ids: FRAIL `bank_run_M0_stable[_p<hash>]_<agents>_e<k>`; Stag Hunt
 * `staghunt_N5_M3_T4_F2_base_h1[_pay<RS>-<HS>-<RF>-<HF>]_<agents>_e<k>`,
 * where `<agents>` is the entry's label (see `agentsLabel`) and `<hash>`
 * the short hash of the parameter overrides. Two cells with the same id are
 * refused with a `RangeError`.
 *
 * @module
 */
import type { EnvId, MechanismId } from "../frail/types.ts";
import type { RegimeId } from "../frail/params.ts";
import { GRID_CONDITIONS, stagHuntGrid } from "../games/staghunt/grid.ts";
import type { HeterogeneityId } from "../games/staghunt/heterogeneity.ts";
import { parseStagHuntParams, type StagHuntParams } from "../games/staghunt/params.ts";
import { DEFAULT_PAYOFFS } from "../games/staghunt/payoffs.ts";
import { agentsLabel, safePart } from "./labels.ts";
import { branchCells, type BranchParent, branchParents } from "./branch_block.ts";
import { branchLabel } from "../branch_episode.ts";
import { overridesId } from "../frail/descriptor.ts";
import { episodeSeed } from "./seeds.ts";
import { gameBlockCells, type GameCondition, isGameBlock } from "./_game_block.ts";
import type {
  AgentsSpec,
  FrailBlock,
  GridSpec,
  StagHuntAgentsSpec,
  StagHuntBlock,
} from "./spec.ts";

/** What a FRAIL cell plays, besides its agents. */
export interface FrailCondition {
  /** `"frail"`. */
  game: "frail";
  /** Environment. */
  env: EnvId;
  /** Mechanism. */
  mechanism: MechanismId;
  /** Regime. */
  regime: RegimeId;
  /** Parameter overrides on top of the regime preset. */
  params: Record<string, unknown>;
}

/** What a Stag Hunt cell plays, besides its agents: the game's parameters and a heterogeneity. */
export interface StagHuntCondition extends StagHuntParams {
  /** `"staghunt"`. */
  game: "staghunt";
  /** Heterogeneity (implemented by the cell's agents). */
  heterogeneity: HeterogeneityId;
}

/** What a branch cell plays (see `branch_block.ts`); an episode names its `parent`. */
export interface BranchCondition {
  /** `"branch"`. */
  game: "branch";
  /** The parent run folder, resolved. */
  from: string;
  /** The parents' game family (`episode_start.game`). */
  parentGame: string;
  /** The parents' game (`"mixed"` when they differ). */
  env: string;
  /** The branch round. */
  atRound: number;
  /** The change (`BranchChange`). */
  change: Record<string, unknown>;
  /** The parent episode (set on episodes, not on cells). */
  parent?: string;
}

/** A cell's condition. */
export type CellCondition = FrailCondition | StagHuntCondition | BranchCondition | GameCondition;

/**
 * The id of the game a cell's condition plays (its descriptor's, see
 * `gameDescriptor`): its `env` in a family of several games (FRAIL), else
 * its `game`. The condition itself holds the fields the game's `setup` takes.
 *
 * @example
 * ```ts
 * import { cellGameId } from "./cells.ts";
 * if (cellGameId({ game: "frail", env: "crowdfunding", mechanism: "M0", regime: "stable", params: {} }) !== "crowdfunding") {
 *   throw new Error();
 * }
 * ```
 */
export function cellGameId(condition: CellCondition): string {
  const { env, game } = condition as { env?: unknown; game: string };
  return typeof env === "string" ? env : game;
}

/** One cell: a condition and an agents entry, played `episodes` times. */
export interface GridCell {
  /** Cell id (episode ids add `_e<k>`). */
  id: string;
  /** Index of its block in the spec. */
  block: number;
  /** What is played. */
  condition: CellCondition;
  /** Who plays. */
  agents: AgentsSpec;
  /** Episodes of the cell. */
  episodes: number;
  /** A branch cell's parent episodes (its k-th episode branches the k-th). */
  parents?: BranchParent[];
}

/** One episode of a grid: everything needed to play it, as plain data. */
export interface GridEpisode {
  /** Episode id: the log is `<run folder>/<id>.ndjson`. */
  id: string;
  /** Position in the grid's order, from 0. */
  index: number;
  /** Run id (the spec's name). */
  run: string;
  /** Id of its cell. */
  cell: string;
  /** Replicate number within the cell, from 0. */
  replicate: number;
  /** Episode seed. */
  seed: number;
  /** What is played. */
  condition: CellCondition;
  /** Who plays. */
  agents: AgentsSpec;
}

/** What {@linkcode expandGrid} returns. */
export interface ExpandedGrid {
  /** Cells in order. */
  cells: GridCell[];
  /** Episodes in order. */
  episodes: GridEpisode[];
}

/**
 * Expands a validated spec into cells and episodes.
 *
 * @example
 * ```ts
 * import { expandGrid } from "./cells.ts";
 * import { parseGridSpec } from "./spec.ts";
 * const spec = parseGridSpec({ name: "demo", episodes: 2, blocks: [
 *   { game: "frail", envs: ["bank_run"], mechanisms: ["M0", "M3"] },
 * ] });
 * const { cells, episodes } = expandGrid(spec);
 * if (cells.length !== 2 || episodes.length !== 4) throw new Error();
 * if (episodes[1].id !== "bank_run_M3_stable_mock_e0") throw new Error(episodes[1].id);
 * ```
 * @throws {RangeError} For Stag Hunt factors out of range (naming the field) and for two cells with one id.
 */
export function expandGrid(spec: GridSpec): ExpandedGrid {
  const cells = expandCells(spec);
  return { cells, episodes: [...gridEpisodes(spec, cells)] };
}

/**
 * The cells of a validated spec, in order, each with its episode count.
 *
 * @example
 * ```ts
 * import { expandCells } from "./cells.ts";
 * import { parseGridSpec } from "./spec.ts";
 * const cells = expandCells(parseGridSpec({ episodes: 2, blocks: [{ game: "frail", envs: ["bank_run"] }] }));
 * if (cells.length !== 4 || cells[3].id !== "bank_run_M3_stable_mock") throw new Error();
 * ```
 * @throws {RangeError} For Stag Hunt factors out of range (naming the field) and for two cells with one id.
 */
export function expandCells(spec: GridSpec): GridCell[] {
  const cells: GridCell[] = [];
  spec.blocks.forEach((block, b) => {
    if (isGameBlock(block)) {
      const episodes = block.episodes ?? spec.episodes;
      for (const c of gameBlockCells(block, b, (a) => agentsLabel(a))) {
        cells.push({ ...c, block: b, episodes });
      }
      return;
    }
    if (block.game === "branch") {
      for (const c of branchCells(block, b)) {
        cells.push({ ...c, block: b, episodes: c.parents.length });
      }
      return;
    }
    const episodes = block.episodes ?? spec.episodes;
    const out = block.game === "frail" ? frailCells(block) : stagHuntCells(block, b);
    for (const c of out) cells.push({ ...c, block: b, episodes });
  });
  const seen = new Map<string, GridCell>();
  for (const c of cells) {
    const prior = seen.get(c.id);
    if (prior) {
      throw new RangeError(
        `Invalid grid spec "blocks.${c.block}": cell "${c.id}" also comes from blocks.${prior.block}; ` +
          `remove the repeat, or give the agents entries distinct "label"s`,
      );
    }
    seen.set(c.id, c);
  }
  return cells;
}

/**
 * The episodes of a spec's cells, in grid order (replicate-major), one at a
 * time: a long grid is never held in memory whole.
 *
 * @example
 * ```ts
 * import { expandCells, gridEpisodes } from "./cells.ts";
 * import { parseGridSpec } from "./spec.ts";
 * const spec = parseGridSpec({ episodes: 2, blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0"] }] });
 * const ids = [...gridEpisodes(spec, expandCells(spec))].map((e) => e.id);
 * if (ids.join() !== "bank_run_M0_stable_mock_e0,bank_run_M0_stable_mock_e1") throw new Error();
 * ```
 */
export function* gridEpisodes(
  spec: GridSpec,
  cells: readonly GridCell[],
): Generator<GridEpisode> {
  const most = cells.reduce((m, c) => Math.max(m, c.episodes), 0);
  const keys = cells.map((c) => seedKey(c, spec.pairSeeds));
  let index = 0;
  for (let k = 0; k < most; k++) {
    for (let i = 0; i < cells.length; i++) {
      const c = cells[i];
      if (k >= c.episodes) continue;
      if (c.parents !== undefined) {
        // A branch: the k-th parent's episode, with its seed.
        const p = c.parents[k];
        const many = spec.blocks[c.block].agents.length > 1;
        const condition = c.condition as BranchCondition;
        yield {
          id: `${p.episode}_b${condition.atRound}_${branchLabel(condition.change)}${
            many ? `_${agentsLabel(c.agents)}` : ""
          }`,
          index: index++,
          run: spec.name,
          cell: c.id,
          replicate: k,
          seed: p.seed,
          condition: { ...condition, parent: p.episode },
          agents: c.agents,
        };
        continue;
      }
      yield {
        id: `${c.id}_e${k}`,
        index: index++,
        run: spec.name,
        cell: c.id,
        replicate: k,
        seed: episodeSeed(keys[i], { base: spec.seed, replicate: k }),
        condition: c.condition,
        agents: c.agents,
      };
    }
  }
}

/**
 * The number of episodes a validated spec expands to, counted from its
 * factors without expanding it (a spec that repeats a cell or sets a Stag
 * Hunt factor out of range is counted as written; expanding it then fails).
 *
 * @example
 * ```ts
 * import { countGridEpisodes } from "./cells.ts";
 * import { parseGridSpec } from "./spec.ts";
 * const spec = parseGridSpec({ episodes: 1_000_000, blocks: [
 *   { game: "frail", envs: ["bank_run", "debt_rollover", "crowdfunding"], regimes: ["expansion", "stable", "contraction"] },
 * ] });
 * if (countGridEpisodes(spec) !== 36_000_000) throw new Error();
 * ```
 */
export function countGridEpisodes(spec: GridSpec): number {
  let total = 0;
  spec.blocks.forEach((block, b) => {
    if (isGameBlock(block)) {
      total += (block.episodes ?? spec.episodes) * block.conditions.length * block.agents.length;
      return;
    }
    if (block.game === "branch") {
      total += branchParents(block, b).length * block.rounds.length * block.changes.length *
        block.agents.length;
      return;
    }
    const episodes = block.episodes ?? spec.episodes;
    total += episodes *
      (block.game === "frail"
        ? block.envs.length * block.mechanisms.length * block.regimes.length *
          block.params.length * block.agents.length
        : countStagHuntCells(block, b));
  });
  return total;
}

function countStagHuntCells(block: StagHuntBlock, b: number): number {
  const agentsFor = (h: HeterogeneityId) =>
    block.agents.filter((a) => heterogeneityOf(a) === h).length;
  if (block.paper) {
    return stagHuntPoints(block, b).points.reduce((n, p) => n + agentsFor(p.heterogeneity), 0);
  }
  const perPoint = (block.T ?? [4]).length * (block.corruption ?? ["base"]).length *
    (block.heterogeneity ?? ["h1"]).reduce((n, h) => n + agentsFor(h), 0);
  const F = block.F ?? [0];
  let cells = 0;
  for (const N of block.N ?? [5]) {
    const Ms = block.M === "all" ? N : (block.M ?? [3]).length;
    const Fs = Array.isArray(F) ? F.length : F[String(N)]?.length ?? 0;
    cells += Ms * Fs * perPoint;
  }
  return cells;
}

/** What a cell's seeds depend on: its condition, and its agents unless seeds are paired. */
function seedKey(c: GridCell, paired: boolean): unknown {
  if (paired) {
    if (c.condition.game === "staghunt") {
      const { heterogeneity: _h, ...rest } = c.condition;
      return rest;
    }
    return c.condition;
  }
  const { label: _label, ...agents } = c.agents;
  return { condition: c.condition, agents };
}

type CellDraft = Omit<GridCell, "block" | "episodes">;

function frailCells(block: FrailBlock): CellDraft[] {
  const out: CellDraft[] = [];
  for (const env of block.envs) {
    for (const mechanism of block.mechanisms) {
      for (const regime of block.regimes) {
        for (const params of block.params) {
          const oid = overridesId(params);
          const p = oid === "none" ? "" : `_${oid}`;
          for (const agents of block.agents) {
            out.push({
              id: `${env}_${mechanism}_${regime}${p}_${agentsLabel(agents, env)}`,
              condition: { game: "frail", env, mechanism, regime, params },
              agents,
            });
          }
        }
      }
    }
  }
  return out;
}

/** A point of a Stag Hunt block: its condition but for the block's payoffs. */
type Point = Omit<StagHuntCondition, "game" | "payoffs">;

function heterogeneityOf(a: StagHuntAgentsSpec): HeterogeneityId {
  return a.kind === "models" ? a.models.kind : "h1";
}

function stagHuntPoints(block: StagHuntBlock, b: number): { points: Point[]; field: string } {
  if (block.paper) {
    const p = block.paper;
    const include = new Set<string>(p.include ?? GRID_CONDITIONS);
    const grid = stagHuntGrid({ seed: p.seed, ablationPoints: p.ablationPoints, N: p.N, T: p.T });
    return {
      points: grid.filter((c) => include.has(c.condition)),
      field: "paper.include",
    };
  }
  const points: Point[] = [];
  const corruption = block.corruption ?? ["base"];
  const heterogeneity = block.heterogeneity ?? ["h1"];
  for (const N of block.N ?? [5]) {
    const Ms = block.M === "all" ? Array.from({ length: N }, (_, i) => i + 1) : block.M ?? [3];
    const F = block.F ?? [0];
    const Fs = Array.isArray(F) ? F : F[String(N)];
    if (!Fs) {
      throw new RangeError(
        `Invalid grid spec "blocks.${b}.F": no list of corrupted-player counts for N = ${N} ` +
          `(the record has ${Object.keys(F).map((k) => `"${k}"`).join(", ")})`,
      );
    }
    for (const M of Ms) {
      if (M > N) {
        throw new RangeError(
          `Invalid grid spec "blocks.${b}.M": ${M} is not in 1..N = 1..${N} for N = ${N}`,
        );
      }
      for (const T of block.T ?? [4]) {
        for (const f of Fs) {
          if (f > N) {
            throw new RangeError(
              `Invalid grid spec "blocks.${b}.F": ${f} is not in 0..N = 0..${N} for N = ${N}`,
            );
          }
          for (const c of corruption) {
            for (const h of heterogeneity) {
              points.push({ N, M, T, F: f, corruption: c, heterogeneity: h });
            }
          }
        }
      }
    }
  }
  return { points, field: "heterogeneity" };
}

function stagHuntCells(block: StagHuntBlock, b: number): CellDraft[] {
  const { points, field } = stagHuntPoints(block, b);
  const payoffs = block.payoffs;
  try {
    parseStagHuntParams({ payoffs });
  } catch (err) {
    throw new RangeError(`Invalid grid spec "blocks.${b}.payoffs": ${(err as Error).message}`);
  }
  const { RS, HS, RF, HF } = payoffs;
  const isDefault = RS === DEFAULT_PAYOFFS.RS && HS === DEFAULT_PAYOFFS.HS &&
    RF === DEFAULT_PAYOFFS.RF && HF === DEFAULT_PAYOFFS.HF;
  const pay = isDefault ? "" : `_pay${safePart(`${RS}-${HS}-${RF}-${HF}`)}`;
  const out: CellDraft[] = [];
  const unmatched = new Set<HeterogeneityId>();
  for (const p of points) {
    const agents = block.agents.filter((a) => heterogeneityOf(a) === p.heterogeneity);
    if (agents.length === 0) unmatched.add(p.heterogeneity);
    for (const a of agents) {
      out.push({
        id: `staghunt_N${p.N}_M${p.M}_T${p.T}_F${p.F}_${p.corruption}_${p.heterogeneity}${pay}_${
          agentsLabel(a)
        }`,
        condition: { game: "staghunt", ...p, payoffs },
        agents: a,
      });
    }
  }
  if (unmatched.size > 0) {
    const h = [...unmatched][0];
    const hint = h === "h1"
      ? `{ "model": "<id>" } or { "mock": {} }`
      : h === "h2"
      ? `{ "models": { "kind": "h2", "pool": [...] } }`
      : `{ "models": { "kind": "h3", "strong": "<id>", "weak": "<id>" } }`;
    throw new RangeError(
      `Invalid grid spec "blocks.${b}.${field}": "${h}" has no agents entry that implements it ` +
        `(add ${hint} to "agents", or drop "${h}")`,
    );
  }
  return out;
}

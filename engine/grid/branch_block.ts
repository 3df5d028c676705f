/**
 * Branch blocks of a grid: the parents a block reads from a finished run
 * folder, its cells, and the runner that plays a branch (`branchEpisode`
 * with the parent's log).
 *
 * Choices:
 * - The parent folder is read (every `*.ndjson` under it, per-episode files
 *   and segments alike, with the segment readers) when the grid is planned,
 *   and again by the runner for the parent's events; an episode logged twice,
 *   a parent that ended in an error, or a filter that keeps nothing is
 *   refused, naming the block. A parent that is itself a branch is branched
 *   like any other (a branch of a branch).
 * - Parents are in episode-id order; a cell's k-th episode branches its k-th
 *   parent, with the parent's seed (so a resume plays the same branches).
 * - A branch the game refuses at its round (a mechanism switch while a
 *   commitment binds, a round the parent did not play) stops the run with
 *   that error, as a bad cell does; filter such parents out.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { gameDescriptor } from "../games/registry.ts";
import { branchEpisode, branchLabel } from "../branch_episode.ts";
import type { EngineEvent } from "../core/events.ts";
import { parseEpisodeLog } from "../core/log_file.ts";
import { agentsLabel } from "./labels.ts";
import type { BranchCondition, BranchParent, GridCell } from "./cell.ts";
import type { EpisodeRunner, GridAgentFactory, PlayedText } from "./episode_runner.ts";
import { playedText } from "./_played_text.ts";
import { readCommittedBytes } from "./segments.ts";
import type { BranchBlock } from "./spec.ts";

export type { BranchParent };

/**
 * The parent episodes of a branch block, in episode-id order.
 *
 * @example
 * ```ts
 * import { branchParents } from "./branch_block.ts";
 * import { runEpisode } from "../run_episode.ts";
 * const dir = await Deno.makeTempDir();
 * await runEpisode({ env: "bank_run", seed: 2, run: "p", outDir: dir });
 * const [p] = branchParents({ game: "branch", from: `${dir}/p`, rounds: [2], changes: [{}], agents: [] }, 0);
 * if (p.episode !== "bank_run_M0_stable_s2" || p.seed !== 2) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 * @throws {RangeError} Naming the block, for a missing folder, an episode logged twice, a
 * failed parent, or a filter that keeps nothing.
 */
export function branchParents(block: BranchBlock, b: number): BranchParent[] {
  const logs = readParents(block.from, b);
  const keep = block.filter;
  const out: BranchParent[] = [];
  for (const [episode, events] of logs) {
    const start = events.find((e) => e.type === "episode_start");
    const end = events.find((e) => e.type === "episode_end");
    if (start?.type !== "episode_start" || end?.type !== "episode_end") {
      throw new RangeError(
        `Invalid grid spec "blocks.${b}.from": episode "${episode}" of "${block.from}" is incomplete`,
      );
    }
    if (keep?.condition_id && !keep.condition_id.includes(start.condition_id)) continue;
    if (keep?.episodes && !keep.episodes.includes(episode)) continue;
    if (end.status === "error") {
      throw new RangeError(
        `Invalid grid spec "blocks.${b}.from": episode "${episode}" of "${block.from}" ended in an ` +
          `error; filter it out to branch the others`,
      );
    }
    out.push({
      episode,
      seed: start.seed,
      game: start.game,
      env: start.env,
      conditionId: start.condition_id,
    });
  }
  if (out.length === 0) {
    throw new RangeError(
      `Invalid grid spec "blocks.${b}": no episode of "${block.from}" to branch${
        keep ? " (the filter keeps none)" : ""
      }`,
    );
  }
  return out;
}

/** The cells of a branch block, with their parents: one per (round, change, agents). */
export function branchCells(
  block: BranchBlock,
  b: number,
): (Omit<GridCell, "block" | "episodes"> & { parents: BranchParent[] })[] {
  const parents = branchParents(block, b);
  const from = resolve(block.from);
  const games = new Set(parents.map((p) => p.game));
  if (games.size > 1) {
    throw new RangeError(
      `Invalid grid spec "blocks.${b}.from": "${block.from}" holds both FRAIL and Stag Hunt ` +
        `episodes; filter to one game`,
    );
  }
  const game = parents[0].game;
  const envs = new Set(parents.map((p) => p.env));
  const env = envs.size === 1 ? parents[0].env : "mixed";
  const out: (Omit<GridCell, "block" | "episodes"> & { parents: BranchParent[] })[] = [];
  const base = from.split("/").at(-1)!;
  for (const atRound of block.rounds) {
    for (const change of block.changes) {
      const label = branchLabel(change);
      for (const agents of block.agents) {
        const suffix = block.agents.length > 1 ? `_${agentsLabel(agents)}` : "";
        const condition: BranchCondition = {
          game: "branch",
          from,
          parentGame: game,
          env,
          atRound,
          change,
        };
        out.push({
          id: `branch_${base}_b${atRound}_${label}${suffix}`,
          condition,
          agents,
          parents,
        });
      }
    }
  }
  return out;
}

// Parent logs by folder, read once per process (the runner reads them for
// every branch of the folder).
const cache = new Map<string, Map<string, EngineEvent[]>>();

function readParents(from: string, b: number): Map<string, EngineEvent[]> {
  const dir = resolve(from);
  const hit = cache.get(dir);
  if (hit) return hit;
  let files: string[];
  try {
    files = logFiles(dir);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new RangeError(`Invalid grid spec "blocks.${b}.from": no folder "${from}"`);
    }
    throw err;
  }
  const found = new Map<string, { file: string; events: EngineEvent[] }>();
  for (const file of files) {
    const events = parseEpisodeLog(new TextDecoder().decode(readCommittedBytes(file)), file);
    const byKey = new Map<string, EngineEvent[]>();
    for (const e of events) {
      const list = byKey.get(e.episode) ?? [];
      list.push(e);
      byKey.set(e.episode, list);
    }
    for (const [episode, list] of byKey) {
      const prior = found.get(episode);
      if (prior) {
        throw new RangeError(
          `Invalid grid spec "blocks.${b}.from": episode "${episode}" is logged twice ` +
            `("${prior.file}" and "${file}")`,
        );
      }
      found.set(episode, { file, events: list });
    }
  }
  const sorted = new Map(
    [...found.entries()].sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0)).map((
      [k, v],
    ) => [k, v.events]),
  );
  cache.set(dir, sorted);
  return sorted;
}

/** Every `.ndjson` file under a folder (any depth), sorted, but a viewer site. */
function logFiles(dir: string): string[] {
  const out: string[] = [];
  const entries = [...Deno.readDirSync(dir)].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0
  );
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory && e.name !== "view") out.push(...logFiles(path));
    else if (e.isFile && e.name.endsWith(".ndjson")) out.push(path);
  }
  return out;
}

/**
 * Forgets the parent logs read so far (a parent folder that changed is read again).
 *
 * @example
 * ```ts
 * import { forgetBranchParents } from "./branch_block.ts";
 * forgetBranchParents();
 * ```
 */
export function forgetBranchParents(): void {
  cache.clear();
}

/**
 * The runner of branch episodes: `branchEpisode` with the parent's log and
 * the episode's agents from the branch round on.
 *
 * @example
 * ```ts
 * import { branchRunner } from "./branch_block.ts";
 * import { runEpisode } from "../run_episode.ts";
 * const dir = await Deno.makeTempDir();
 * await runEpisode({ env: "bank_run", seed: 2, run: "p", outDir: dir });
 * const ep = { id: "b", index: 0, run: "r", cell: "c", replicate: 0, seed: 2,
 *   condition: { game: "branch", from: `${dir}/p`, parentGame: "frail", env: "bank_run", atRound: 2,
 *     change: { mechanism: "M3" }, parent: "bank_run_M0_stable_s2" },
 *   agents: { kind: "mock", mock: {} } } as const;
 * const events = await branchRunner.play(ep as never, branchRunner.mockAgents(ep as never));
 * const start = events[0];
 * if (start.type !== "episode_start" || start.branch_of?.round !== 2) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export const branchRunner: EpisodeRunner = {
  check(cell) {
    // Every parent's game is one this process can play.
    for (const p of cell.parents ?? []) gameDescriptor(p.env);
  },
  mockAgents(ep) {
    const c = ep.condition as BranchCondition;
    const mock = ep.agents.kind === "mock" ? ep.agents.mock : {};
    return gameDescriptor(parentEnv(c)).mockAgents({ seed: ep.seed, ...mock });
  },
  async play(ep, agents): Promise<EngineEvent[]> {
    return (await run(ep, agents, false)).events;
  },
  async playText(ep, agents): Promise<PlayedText> {
    const r = await run(ep, agents, true);
    return playedText(r);
  },
};

/** The game of a branch episode's parent: the block's, or (parents of several games) its log's. */
function parentEnv(c: BranchCondition): string {
  if (c.env !== "mixed") return c.env;
  const start = readParents(c.from, 0).get(c.parent!)?.find((e) => e.type === "episode_start");
  if (start?.type !== "episode_start") {
    throw new RangeError(`Branch of "${c.parent}": no such parent in "${c.from}"`);
  }
  return start.env;
}

function run(ep: Parameters<EpisodeRunner["play"]>[0], agents: GridAgentFactory, text: boolean) {
  const c = ep.condition as BranchCondition;
  const events = readParents(c.from, 0).get(c.parent!);
  if (events === undefined) {
    throw new RangeError(`Branch "${ep.id}": no parent "${c.parent}" in "${c.from}"`);
  }
  return branchEpisode(events, {
    atRound: c.atRound,
    change: c.change,
    agents: agents as never,
    run: ep.run,
    episode: ep.id,
    ndjson: text,
    events: !text,
  });
}

/**
 * `showDiff`: two episodes side by side in a notebook or a file, aligned by
 * round (`diffEpisodes`), the first divergence highlighted; made for a
 * branch and its parent (`branchEpisode`).
 *
 * @module
 */
import { diffEpisodes, type EpisodeDiff } from "../../engine/core/episode_diff.ts";
import type { EngineEvent } from "../../engine/core/events.ts";
import { jupyterDisplay } from "../../engine/core/jupyter.ts";
import { diffFragment, diffPage } from "./_diff_html.ts";

/** An episode to diff: its events, or a result that has them. */
export type DiffSource = readonly EngineEvent[] | { readonly events: readonly EngineEvent[] };

/** The MIME bundle of a diff. */
export interface DiffBundle {
  /** The side-by-side view. */
  "text/html": string;
  /** One line: the two episodes and the first divergence. */
  "text/plain": string;
}

function eventsOf(source: DiffSource, side: string): readonly EngineEvent[] {
  if (Array.isArray(source)) return source;
  const events = (source as { events?: unknown }).events;
  if (!Array.isArray(events)) {
    throw new TypeError(
      `Cannot diff: ${side} is neither a list of events nor a result with events`,
    );
  }
  return events;
}

function plain(d: EpisodeDiff): string {
  return `Diff of ${d.a} and ${d.b}: ${
    d.firstRound === null ? "no round differs" : `first divergence in round ${d.firstRound}`
  } (${d.rounds.length} rounds)`;
}

/**
 * The diff of two episodes as a MIME bundle (HTML fragment with its own
 * scoped style, no script; every logged value escaped).
 *
 * @example
 * ```ts
 * import { diffBundle } from "./show_diff.ts";
 * import { runEpisode } from "../../engine/run_episode.ts";
 * import { branchEpisode } from "../../engine/branch_episode.ts";
 * const parent = await runEpisode({ env: "bank_run", seed: 3, hashes: true });
 * const b = await branchEpisode(parent.events, { atRound: 2, change: { mechanism: "M3" }, agents: {} });
 * const bundle = diffBundle(parent, b);
 * if (!bundle["text/plain"].includes("first divergence in round 2")) throw new Error(bundle["text/plain"]);
 * if (!bundle["text/html"].includes('id="first-divergence"')) throw new Error();
 * ```
 */
export function diffBundle(a: DiffSource, b: DiffSource): DiffBundle {
  const ea = eventsOf(a, "a");
  const eb = eventsOf(b, "b");
  const d = diffEpisodes(ea, eb);
  return { "text/html": diffFragment(d, ea, eb), "text/plain": plain(d) };
}

/**
 * Shows the diff of two episodes in the notebook: inside the Deno Jupyter
 * kernel it sends {@linkcode diffBundle}'s bundle and returns `undefined`;
 * anywhere else it returns the bundle.
 *
 * @example
 * ```ts
 * import { showDiff } from "./show_diff.ts";
 * import { runStagHuntEpisode } from "../../engine/run_staghunt_episode.ts";
 * const a = await runStagHuntEpisode({ F: 2, seed: 1, hashes: true });
 * const bundle = await showDiff(a, a);
 * if (!bundle?.["text/plain"].includes("no round differs")) throw new Error();
 * ```
 */
export async function showDiff(a: DiffSource, b: DiffSource): Promise<DiffBundle | undefined> {
  const bundle = diffBundle(a, b);
  const display = jupyterDisplay();
  if (display === undefined) return bundle;
  await display(bundle, { raw: true });
  return undefined;
}

/**
 * Writes the diff of two episodes as a self-contained page (no script, no
 * network) and returns its path.
 *
 * @example
 * ```ts
 * import { writeDiffPage } from "./show_diff.ts";
 * import { runEpisode } from "../../engine/run_episode.ts";
 * const a = await runEpisode({ env: "bank_run", seed: 1, hashes: true });
 * const dir = await Deno.makeTempDir();
 * const path = await writeDiffPage(a, a, `${dir}/diff.html`);
 * if (!Deno.readTextFileSync(path).startsWith("<!doctype html>")) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeDiffPage(a: DiffSource, b: DiffSource, path: string): Promise<string> {
  const ea = eventsOf(a, "a");
  const eb = eventsOf(b, "b");
  await Deno.writeTextFile(path, diffPage(diffEpisodes(ea, eb), ea, eb));
  return path;
}

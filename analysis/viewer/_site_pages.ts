// Writes the episode pages of one log file of a run site and returns an index
// entry per episode block. Used in the calling thread for small runs and by
// `_site_worker.ts` for large ones.
//
// Page paths are `episodes/<run>/<episode>.html` with both ids made
// file-name safe by `safeName`, which is injective: the characters other than
// letters, digits, `_`, `-` and `.` (and a leading `.`) become `~` and their
// UTF-8 bytes in hex, `~` included. Very long ids are cut and suffixed with a
// hash.

import type { CostCurrency } from "./_currency.ts";
import type { EngineEvent } from "../../engine/core/events.ts";
import { relative } from "node:path";
import { chartSvg } from "./_chart_svg.ts";
import { episodeChart } from "./_chart.ts";
import { gameView, type ViewedGame } from "./_game_view.ts";
import { episodePage } from "./_episode_html.ts";
import { episodeModel } from "./_episode_model.ts";
import { isRecord } from "./_condition.ts";
import { paramsText, valueText } from "./_format.ts";
import { type LoggedEpisode, type MalformedLine, readLogFile } from "./_log_source.ts";
import { type EpisodeUsage, searchCalls, usageOf } from "./_usage.ts";

/** One episode block of the run, as the index lists it. */
export interface IndexEntry {
  /** Page path relative to the site folder. */
  page: string;
  /** Run id. */
  run: string;
  /** Episode id. */
  episode: string;
  /** Game id. */
  game: string | null;
  /** The condition, each value a number, boolean or text. */
  condition: Record<string, string | number | boolean | null>;
  /** Condition label, if logged. */
  conditionId: string | null;
  /** Model of the participants. */
  model: string | null;
  /** Seed. */
  seed: number | null;
  /** Status. */
  status: string;
  /** Success. */
  success: boolean | null;
  /** Failure kind. */
  failure: string | null;
  /** Rounds played. */
  rounds: number | null;
  /** W. */
  welfare: number | null;
  /** W~. */
  realization: number | null;
  /** Flips (public actions that differ from the player's own). */
  flips: number;
  /** Whether the game's view always counts flips (the index then has a flips column). */
  flipsShown: boolean;
  /** Corrections. */
  corrections: number;
  /** Overrides. */
  overrides: number;
  /** Agent errors. */
  agentErrors: number;
  /** Model calls. */
  llmCalls: number;
  /** Tokens. */
  tokens: number;
  /** Model-call usage (calls, cache hits, failures, tokens, cost), in total and per model. */
  usage: EpisodeUsage;
  /** The log file, relative to the run folder. */
  file: string;
  /** Block number of this (run, episode) in the file, from 1. */
  block: number;
  /** Blocks of this (run, episode) in the file. */
  blocks: number;
  /** For a branch (`episode_start.branch_of`): its parent and branch round. */
  branchOf: { run: string; episode: string; round: number } | null;
}

/** Where and how pages are written. */
export interface PageContext {
  /** The run folder (log paths in the index are relative to it). */
  dir: string;
  /** The site folder. */
  out: string;
  /** Draw trajectory charts. */
  charts: boolean;
  /** Put the messages sent (when logged) in the search shards, beside replies and reasoning. */
  searchPrompts: boolean;
  /** The registered games, as the viewer reads them (a snapshot, sent to worker threads). */
  games: readonly ViewedGame[];
  /** The currency of the costs on the pages (the run manifests'). */
  currency: CostCurrency;
}

/**
 * Chooses the page path of a block; the site writer passes a renamer for
 * (run, episode) pairs that occur more than once, returning `null` for
 * blocks it does not want rewritten.
 */
export type PagePath = (block: LoggedEpisode, base: string) => string | null;

/** Options of {@linkcode writeFilePages}. */
export interface FilePagesOptions {
  /** Chooses page paths (default: the base page of each block). */
  pagePath?: PagePath;
  /**
   * Writes the file's transcript search shard as `search/<shard>.js` in the
   * site folder (only when the file has model-call texts).
   */
  shard?: number;
}

/** What {@linkcode writeFilePages} wrote for one log file. */
export interface FilePagesResult {
  /** One entry per episode block written. */
  entries: IndexEntry[];
  /** Lines skipped. */
  malformed: MalformedLine[];
  /** Texts written to the search shard (0: no shard written). */
  searchTexts: number;
  /** Whether the shard holds prompt messages. */
  searchPrompts: boolean;
}

const made = new Set<string>();

/**
 * Reads one log file, writes a page per episode block (and, when asked, the
 * file's search shard), returns the index entries.
 */
export async function writeFilePages(
  path: string,
  ctx: PageContext,
  options: FilePagesOptions = {},
): Promise<FilePagesResult> {
  const pagePath = options.pagePath ?? ((_block, base) => base);
  const contents = await readLogFile(path);
  const entries: IndexEntry[] = [];
  // Shard rows: [entry position in this file, seq, round, agent, call, kind, text].
  const texts: (string | number)[][] = [];
  for (const block of contents.episodes) {
    const page = pagePath(block, basePage(block.run, block.episode));
    if (page === null) continue;
    if (options.shard !== undefined) {
      for (const call of searchCalls(block.events, ctx.searchPrompts)) {
        for (const [kind, text] of call.texts) {
          texts.push([entries.length, call.seq, call.round, call.agent, call.call, kind, text]);
        }
      }
    }
    const model = episodeModel(block.events);
    const view = gameView(model.header?.env ?? null, model.header?.game ?? null, ctx.games);
    const chart = ctx.charts ? episodeChart(model, view) : null;
    const notes = block.blocks > 1
      ? [
        `This log holds ${block.blocks} blocks of this episode (it was played more than once); this is block ${block.block}.`,
      ]
      : [];
    const branchOf = branchOfBlock(block.events as unknown as EngineEvent[]);
    const html = episodePage(model, {
      chart: chart === null ? undefined : await chartSvg(chart.spec),
      chartCaption: chart?.caption,
      notes,
      view,
      currency: ctx.currency,
      nav: {
        index: "../../index.html",
        ...(branchOf === null ? {} : {
          links: [
            {
              href: `../../${basePage(branchOf.run, branchOf.episode)}`,
              label: `↑ parent ${branchOf.episode}`,
            },
            {
              href: `../../${diffPagePath(page)}`,
              label: `diff with the parent (round ${branchOf.round})`,
            },
          ],
        }),
      },
    });
    const folder = `${ctx.out}/${page.slice(0, page.lastIndexOf("/"))}`;
    if (!made.has(folder)) {
      await Deno.mkdir(folder, { recursive: true });
      made.add(folder);
    }
    await Deno.writeTextFile(`${ctx.out}/${page}`, html);
    const h = model.header;
    const o = model.outcome;
    const condition: IndexEntry["condition"] = {};
    // The index shows the keys that identify a condition (the game's
    // descriptor lists them); the episode page shows every condition field.
    const known = ctx.games.find((g) => g.id === h?.env);
    const keys = known?.conditionKeys ?? Object.keys(h?.condition ?? {});
    for (const [key, value] of Object.entries(h?.condition ?? {})) {
      if (!keys.includes(key)) continue;
      const overrides = h?.condition.overrides;
      if (key === "overrides_id" && isRecord(overrides)) {
        // The parameters the id stands for, in words, rather than its hash;
        // a named set by its name first.
        const name = h?.condition.overrides_name;
        const words = Object.keys(overrides).length === 0 ? "defaults" : paramsText(overrides);
        condition[key] = typeof name === "string" ? `${name} (${words})` : words;
        continue;
      }
      condition[key] = typeof value === "number" || typeof value === "boolean" || value === null
        ? value
        : isRecord(value)
        ? paramsText(value)
        : valueText(value);
    }
    entries.push({
      page,
      run: block.run,
      episode: block.episode,
      game: h?.game ?? null,
      condition,
      conditionId: h?.conditionId ?? null,
      model: h?.model ?? null,
      seed: h?.seed ?? null,
      status: model.status,
      success: o?.success ?? null,
      failure: o?.failure ?? null,
      rounds: o?.rounds ?? null,
      welfare: o?.welfare ?? null,
      realization: o?.realization ?? null,
      flips: model.counts.flips,
      flipsShown: view.flips,
      corrections: model.counts.corrections,
      overrides: model.counts.overrides,
      agentErrors: model.counts.agentErrors,
      llmCalls: model.counts.llmCalls,
      tokens: model.counts.tokens,
      usage: usageOf(block.events),
      file: relative(ctx.dir, path),
      block: block.block,
      blocks: block.blocks,
      branchOf,
    });
  }
  if (texts.length > 0) {
    if (!made.has(`${ctx.out}/search`)) {
      await Deno.mkdir(`${ctx.out}/search`, { recursive: true });
      made.add(`${ctx.out}/search`);
    }
    // JSON is valid JavaScript; the index page loads the shard as a script
    // (a page opened from disk cannot fetch files) and draws its texts with
    // `textContent` only.
    await Deno.writeTextFile(
      `${ctx.out}/${searchShardPath(options.shard!)}`,
      `coordlabSearch(${options.shard},${JSON.stringify(texts)});\n`,
    );
  }
  return {
    entries,
    malformed: contents.malformed,
    searchTexts: texts.length,
    searchPrompts: texts.some((t) => String(t[5]).startsWith("prompt")),
  };
}

/** The path of a search shard, relative to the site folder. */
export function searchShardPath(shard: number): string {
  return `search/${shard}.js`;
}

/** The diff page of a branch's episode page (`episodes/...` becomes `diffs/...`). */
export function diffPagePath(page: string): string {
  return `diffs/${page.slice("episodes/".length)}`;
}

/** The parent a block's `episode_start` names, if it is a branch. */
function branchOfBlock(events: readonly EngineEvent[]): IndexEntry["branchOf"] {
  const start = events.find((e) => e.type === "episode_start");
  const of = start?.type === "episode_start" ? start.branch_of : undefined;
  return of === undefined ? null : { run: of.run, episode: of.episode, round: of.round };
}

/** Forgets which page folders exist (the site writer clears them before a build). */
export function resetMadeFolders(): void {
  made.clear();
}

/** The page path of a (run, episode) pair, before any renaming of duplicates. */
export function basePage(run: string, episode: string): string {
  return `episodes/${safeName(run)}/${safeName(episode)}.html`;
}

/** Makes an id file-name safe, injectively (see the module notes). */
export function safeName(id: string): string {
  let out = "";
  for (const char of id) {
    if (/[A-Za-z0-9_.-]/.test(char) && !(out === "" && char === ".")) out += char;
    else {
      for (const byte of new TextEncoder().encode(char)) {
        out += `~${byte.toString(16).toUpperCase().padStart(2, "0")}`;
      }
    }
  }
  if (out === "") return "~";
  if (out.length <= 150) return out;
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(id)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return `${out.slice(0, 140)}~~${hash.toString(16).padStart(8, "0")}`;
}

// Shards that cannot lie: a folder of shard folders loads only as the whole
// grid. Each grid folder's manifest records its plan (spec hash, shard i/n,
// the count and hash of the episode ids it owns); the loaders check, for
// every run whose folders include a shard, that the folders hold one plan,
// every index 0..n-1 once, and in each folder exactly the episodes it owns.
import { dirname, join, resolve } from "node:path";
import type pl from "npm:nodejs-polars@0.25.2";
import { type GridManifest, MANIFEST_FILE } from "../../engine/grid/manifest.ts";
import { planGrid } from "../../engine/grid/plan.ts";
import { episodesHash } from "../../engine/grid/shard.ts";
import type { DuplicateEpisode } from "./_event_scan.ts";

/** A grid folder (one holding `manifest.json`) and its manifest. */
interface GridFolder {
  dir: string;
  manifest: GridManifest;
}

/**
 * A folder of shards that does not hold its whole grid exactly once: a
 * missing shard or episode, a shard in two folders, two plans, an episode
 * in two shards. `problems` lists each, naming the shards and folders.
 *
 * @example
 * ```ts
 * import { ShardSetError } from "./_shard_set.ts";
 * const e = new ShardSetError(['Run "x": 1 of its 2 shards is missing: 0/2']);
 * if (!(e instanceof RangeError) || e.problems.length !== 1) throw new Error();
 * if (!e.message.endsWith('\n- Run "x": 1 of its 2 shards is missing: 0/2')) throw new Error();
 * ```
 */
export class ShardSetError extends RangeError {
  /** One sentence per problem. */
  readonly problems: string[];
  /** Builds the error from its problems. */
  constructor(problems: string[]) {
    super(
      `The shard folders do not hold their grid exactly once (pass { partial: true } to load ` +
        `them anyway, marked complete: false):\n- ${problems.join("\n- ")}`,
    );
    this.name = "ShardSetError";
    this.problems = problems;
  }
}

/** Reads the manifests of the grid folders found. */
function readFolders(dirs: readonly string[]): GridFolder[] {
  return dirs.map((dir) => {
    const path = join(dir, MANIFEST_FILE);
    let manifest: GridManifest;
    try {
      manifest = JSON.parse(Deno.readTextFileSync(path));
    } catch (err) {
      throw new RangeError(`${path}: not a grid manifest (${(err as Error).message})`);
    }
    if (typeof manifest?.run !== "string" || typeof manifest.spec_hash !== "string") {
      throw new RangeError(`${path}: not a grid manifest (no "run" or "spec_hash")`);
    }
    return { dir, manifest };
  });
}

const shardName = (m: GridManifest) =>
  m.shard ? `shard ${m.shard.index}/${m.shard.count}` : "the whole grid";
const planName = (m: GridManifest) =>
  `${m.shard ? plural(m.shard.count, "shard") : "the whole grid"} of spec ${
    m.spec_hash.slice(0, 12)
  }`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const sample = (ids: readonly string[]) =>
  ids.slice(0, 3).join(", ") + (ids.length > 3 ? `, ... (${ids.length} in all)` : "");

/** The episode ids of a folder's plan, recomputed from its manifest's spec, or `null` when this toolkit deals them otherwise. */
function plannedIds(m: GridManifest): string[] | null {
  try {
    const plan = planGrid(m.spec, {
      shard: m.shard ?? undefined,
      maxEpisodes: m.total,
      checkAgents: false,
    });
    const ids = plan.episodes.map((e) => e.id);
    if (m.episodes_hash !== undefined && episodesHash(ids) !== m.episodes_hash) return null;
    return ids;
  } catch {
    return null;
  }
}

/** What {@linkcode checkShardSet} found. */
export interface ShardSetCheck {
  /** One sentence per problem (none when every shard set is whole). */
  problems: string[];
}

/**
 * Checks the runs of the grid folders found whose folders include a shard
 * (a run without shards, a folder of the whole grid, is not checked).
 *
 * @param manifestDirs Folders holding a `manifest.json`.
 * @param episodes The loaded `episodes` frame (`run`, `episode`, `status`, `file`).
 * @param duplicates The copies dropped while loading.
 */
export function checkShardSet(
  manifestDirs: readonly string[],
  episodes: pl.DataFrame,
  duplicates: readonly DuplicateEpisode[],
): ShardSetCheck {
  const folders = readFolders(manifestDirs);
  const byRun = new Map<string, GridFolder[]>();
  for (const f of folders) {
    const list = byRun.get(f.manifest.run) ?? [];
    list.push(f);
    byRun.set(f.manifest.run, list);
  }
  const sharded = [...byRun].filter(([, list]) => list.some((f) => f.manifest.shard !== null));
  if (sharded.length === 0) return { problems: [] };
  const folderOf = new Map(folders.map((f) => [resolve(f.dir), f]));
  const owner = (file: string): GridFolder | null => {
    let d = resolve(dirname(file));
    while (true) {
      const f = folderOf.get(d);
      if (f) return f;
      const up = dirname(d);
      if (up === d) return null;
      d = up;
    }
  };
  // The finished episodes each grid folder holds (an unfinished log holds none).
  const held = new Map<GridFolder, Set<string>>(folders.map((f) => [f, new Set()]));
  const cols = ["run", "episode", "status", "file"].map((c) =>
    episodes.height === 0 ? [] : episodes.getColumn(c).toArray() as (string | null)[]
  );
  for (let i = 0; i < episodes.height; i++) {
    const [run, id, status, file] = cols.map((c) => c[i]);
    if (file === null || status === "incomplete") continue;
    const f = owner(file!);
    if (f && f.manifest.run === run) held.get(f)!.add(id!);
  }
  const problems: string[] = [];
  const twice = new Map<string, { a: GridFolder; b: GridFolder; ids: string[] }>();
  for (const d of duplicates) {
    const [a, b] = [owner(d.kept), owner(d.dropped)];
    if (a && b && a !== b && a.manifest.run === d.run) {
      held.get(b)!.add(d.episode);
      const key = `${a.dir}\0${b.dir}`;
      const pair = twice.get(key) ?? { a, b, ids: [] };
      pair.ids.push(d.episode);
      twice.set(key, pair);
    }
  }
  for (const { a, b, ids } of twice.values()) {
    problems.push(
      `Run "${a.manifest.run}": ${plural(ids.length, "episode")} ` +
        `${ids.length === 1 ? "was" : "were"} played twice, in ` +
        `${shardName(a.manifest)} ("${a.dir}") and in ${shardName(b.manifest)} ("${b.dir}"): ` +
        sample(ids.sort()),
    );
  }
  for (const [run, list] of sharded) {
    const plans = new Map<string, GridFolder[]>();
    for (const f of list) {
      const key = `${f.manifest.spec_hash} ${f.manifest.shard?.count ?? 0}`;
      plans.set(key, [...(plans.get(key) ?? []), f]);
    }
    if (plans.size > 1) {
      problems.push(
        `Run "${run}": the folders hold ${plans.size} different plans: ` +
          [...plans.values()].map((fs) =>
            `${planName(fs[0].manifest)} (${
              fs.map((f) => `${shardName(f.manifest)} in "${f.dir}"`).join(", ")
            })`
          ).join("; ") +
          `: one plan per folder of shards (a resubmitted task's $SLURM_ARRAY_TASK_COUNT ` +
          `changes the count; write the count out), move the others away`,
      );
      continue;
    }
    const count = list[0].manifest.shard!.count;
    const byIndex = new Map<number, GridFolder[]>();
    for (const f of list) {
      const i = f.manifest.shard!.index;
      byIndex.set(i, [...(byIndex.get(i) ?? []), f]);
    }
    for (const [i, fs] of [...byIndex].sort((a, b) => a[0] - b[0])) {
      if (fs.length > 1) {
        problems.push(
          `Run "${run}": shard ${i}/${count} is in ${fs.length} folders: ` +
            fs.map((f) => `"${f.dir}"`).join(", ") + ` (keep one)`,
        );
      }
    }
    const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !byIndex.has(i));
    if (missing.length > 0) {
      const found = [...byIndex.keys()].sort((a, b) => a - b);
      problems.push(
        `Run "${run}": ${missing.length} of its ${count} shards ${
          missing.length === 1 ? "is" : "are"
        } missing: ${missing.map((i) => `${i}/${count}`).join(", ")} (found ${
          found.map((i) => `${i}/${count}`).join(", ")
        }); run ${missing.length === 1 ? "it" : "them"} (a Slurm array of ${count} shards is ` +
          `"#SBATCH --array=0-${count - 1}")`,
      );
    }
    for (const f of list) {
      const m = f.manifest;
      const have = held.get(f)!;
      const recorded = m.episodes_hash;
      if (have.size === m.episodes && recorded !== undefined && episodesHash(have) === recorded) {
        continue;
      }
      const ids = plannedIds(m);
      if (ids === null) {
        if (have.size !== m.episodes || recorded !== undefined) {
          problems.push(
            `Run "${run}": ${shardName(m)} ("${f.dir}") holds ${have.size} episodes, not the ` +
              `${m.episodes} of its plan${recorded !== undefined ? " (or other ones)" : ""}`,
          );
        }
        continue;
      }
      const owned = new Set(ids);
      const absent = ids.filter((id) => !have.has(id));
      const foreign = [...have].filter((id) => !owned.has(id)).sort();
      if (absent.length > 0) {
        problems.push(
          `Run "${run}": ${shardName(m)} ("${f.dir}", status ${m.status}) lacks ` +
            `${absent.length} of its ${ids.length} episodes: ${sample(absent)}; ` +
            `resume it (run its command again)`,
        );
      }
      if (foreign.length > 0) {
        problems.push(
          `Run "${run}": ${shardName(m)} ("${f.dir}") holds ${foreign.length} episodes ` +
            `it does not own: ${sample(foreign)}`,
        );
      }
    }
  }
  return { problems };
}

/**
 * The run manifest: `<run folder>/manifest.json`, written atomically
 * (temporary file, then rename) when a run starts and when it stops. It holds
 * the spec and its hash, the shard, the toolkit version, the git commit of
 * the toolkit where available, the Deno and dependency versions, and the
 * start and end times of every session (a resume is a new session). A run
 * of LLM episodes also holds its spend (`spend`: the whole run's billed
 * tokens and cost, in all and by model, the limit of the latest session and
 * what is left of it; each session's `spent` and `limit`), copied from the
 * folder's spend ledger (`spend.jsonl`, which is what budgets are checked
 * against) when a session starts and when it stops.
 *
 * Choices: the git commit is read from the toolkit's `.git` folder (no `git`
 * process, so no run permission; `null` when the toolkit is not a git
 * checkout, and uncommitted changes are not detected); dependency versions
 * are the exact versions `deno.lock` resolved for the `deno.json` imports.
 *
 * @module
 */
import type { Budget, SpendTotals } from "../agents/llm/accounting.ts";
import { firstDifference } from "../core/diff.ts";
import { TOOLKIT_VERSION } from "../core/episode.ts";
import type { Shard } from "./shard.ts";
import type { GridSpec } from "./spec.ts";

/**
 * File name of the manifest in a run folder.
 *
 * @example
 * ```ts
 * import { MANIFEST_FILE } from "./manifest.ts";
 * if (MANIFEST_FILE !== "manifest.json") throw new Error();
 * ```
 */
export const MANIFEST_FILE = "manifest.json";

/**
 * Version of the manifest format (the `manifest` field).
 *
 * @example
 * ```ts
 * import { MANIFEST_VERSION } from "./manifest.ts";
 * if (MANIFEST_VERSION !== 1) throw new Error();
 * ```
 */
export const MANIFEST_VERSION = 1;

/** Versions of what ran. */
export interface RuntimeInfo {
  /** Toolkit version. */
  toolkit: string;
  /** Git commit of the toolkit, or `null`. */
  git_commit: string | null;
  /** Deno, V8 and TypeScript versions. */
  deno: { deno: string; v8: string; typescript: string };
  /** Resolved version of each dependency, by import name. */
  dependencies: Record<string, string>;
}

/** One start of a run (the first, or a resume). */
export interface GridSession extends RuntimeInfo {
  /** Start time (ISO 8601). */
  started: string;
  /** End time, or `null` while running (or when the process was killed). */
  ended: string | null;
  /** Episodes already finished when the session started. */
  skipped: number;
  /** Episodes played and saved (logged) in the session: those an interruption abandoned are not. */
  played: number;
  /** Played episodes that failed (crashed, or could not start). */
  failed: number;
  /** Played episodes that finished degraded (absent in manifests written before it existed). */
  degraded?: number;
  /** Whether the session was interrupted (or stopped) before it finished. */
  interrupted: boolean;
  /** Why the session stopped starting episodes (a budget, a failing provider, a signal, a write error), or `null`. */
  stopped?: string | null;
  /** The session's budget (which bounds the whole run), or `null`; absent without LLM episodes. */
  limit?: Budget | null;
  /** What the session billed; absent without LLM episodes (and in manifests written before it existed). */
  spent?: SpendTotals;
}

/** A run's spend, as the manifest holds it (see {@linkcode GridManifest.spend}). */
export interface ManifestSpend {
  /** The spend ledger's file name in the run folder. */
  ledger: string;
  /** The latest session's budget, or `null`. */
  limit: Budget | null;
  /** Billed spend of the whole run, every session. */
  spent: SpendTotals;
  /** What is left of `limit`: tokens and cost, each `null` without that limit. */
  remaining: { tokens: number | null; cost: number | null };
  /** Billed spend by model id. */
  by_model: Record<string, SpendTotals>;
  /**
   * The currency of the prices (ISO 4217, the runtime's `currency`); absent
   * in manifests written before it was recorded.
   */
  currency?: string;
}

/** The manifest of a run folder. */
export interface GridManifest extends RuntimeInfo {
  /** Manifest format version. */
  manifest: number;
  /** Run id. */
  run: string;
  /** SHA-256 of the canonical spec. */
  spec_hash: string;
  /** The validated spec. */
  spec: GridSpec;
  /** The shard this folder holds, or `null` for the whole grid. */
  shard: Shard | null;
  /** Episodes of this folder (its shard). */
  episodes: number;
  /**
   * The folder's plan: SHA-256 of the ids of the episodes it owns (its
   * shard's; `episodesHash` in `shard.ts`), with `spec_hash`, `shard` and
   * `episodes` the plan loaders check a folder of shards against (absent in
   * manifests written before it existed).
   */
  episodes_hash?: string;
  /** Episodes of the whole grid. */
  total: number;
  /** Start of the first session. */
  started: string;
  /** End of the session that finished every episode, else `null`. */
  ended: string | null;
  /** `"complete"` once every episode has a finished log. */
  status: "running" | "interrupted" | "incomplete" | "complete";
  /** Every session, oldest first. */
  sessions: GridSession[];
  /** The run's spend; absent without LLM episodes (and in manifests written before it existed). */
  spend?: ManifestSpend;
}

const ROOT = new URL("../../", import.meta.url);

async function readText(url: URL): Promise<string | null> {
  if (url.protocol !== "file:") return null;
  try {
    return await Deno.readTextFile(url);
  } catch {
    return null;
  }
}

/**
 * The git commit checked out in a folder (reads `.git` directly), or `null`.
 *
 * @example
 * ```ts
 * import { gitCommit } from "./manifest.ts";
 * const c = await gitCommit(new URL("file:///nonexistent/"));
 * if (c !== null) throw new Error();
 * ```
 */
export async function gitCommit(root: URL = ROOT): Promise<string | null> {
  let gitDir = new URL(".git/", root);
  const pointer = await readText(new URL(".git", root));
  if (pointer?.startsWith("gitdir:")) {
    const target = pointer.slice(7).trim();
    gitDir = new URL(target.endsWith("/") ? target : `${target}/`, root);
  }
  const head = (await readText(new URL("HEAD", gitDir)))?.trim();
  if (!head) return null;
  if (!head.startsWith("ref:")) return /^[0-9a-f]{40}$/.test(head) ? head : null;
  const ref = head.slice(4).trim();
  const loose = (await readText(new URL(ref, gitDir)))?.trim();
  if (loose && /^[0-9a-f]{40}$/.test(loose)) return loose;
  let common = gitDir;
  const commondir = (await readText(new URL("commondir", gitDir)))?.trim();
  if (commondir) common = new URL(commondir.endsWith("/") ? commondir : `${commondir}/`, gitDir);
  const fromCommon = (await readText(new URL(ref, common)))?.trim();
  if (fromCommon && /^[0-9a-f]{40}$/.test(fromCommon)) return fromCommon;
  const packed = await readText(new URL("packed-refs", common));
  const line = packed?.split("\n").find((l) => l.endsWith(` ${ref}`));
  return line ? line.slice(0, 40) : null;
}

/**
 * Toolkit, git, Deno and dependency versions.
 *
 * @example
 * ```ts
 * import { runtimeInfo } from "./manifest.ts";
 * const info = await runtimeInfo();
 * if (info.deno.deno !== Deno.version.deno || !info.toolkit.startsWith("coordlab")) throw new Error();
 * ```
 */
export async function runtimeInfo(): Promise<RuntimeInfo> {
  const dependencies: Record<string, string> = {};
  const config = await readText(new URL("deno.json", ROOT));
  const lock = await readText(new URL("deno.lock", ROOT));
  if (config) {
    // deno.json may hold whole-line comments (it is read as JSONC by Deno).
    const json = config.split("\n").filter((line) => !line.trimStart().startsWith("//")).join("\n");
    const imports = (JSON.parse(json) as { imports?: Record<string, string> }).imports ?? {};
    const resolved = lock
      ? (JSON.parse(lock) as { specifiers?: Record<string, string> }).specifiers ?? {}
      : {};
    for (const [name, specifier] of Object.entries(imports)) {
      const exact = resolved[specifier];
      dependencies[name] = exact ? exact.split("_")[0] : specifier;
    }
  }
  return {
    toolkit: TOOLKIT_VERSION,
    git_commit: await gitCommit(),
    deno: { deno: Deno.version.deno, v8: Deno.version.v8, typescript: Deno.version.typescript },
    dependencies,
  };
}

/**
 * Reads a run folder's manifest, or `null` when there is none.
 *
 * @example
 * ```ts
 * import { readManifest } from "./manifest.ts";
 * const dir = await Deno.makeTempDir();
 * if ((await readManifest(dir)) !== null) throw new Error();
 * await Deno.remove(dir);
 * ```
 * @throws {SyntaxError} When the file is not JSON, naming it.
 */
export async function readManifest(dir: string): Promise<GridManifest | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(`${dir}/${MANIFEST_FILE}`);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
  try {
    return JSON.parse(text) as GridManifest;
  } catch (err) {
    throw new SyntaxError(`${dir}/${MANIFEST_FILE}: not JSON (${(err as Error).message})`);
  }
}

/**
 * Writes a run folder's manifest atomically: a write that fails (a full
 * disk) leaves the manifest as it was, and no temporary file.
 *
 * @example
 * ```ts
 * import { readManifest, writeManifest } from "./manifest.ts";
 * const dir = await Deno.makeTempDir();
 * await writeManifest(dir, { run: "x" } as never);
 * if ((await readManifest(dir))?.run !== "x") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeManifest(dir: string, manifest: GridManifest): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  const path = `${dir}/${MANIFEST_FILE}`;
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(tmp, JSON.stringify(manifest, null, 2) + "\n");
    await Deno.rename(tmp, path);
  } catch (err) {
    // A full disk may leave part of the temporary file: it goes (the manifest is as it was).
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}

/** What a run folder must match to be resumed. */
export interface ManifestExpectation {
  /** The spec about to run. */
  spec: GridSpec;
  /** Its hash. */
  hash: string;
  /** Its shard, or `null`. */
  shard: Shard | null;
  /** The hash of its episode ids (`episodesHash`); checked when both manifests have one. */
  episodesHash?: string;
}

const shardText = (s: Shard | null) => (s ? `shard ${s.index}/${s.count}` : "the whole grid");

/**
 * Refuses to resume a folder that holds a different run: another spec, or
 * another shard.
 *
 * @example
 * ```ts
 * import { assertSameRun } from "./manifest.ts";
 * import { parseGridSpec, specHash } from "./spec.ts";
 * const a = parseGridSpec({ blocks: [{ game: "frail", envs: ["bank_run"] }] });
 * const b = parseGridSpec({ blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0"] }] });
 * const m = { spec: a, spec_hash: specHash(a), shard: null } as never;
 * assertSameRun(m, { spec: a, hash: specHash(a), shard: null }, "runs/x");
 * try {
 *   assertSameRun(m, { spec: b, hash: specHash(b), shard: null }, "runs/x");
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e instanceof RangeError) || !e.message.includes("blocks[0].mechanisms")) throw e;
 * }
 * ```
 * @throws {RangeError} Naming the folder and the first difference.
 */
export function assertSameRun(
  existing: Pick<GridManifest, "spec" | "spec_hash" | "shard" | "episodes_hash">,
  expected: ManifestExpectation,
  dir: string,
): void {
  if (existing.spec_hash !== expected.hash) {
    const d = firstDifference(existing.spec, expected.spec);
    const where = d
      ? `; first difference at "${d.path || "(spec)"}": ${JSON.stringify(d.left)} there, ${
        JSON.stringify(d.right)
      } now`
      : "";
    throw new RangeError(
      `Run folder "${dir}" holds a different spec (hash ${existing.spec_hash.slice(0, 12)}, ` +
        `this one ${expected.hash.slice(0, 12)})${where}. ` +
        `Choose another output folder, or delete this one to start over`,
    );
  }
  const a = existing.shard;
  const b = expected.shard;
  if ((a?.index ?? -1) !== (b?.index ?? -1) || (a?.count ?? -1) !== (b?.count ?? -1)) {
    throw new RangeError(
      `Run folder "${dir}" holds ${shardText(a)} of this spec, not ${shardText(b)}: ` +
        `give each shard its own folder`,
    );
  }
  if (
    existing.episodes_hash !== undefined && expected.episodesHash !== undefined &&
    existing.episodes_hash !== expected.episodesHash
  ) {
    throw new RangeError(
      `Run folder "${dir}" holds ${shardText(a)} of this spec with other episodes ` +
        `(plan ${existing.episodes_hash.slice(0, 12)}, this one ${
          expected.episodesHash.slice(0, 12)
        }): a toolkit that deals shards differently; finish it with the toolkit that started it`,
    );
  }
}

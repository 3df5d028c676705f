/**
 * The response cache on disk. A response is stored under the SHA-256 of the
 * canonical JSON of (provider, model, SHA-256 of the messages, sampling
 * parameters, sample index), one file per response (`<dir>/<key[0..2]>/<key>.json`), written
 * atomically as soon as it arrives, so a run killed mid-way keeps every
 * response it received. Re-running or resuming replays cached responses with
 * no network call. Only successful responses are cached (a reply that is not a
 * chat completion is never stored); files hold no API key (the runtime redacts
 * replies before storing them). An entry is checked when read: one that is
 * not a well-formed response (text or null fields, non-negative integer
 * counts) is a miss, so a damaged or tampered file is asked again, not
 * trusted.
 *
 * Shared between processes: a response is written to a temporary file and
 * hard-linked into place, which fails if the key is already stored, so the
 * first response stored under a key stays (a run that used it replays the
 * same reply however many processes share the folder; only requests in
 * flight at once in two processes are paid twice). A stored file that does
 * not parse is replaced. Readers never see a half-written file.
 *
 * Every file names the key it was stored under; an entry is used only when
 * that key is the one asked for. A file under another key's name (copied,
 * swapped or renamed by hand) is a miss counted in
 * {@linkcode CacheStats.mismatched}, and the next response stored under the
 * asked key replaces it. An entry with no text (from a version that cached
 * such replies) is a miss too.
 *
 * The folder is created and checked when the cache is made: a path that is a
 * file, or a folder that cannot be written, throws at once naming the path,
 * before any call is sent. A write that fails later (a full disk, a folder
 * standing where an entry goes) throws from {@linkcode ResponseCache.put}
 * naming the entry's path; the runtime then stops the run (see `runtime.ts`).
 *
 * Its file operations are synchronous: on a local disk each takes 5-40 us,
 * where the asynchronous ones took 50-110 us each in hand-offs to Deno's
 * thread pool (about 0.45 ms of every call's 2 ms against the local test
 * double; a reply from a provider takes far longer than either).
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { canonicalJson } from "../../core/canonical_json.ts";
import { sha256Hex } from "../../core/hash.ts";
import type { ChatMessage } from "./prompts/template.ts";

/** What a cache key is made of. */
export interface CacheKeyParts {
  /** Provider id. */
  provider: string;
  /** Model name at the provider. */
  model: string;
  /** The messages sent. */
  messages: readonly ChatMessage[];
  /** Sampling parameters sent (temperature, token cap, reasoning effort, extra fields). */
  sampling: Record<string, unknown>;
  /** Sample index: tells apart repeated samples of the same messages. */
  sample: string | number;
}

/** A cached response. */
export interface CachedResponse {
  /** Reply text. */
  content: string | null;
  /** Reasoning text returned beside the reply, if any. */
  reasoning: string | null;
  /** Finish reason. */
  finish_reason: string | null;
  /** Prompt tokens. */
  tokens_in: number;
  /** Completion tokens. */
  tokens_out: number;
  /** Reasoning tokens. */
  tokens_reasoning: number;
}

const Count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * Zod schema of a {@linkcode CachedResponse}.
 *
 * @example
 * ```ts
 * import { CachedResponseSchema } from "./cache.ts";
 * const ok = { content: "{}", reasoning: null, finish_reason: "stop", tokens_in: 1, tokens_out: 2, tokens_reasoning: 0 };
 * if (!CachedResponseSchema.safeParse(ok).success) throw new Error();
 * if (CachedResponseSchema.safeParse({ ...ok, tokens_in: -350 }).success) throw new Error();
 * ```
 */
export const CachedResponseSchema: z.ZodType<CachedResponse> = z.object({
  content: z.string().nullable(),
  reasoning: z.string().nullable(),
  finish_reason: z.string().nullable(),
  tokens_in: Count,
  tokens_out: Count,
  tokens_reasoning: Count,
});

/** Whether a stored file holds a usable response stored under `key`. */
function entryOf(value: unknown, key: string): "ok" | "mismatch" | "bad" {
  const v = value as { key?: unknown; response?: unknown } | null;
  const response = CachedResponseSchema.safeParse(v?.response);
  if (!response.success) return "bad";
  const text = response.data.content;
  if (text === null || text.trim() === "") return "bad";
  return v?.key === key ? "ok" : "mismatch";
}

/** Hit, miss and write counts of a cache. */
export interface CacheStats {
  /** Lookups answered from disk. */
  hits: number;
  /** Lookups that found nothing. */
  misses: number;
  /** Responses written. */
  writes: number;
  /** Lookups that found a file stored under another key (counted in `misses` too). */
  mismatched: number;
}

/**
 * The cache key of a request.
 *
 * @example
 * ```ts
 * import { cacheKey } from "./cache.ts";
 * const parts = { provider: "p", model: "m", messages: [{ role: "user" as const, content: "hi" }],
 *   sampling: { temperature: 1 }, sample: 0 };
 * if (cacheKey(parts) === cacheKey({ ...parts, sample: 1 })) throw new Error();
 * if (cacheKey(parts).length !== 64) throw new Error();
 * ```
 */
export function cacheKey(parts: CacheKeyParts): string {
  return cacheKeyOf(promptHash(parts.messages), parts);
}

/**
 * SHA-256 of the canonical JSON of a prompt's messages (the `prompt_hash` of
 * a call record, and the messages' part of its cache key).
 *
 * @example
 * ```ts
 * import { promptHash } from "./cache.ts";
 * if (promptHash([{ role: "user", content: "hi" }]).length !== 64) throw new Error();
 * ```
 */
export function promptHash(messages: readonly ChatMessage[]): string {
  return sha256Hex(canonicalJson(messages));
}

/**
 * The cache key from an already computed prompt hash (saves hashing the
 * messages twice); equal to {@linkcode cacheKey} of the same parts.
 *
 * @example
 * ```ts
 * import { cacheKey, cacheKeyOf, promptHash } from "./cache.ts";
 * const parts = { provider: "p", model: "m", messages: [{ role: "user" as const, content: "hi" }],
 *   sampling: {}, sample: 0 };
 * if (cacheKeyOf(promptHash(parts.messages), parts) !== cacheKey(parts)) throw new Error();
 * ```
 */
export function cacheKeyOf(hash: string, parts: Omit<CacheKeyParts, "messages">): string {
  return sha256Hex(canonicalJson({
    cache: 1,
    provider: parts.provider,
    model: parts.model,
    messages: hash,
    sampling: parts.sampling,
    sample: parts.sample,
  }));
}

/** Options of {@linkcode ResponseCache}. */
export interface ResponseCacheOptions {
  /** Only read the folder: no folder is made, nothing is written (`put` throws). Default `false`. */
  readOnly?: boolean;
}

/**
 * A response cache in a folder.
 *
 * @example
 * ```ts
 * import { ResponseCache } from "./cache.ts";
 * const dir = await Deno.makeTempDir();
 * const cache = new ResponseCache(dir);
 * const key = "ab".repeat(32);
 * if (await cache.get(key) !== undefined) throw new Error();
 * await cache.put(key, { content: "{}", reasoning: null, finish_reason: "stop",
 *   tokens_in: 10, tokens_out: 2, tokens_reasoning: 0 });
 * if ((await cache.get(key))?.content !== "{}") throw new Error();
 * const s = cache.stats();
 * if (s.hits !== 1 || s.misses !== 1 || s.writes !== 1 || s.mismatched !== 0) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class ResponseCache {
  /** The folder. */
  readonly dir: string;
  readonly #stats: CacheStats = { hits: 0, misses: 0, writes: 0, mismatched: 0 };

  /** Whether the cache was opened to be read only (see {@linkcode ResponseCacheOptions.readOnly}). */
  readonly readOnly: boolean;

  /**
   * Opens a cache folder: creates it if needed and checks that a file can be
   * written in it; opened read-only, it only reads (a dry run counting what
   * the cache holds needs no write access, and a missing folder holds nothing).
   *
   * @example
   * ```ts
   * import { ResponseCache } from "./cache.ts";
   * const cache = new ResponseCache("/nonexistent/coordlab-cache", { readOnly: true });
   * if (!cache.readOnly || await cache.get("0".repeat(64)) !== undefined) throw new Error();
   * ```
   * @throws {RangeError} Naming the path, when it is not a folder that can be written (the
   * grid command prints it and exits with 2, before any call).
   */
  constructor(dir: string, options: ResponseCacheOptions = {}) {
    if (!dir) throw new TypeError("The cache folder must be a non-empty path");
    this.dir = dir.replace(/\/+$/, "") || "/";
    this.readOnly = options.readOnly ?? false;
    if (this.readOnly) return;
    const probe = `${this.dir}/.write-check-${crypto.randomUUID()}.tmp`;
    try {
      Deno.mkdirSync(this.dir, { recursive: true });
      Deno.writeTextFileSync(probe, "");
      Deno.removeSync(probe);
    } catch (err) {
      throw new RangeError(
        `The response cache folder "${this.dir}" cannot be used: ${(err as Error).message}`,
      );
    }
  }

  /** Path of a key's file. */
  pathOf(key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new RangeError(`Invalid cache key "${key}"`);
    return `${this.dir}/${key.slice(0, 2)}/${key}.json`;
  }

  /**
   * The cached response, or `undefined` (a missing, unreadable or malformed
   * file is a miss, and so is a file stored under another key).
   */
  // A promise for callers; the file is read synchronously (see the module doc).
  // deno-lint-ignore require-await
  async get(key: string): Promise<CachedResponse | undefined> {
    try {
      const value = JSON.parse(Deno.readTextFileSync(this.pathOf(key))) as {
        response?: unknown;
      };
      const entry = entryOf(value, key);
      if (entry === "ok") {
        this.#stats.hits++;
        return CachedResponseSchema.parse(value.response);
      }
      if (entry === "mismatch") this.#stats.mismatched++;
    } catch (err) {
      if (err instanceof RangeError) throw err;
    }
    this.#stats.misses++;
    return undefined;
  }

  /**
   * Stores a response atomically, unless the key already holds one `get()`
   * answers (the first stored response wins, see the module doc).
   *
   * @throws {Error} Naming the entry's path and the cause, when it cannot be written.
   */
  // A promise for callers; the files are written synchronously (see the module doc).
  // deno-lint-ignore require-await
  async put(key: string, response: CachedResponse): Promise<void> {
    if (this.readOnly) {
      throw new TypeError(
        `The response cache "${this.dir}" was opened read-only: nothing is stored`,
      );
    }
    const path = this.pathOf(key);
    const tmp = `${path}.${crypto.randomUUID()}.tmp`;
    const text = JSON.stringify({ cache: 1, key, response }) + "\n";
    try {
      try {
        Deno.writeTextFileSync(tmp, text);
      } catch (err) {
        // The key's subfolder is made by its first entry.
        if (!(err instanceof Deno.errors.NotFound)) throw err;
        Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true });
        Deno.writeTextFileSync(tmp, text);
      }
      try {
        Deno.linkSync(tmp, path);
        this.#stats.writes++;
      } catch (err) {
        if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
        if (this.#readable(path, key)) return;
        Deno.renameSync(tmp, path);
        this.#stats.writes++;
      }
    } catch (err) {
      throw new Error(`Cannot write the cache entry ${path}: ${(err as Error).message}`);
    } finally {
      try {
        Deno.removeSync(tmp);
      } catch {
        // Linked or renamed into place, or never written.
      }
    }
  }

  /** Whether the file holds a response `get()` would answer for `key`. */
  #readable(path: string, key: string): boolean {
    try {
      return entryOf(JSON.parse(Deno.readTextFileSync(path)), key) === "ok";
    } catch {
      return false;
    }
  }

  /** Counts so far. */
  stats(): CacheStats {
    return { ...this.#stats };
  }
}

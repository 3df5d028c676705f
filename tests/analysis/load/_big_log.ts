// Test helper: large grid folders made from one real episode's block,
// repeated under new episode ids by the project's writer (so every file has
// a correct index), without playing thousands of episodes.
import { serveLocalModel } from "../../../engine/agents/llm/server/local_server.ts";
import { LlmRuntime } from "../../../engine/agents/llm/runtime.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { type SegmentEntry, SegmentWriter } from "../../../engine/grid/segments.ts";

/** One logged episode: its block's text and what the index says of it. */
export interface TemplateBlock {
  /** The block's text (its lines, each ending in a newline). */
  text: string;
  /** Its index line. */
  entry: SegmentEntry;
}

/**
 * Plays one model-backed bank-run episode (against the local model server:
 * every `llm_call` keeps its messages, as a real LLM grid's do) into `dir`
 * and returns its block.
 */
export async function templateBlock(dir: string): Promise<TemplateBlock> {
  const server = serveLocalModel();
  try {
    const runtime = new LlmRuntime({
      models: [{ id: "m", baseURL: server.url, model: "coordlab-stay", testDouble: true }],
      cacheDir: null,
    });
    await runGrid({
      name: "big",
      episodes: 1,
      blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0"], agents: [{ model: "m" }] }],
    }, { out: dir, runtime, progress: false });
  } finally {
    await server.close();
  }
  const names = [...Deno.readDirSync(dir)].map((e) => e.name);
  const data = names.find((n) => n.startsWith("segment-") && n.endsWith(".ndjson"))!;
  const index = Deno.readTextFileSync(`${dir}/${data.slice(0, -".ndjson".length)}.idx`);
  const entry = JSON.parse(index.trimEnd()) as SegmentEntry;
  return { text: Deno.readTextFileSync(`${dir}/${data}`), entry };
}

/** The id of copy `k` of a template episode. */
export function copyId(template: TemplateBlock, k: number): string {
  return `${template.entry.episode}_c${String(k).padStart(6, "0")}`;
}

/**
 * Writes `count` copies of a template block, copy k under episode id
 * {@linkcode copyId}, with a `SegmentWriter` of tag `tag` in `dir` (rolling
 * over past `maxBytes`, default never), and returns the writer's files.
 */
export function writeCopies(
  dir: string,
  template: TemplateBlock,
  options: { count: number; tag: string; maxBytes?: number; from?: number },
): string[] {
  Deno.mkdirSync(dir, { recursive: true });
  const from = `"episode":${JSON.stringify(template.entry.episode)},`;
  const w = SegmentWriter.create(dir, options.tag, {
    maxBytes: options.maxBytes ?? Number.MAX_SAFE_INTEGER,
  });
  try {
    for (let k = options.from ?? 0; k < (options.from ?? 0) + options.count; k++) {
      const episode = copyId(template, k);
      const text = template.text.replaceAll(from, `"episode":${JSON.stringify(episode)},`);
      w.appendText({ run: template.entry.run, episode, text });
    }
  } finally {
    w.close();
  }
  return w.paths;
}

/**
 * Free bytes on the file system holding `path` (`df -Pk`), or `null` when
 * `df` cannot tell.
 */
export async function freeBytes(path: string): Promise<number | null> {
  try {
    const out = await new Deno.Command("df", { args: ["-Pk", path], stdout: "piped" }).output();
    const fields = new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!.split(/\s+/);
    const kb = Number(fields[3]);
    return out.success && Number.isFinite(kb) ? kb * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Reading a spec from a file: JSON, or a TypeScript/JavaScript module whose
 * default export is the spec.
 *
 * @module
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * The spec in a file (`.json`, or a `.ts`/`.js` module with a default
 * export); validate it with `parseGridSpec` or pass it to `runGrid`.
 *
 * @example
 * ```ts
 * import { readGridSpec } from "./spec_file.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/spec.json`, '{ "blocks": [{ "game": "frail", "envs": ["bank_run"] }] }');
 * const spec = await readGridSpec(`${dir}/spec.json`) as { blocks: unknown[] };
 * if (spec.blocks.length !== 1) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 * @throws {SyntaxError} When a JSON file is not JSON, naming it.
 * @throws {TypeError} When a module has no default export.
 */
export async function readGridSpec(path: string): Promise<unknown> {
  if (/\.(m?[jt]s|tsx)$/.test(path)) {
    const mod = await import(pathToFileURL(resolve(path)).href) as { default?: unknown };
    if (mod.default === undefined) {
      throw new TypeError(`Spec module "${path}" has no default export`);
    }
    return mod.default;
  }
  const text = await Deno.readTextFile(path);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SyntaxError(`Spec file "${path}" is not JSON: ${(err as Error).message}`);
  }
}

// The currency a run folder's costs are in. Prices are in a models file's
// `currency` (default USD); a grid records it in its manifest beside the
// spend (`spend.currency`, written when the run opens). The loaders and the
// viewer read it from there and never guess: a log outside a grid's folder
// (`runEpisode({ outDir })`), a mock grid (no spend) or a manifest written
// before the currency was recorded records none.

import { join } from "node:path";
import { MANIFEST_FILE } from "../../engine/grid/manifest.ts";
import { isCurrencyCode } from "../../engine/agents/llm/model_config.ts";

/**
 * The currency a run folder's manifest records for its prices, or `null`
 * when it holds no manifest, the manifest records no spend (a mock run), or
 * it was written before the currency was recorded. A manifest that is not
 * JSON is left to the readers that need it: here it records nothing.
 */
export function folderCurrency(folder: string): string | null {
  let text: string;
  try {
    text = Deno.readTextFileSync(join(folder, MANIFEST_FILE));
  } catch {
    return null;
  }
  try {
    const code = (JSON.parse(text) as { spend?: { currency?: unknown } })?.spend?.currency;
    return isCurrencyCode(code) ? code : null;
  } catch {
    return null;
  }
}

/**
 * A reader of folders' currencies that reads each folder's manifest once
 * (a grid's segments share their folder).
 */
export function folderCurrencies(): (folder: string) => string | null {
  const seen = new Map<string, string | null>();
  return (folder) => {
    let code = seen.get(folder);
    if (code === undefined) {
      code = folderCurrency(folder);
      seen.set(folder, code);
    }
    return code;
  };
}

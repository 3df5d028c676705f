// Locates the TrueType files of the chart font, shipped by the npm package
// `dejavu-fonts-ttf`, so that PNG rendering never depends on system fonts.

// This import only keeps the font package in the module graph, so that
// `deno install`, `deno cache` and the lockfile always include it.
import fontPackage from "npm:dejavu-fonts-ttf@2.37.3/package.json" with { type: "json" };
import { fileURLToPath } from "node:url";

/**
 * The font family that charts are rendered with.
 *
 * @example
 * ```ts
 * import { CHART_FONT_FAMILY } from "./_font.ts";
 * if (CHART_FONT_FAMILY !== "DejaVu Sans") throw new Error();
 * ```
 */
export const CHART_FONT_FAMILY = "DejaVu Sans";

const FONT_FILES = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"] as const;

let cached: string[] | undefined;

/** Absolute paths of the regular and bold DejaVu Sans files. */
export function chartFontFiles(): string[] {
  if (cached === undefined) {
    cached = FONT_FILES.map((name) => {
      const url = import.meta.resolve(`npm:dejavu-fonts-ttf@2.37.3/ttf/${name}`);
      if (!url.startsWith("file:")) {
        throw new Error(
          `Cannot locate font file ${name} of dejavu-fonts-ttf@${fontPackage.version}: ` +
            `it resolved to ${url}, not to a local file`,
        );
      }
      return fileURLToPath(url);
    });
  }
  return [...cached];
}

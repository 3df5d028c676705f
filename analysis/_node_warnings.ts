// Silences one warning of Deno's Node compatibility that every script
// drawing charts printed: DEP0040, "The `punycode` module is deprecated".
// Vega's loader (vega-loader) requires node-fetch@2, whose whatwg-url@5
// requires tr46@0.0.3, which requires Node's built-in `punycode` when it
// loads. The toolkit never fetches through Vega, and the dependency is
// Vega's, so the warning tells a user nothing they can act on. Only this
// code is dropped; every other warning is emitted as before. Import this
// module before any module that imports Vega (imports run in order).
import process from "node:process";

/** The deprecation code of Node's `punycode` module. */
const PUNYCODE = "DEP0040";

const emit = process.emitWarning;
process.emitWarning = function (warning: string | Error, ...rest: unknown[]) {
  const options = rest[0];
  const code = typeof options === "object" && options !== null
    ? (options as { code?: unknown }).code
    : rest[1];
  if (code === PUNYCODE) return;
  return (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
} as typeof process.emitWarning;

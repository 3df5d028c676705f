/**
 * Keeps secrets out of anything that may be logged, cached or shown: every
 * occurrence of a secret in a text is replaced by `[redacted]`.
 *
 * @module
 */

/**
 * The text that replaces a secret.
 *
 * @example
 * ```ts
 * import { REDACTED } from "./redact.ts";
 * if (REDACTED !== "[redacted]") throw new Error();
 * ```
 */
export const REDACTED = "[redacted]";

/**
 * Replaces every occurrence of each secret in `text` (secrets shorter than 4
 * characters are ignored, so that no ordinary word is blanked out).
 *
 * @example
 * ```ts
 * import { redactSecrets } from "./redact.ts";
 * const out = redactSecrets("Incorrect API key provided: sk-abc123", ["sk-abc123"]);
 * if (out !== "Incorrect API key provided: [redacted]") throw new Error(out);
 * ```
 */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    out = out.split(secret).join(REDACTED);
  }
  return out;
}

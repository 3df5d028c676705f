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

/** Query parameters whose values are treated as credentials. */
const KEY_LIKE_PARAM = /key|token|secret|pass(word|wd)?|pwd|auth|sig(nature)?|credential|session/i;

/**
 * The credentials a URL carries: its user name and password, and the values
 * of key-like query parameters (`api_key`, `token`, `sig`, ...). An
 * unparseable URL carries none.
 *
 * @example
 * ```ts
 * import { urlSecrets } from "./redact.ts";
 * const s = urlSecrets("https://me:hunter22@api.example.com/v1?api-key=abcd1234&region=eu");
 * if (s.join(",") !== "me,hunter22,abcd1234") throw new Error(s.join(","));
 * ```
 */
export function urlSecrets(url: string): string[] {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return [];
  }
  const out = [decodeURIComponent(u.username), decodeURIComponent(u.password)];
  for (const [name, value] of u.searchParams) if (KEY_LIKE_PARAM.test(name)) out.push(value);
  return out.filter((s) => s.length > 0);
}

/**
 * A URL fit to print: `user:password@` and the values of key-like query
 * parameters are replaced by `[redacted]`. Text that is not a URL is returned
 * unchanged.
 *
 * @example
 * ```ts
 * import { safeUrl } from "./redact.ts";
 * const s = safeUrl("https://me:hunter22@api.example.com/v1?api_key=abcd1234&region=eu");
 * if (s !== "https://[redacted]@api.example.com/v1?api_key=[redacted]&region=eu") throw new Error(s);
 * ```
 */
export function safeUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  const auth = u.username || u.password ? `${REDACTED}@` : "";
  const query = [...u.searchParams].map(([name, value]) =>
    `${encodeURIComponent(name)}=${
      KEY_LIKE_PARAM.test(name) ? REDACTED : encodeURIComponent(value)
    }`
  ).join("&");
  return `${u.protocol}//${auth}${u.host}${u.pathname}${query ? `?${query}` : ""}${u.hash}`;
}

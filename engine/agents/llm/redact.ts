/**
 * Keeps secrets out of anything that may be logged, cached or shown: every
 * occurrence of a secret in a text, as is, upper-case, lower-case or in
 * base64, is replaced by `[redacted]`. Keys of every length are redacted;
 * one shorter than {@linkcode SHORT_SECRET_CHARS} only as a whole token, so
 * that a short key does not blank out the words that contain it. Redaction is
 * for what is written: callers parse a reply as received, then redact the
 * copies they log, cache or print.
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
 * Secrets shorter than this are redacted only where they stand as a whole
 * token (not inside a longer word), so that a short key such as `prob` does
 * not blank out `withdraw_probability`; longer ones are redacted wherever
 * they occur.
 *
 * @example
 * ```ts
 * import { SHORT_SECRET_CHARS } from "./redact.ts";
 * if (SHORT_SECRET_CHARS !== 8) throw new Error();
 * ```
 */
export const SHORT_SECRET_CHARS = 8;

const WORD = "A-Za-z0-9_";

function base64(bytes: Uint8Array, url: boolean): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  const b64 = btoa(bin).replace(/=+$/, "");
  return url ? b64.replace(/\+/g, "-").replace(/\//g, "_") : b64;
}

/**
 * The forms a secret may be echoed in: as is, upper-case, lower-case, and
 * base64 (standard and URL-safe, unpadded). For a secret of
 * {@linkcode SHORT_SECRET_CHARS} or more characters, also the part of its
 * base64 that is the same wherever it starts inside a longer encoded text
 * (as in a `Basic` header of `user:key`).
 *
 * @example
 * ```ts
 * import { secretForms } from "./redact.ts";
 * const f = secretForms("sk-abc123");
 * if (!f.includes("SK-ABC123") || !f.includes(btoa("sk-abc123"))) throw new Error(f.join(","));
 * ```
 */
export function secretForms(secret: string): string[] {
  const forms = new Set([secret, secret.toUpperCase(), secret.toLowerCase()]);
  const bytes = new TextEncoder().encode(secret);
  for (const url of [false, true]) {
    forms.add(base64(bytes, url));
    if (secret.length < SHORT_SECRET_CHARS) continue;
    for (let shift = 0; shift < 3; shift++) {
      // Encoded after `shift` other bytes: the characters touching the
      // neighbours depend on them, the rest do not.
      const padded = new Uint8Array(shift + bytes.length);
      padded.set(bytes, shift);
      const text = base64(padded, url);
      const first = shift === 0 ? 0 : Math.ceil((shift * 4) / 3);
      const last = Math.floor(((shift + bytes.length) * 4) / 3);
      const inner = text.slice(first, Math.max(first, last));
      if (inner.length >= SHORT_SECRET_CHARS) forms.add(inner);
    }
  }
  return [...forms].filter((f) => f.length > 0);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/**
 * Replaces every occurrence of each secret in `text`, in each of its
 * {@linkcode secretForms}. Secrets of any length are redacted; those shorter
 * than {@linkcode SHORT_SECRET_CHARS} only as whole tokens (not preceded or
 * followed by a letter, digit or `_`).
 *
 * @example
 * ```ts
 * import { redactSecrets } from "./redact.ts";
 * const out = redactSecrets("Incorrect API key provided: sk-abc123", ["sk-abc123"]);
 * if (out !== "Incorrect API key provided: [redacted]") throw new Error(out);
 * const short = redactSecrets('{"withdraw_probability": 5, "reasoning": "key prob, PROB"}', ["prob"]);
 * if (short !== '{"withdraw_probability": 5, "reasoning": "key [redacted], [redacted]"}') throw new Error(short);
 * ```
 */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    const forms = secretForms(secret).sort((a, b) => b.length - a.length);
    if (secret.length >= SHORT_SECRET_CHARS) {
      for (const form of forms) out = out.split(form).join(REDACTED);
      continue;
    }
    const alternatives = forms.map(escapeRegExp).join("|");
    out = out.replace(new RegExp(`(?<![${WORD}])(?:${alternatives})(?![${WORD}])`, "g"), REDACTED);
  }
  return out;
}

/** Query parameters whose values are treated as credentials. */
const KEY_LIKE_PARAM = /key|token|secret|pass(word|wd)?|pwd|auth|sig(nature)?|credential|session/i;

/** Key prefixes providers use (`sk-...`, `gsk_...`, `hf_...`). */
const KEY_PREFIX = /^(sk|pk|rk|gsk|hf|xai|key|api|tok|token)[-_]/i;

/**
 * Whether a URL path segment looks like a token: at least 12 characters
 * starting with a key prefix (`sk-`, `key_`, ...), or at least 16 characters
 * of letters, digits and `-_.~+=` that mix upper-case, lower-case and digits,
 * or at least 24 hexadecimal digits (dashes allowed, as in a UUID). A model
 * name such as `gpt-4o-mini-2024-07-18` is not one.
 *
 * @example
 * ```ts
 * import { looksLikeToken } from "./redact.ts";
 * if (!looksLikeToken("sk-abcdef123456") || !looksLikeToken("0123456789abcdef0123456789abcdef")) throw new Error();
 * if (looksLikeToken("v1") || looksLikeToken("gpt-4o-mini-2024-07-18")) throw new Error();
 * ```
 */
export function looksLikeToken(segment: string): boolean {
  if (segment.length >= 12 && KEY_PREFIX.test(segment)) return true;
  if (
    segment.length >= 16 && /^[A-Za-z0-9\-_.~+=]+$/.test(segment) &&
    /[a-z]/.test(segment) && /[A-Z]/.test(segment) && /[0-9]/.test(segment)
  ) return true;
  return segment.replace(/-/g, "").length >= 24 && /^[0-9a-fA-F-]+$/.test(segment);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a malformed escape: kept as written
  }
}

/**
 * The credentials a URL carries: its user name and password, the values of
 * key-like query parameters (`api_key`, `token`, `sig`, ...), and path
 * segments that {@linkcode looksLikeToken}. An unparseable URL carries none.
 *
 * @example
 * ```ts
 * import { urlSecrets } from "./redact.ts";
 * const s = urlSecrets("https://me:hunter22@api.example.com/v1?api-key=abcd1234&region=eu");
 * if (s.join(",") !== "me,hunter22,abcd1234") throw new Error(s.join(","));
 * const p = urlSecrets("https://gw.example.com/v1/sk-live-0123456789/openai");
 * if (p.join(",") !== "sk-live-0123456789") throw new Error(p.join(","));
 * ```
 */
export function urlSecrets(url: string): string[] {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return [];
  }
  const out = [decoded(u.username), decoded(u.password)];
  for (const [name, value] of u.searchParams) if (KEY_LIKE_PARAM.test(name)) out.push(value);
  for (const segment of u.pathname.split("/")) {
    const text = decoded(segment);
    if (looksLikeToken(text)) out.push(text);
  }
  return out.filter((s) => s.length > 0);
}

/**
 * A URL fit to print: `user:password@`, the values of key-like query
 * parameters and path segments that {@linkcode looksLikeToken} are replaced
 * by `[redacted]`. Text that is not a URL is returned unchanged, a URL with
 * nothing to hide in its normal form.
 *
 * @example
 * ```ts
 * import { safeUrl } from "./redact.ts";
 * const s = safeUrl("https://me:hunter22@api.example.com/v1?api_key=abcd1234&region=eu");
 * if (s !== "https://[redacted]@api.example.com/v1?api_key=[redacted]&region=eu") throw new Error(s);
 * const p = safeUrl("https://gw.example.com/v1/sk-live-0123456789/openai");
 * if (p !== "https://gw.example.com/v1/[redacted]/openai") throw new Error(p);
 * ```
 */
export function safeUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  const params = [...u.searchParams];
  const segments = u.pathname.split("/");
  const hidden = segments.map((s) => looksLikeToken(decoded(s)));
  if (
    !u.username && !u.password && !hidden.includes(true) &&
    !params.some(([name]) => KEY_LIKE_PARAM.test(name))
  ) return u.href;
  const auth = u.username || u.password ? `${REDACTED}@` : "";
  const path = segments.map((s, i) => (hidden[i] ? REDACTED : s)).join("/");
  const query = params.map(([name, value]) =>
    `${encodeURIComponent(name)}=${
      KEY_LIKE_PARAM.test(name) ? REDACTED : encodeURIComponent(value)
    }`
  ).join("&");
  return `${u.protocol}//${auth}${u.host}${path}${query ? `?${query}` : ""}${u.hash}`;
}

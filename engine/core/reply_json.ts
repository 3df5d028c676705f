/**
 * Tolerant extraction of one JSON object from a model's reply: code fences,
 * leading or trailing prose and dangling commas (a comma followed, after
 * optional whitespace, by `}` or `]`) are accepted.
 *
 * The work is linear in the reply's length, whatever the reply holds (a
 * reply is untrusted input: a megabyte of `{` must not freeze a grid). The
 * extraction tries each `{` in order and recognises the JSON value that
 * starts there with an iterative recogniser (no recursion, so depth is not
 * limited by the call stack) that memoises, per start position, where each
 * object or array ends or that it fails. A JSON value's extent depends only
 * on where it starts, so every later attempt that meets a known start jumps
 * over it (or fails at once), and a failed attempt marks every container it
 * had open as failed. Characters are re-read only by attempts whose string
 * parity differs (a `{` inside a string of an earlier attempt), and such an
 * attempt dies at the first backslash outside a string, so each character is
 * read a bounded number of times. Only the object finally returned goes
 * through `JSON.parse` (after its dangling commas are removed), so values are
 * exactly what `JSON.parse` makes of them.
 *
 * @module
 */

/** Options of {@linkcode extractJsonObject}. */
export interface ExtractJsonOptions {
  /**
   * A counter the extraction adds its work to: one step per character it
   * reads and per memoised jump. Tests bound the work with it. Default none.
   */
  steps?: { count: number };
}

/**
 * Finds and parses the first JSON object in `text` (trying each `{` in
 * order). Returns `undefined` when there is none that parses.
 *
 * @example
 * ```ts
 * import { extractJsonObject } from "./reply_json.ts";
 * const fence = "`".repeat(3);
 * const v = extractJsonObject(`Sure!\n${fence}json\n{"withdraw_probability": 20,}\n${fence}`);
 * if ((v as { withdraw_probability: number }).withdraw_probability !== 20) throw new Error();
 * const steps = { count: 0 };
 * if (extractJsonObject("{".repeat(1000), { steps }) !== undefined || steps.count > 5000) throw new Error();
 * ```
 */
export function extractJsonObject(
  text: string,
  options: ExtractJsonOptions = {},
): Record<string, unknown> | undefined {
  const first = text.indexOf("{");
  if (first < 0) {
    if (options.steps) options.steps.count += text.length;
    return undefined;
  }
  const scan = new Recognizer(text);
  let found: Record<string, unknown> | undefined;
  for (let start = first; start >= 0; start = text.indexOf("{", start + 1)) {
    const end = scan.valueEnd(start);
    if (end < 0) continue;
    const candidate = withoutDanglingCommas(text.slice(start, end));
    scan.steps += end - start;
    try {
      const value = JSON.parse(candidate);
      if (value !== null && typeof value === "object" && !Array.isArray(value)) {
        found = value;
        break;
      }
    } catch {
      // Not reached for a recognised value; kept so that a disagreement never throws.
    }
  }
  if (options.steps) options.steps.count += scan.steps + text.length;
  return found;
}

const enum Code {
  Tab = 9,
  Newline = 10,
  Return = 13,
  Space = 32,
  Quote = 34,
  Plus = 43,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Slash = 47,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  UpperE = 69,
  OpenSquare = 91,
  Backslash = 92,
  CloseSquare = 93,
  LowerE = 101,
  OpenCurly = 123,
  CloseCurly = 125,
}

/** What an open container expects next. */
const enum Want {
  /** Object, just opened: a key or `}`. */
  KeyOrClose,
  /** Object, after a comma: a key. */
  Key,
  /** Object: `:` after a key. */
  Colon,
  /** Object: a member's value. */
  MemberValue,
  /** Object: `,` or `}` after a member. */
  MemberEnd,
  /** Array, just opened: an item or `]`. */
  ItemOrClose,
  /** Array, after a comma: an item. */
  Item,
  /** Array: `,` or `]` after an item. */
  ItemEnd,
}

const isSpace = (c: number) =>
  c === Code.Space || c === Code.Newline || c === Code.Return || c === Code.Tab;
const isDigit = (c: number) => c >= Code.Zero && c <= Code.Nine;
const isHex = (c: number) => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
/** Characters that may follow a backslash in a JSON string (besides `u`). */
const ESCAPES = new Set([Code.Quote, Code.Backslash, Code.Slash, 98, 102, 110, 114, 116]);

/** The memoising recogniser of JSON values (with dangling commas) in one text. */
class Recognizer {
  readonly text: string;
  /** Per position: 0 unknown, -1 the container starting there fails, else its end (exclusive). */
  readonly memo: Int32Array;
  /** Work done so far (characters read and memoised jumps). */
  steps = 0;
  /** Read position of the token readers. */
  #pos = 0;

  constructor(text: string) {
    this.text = text;
    this.memo = new Int32Array(text.length);
  }

  /** End (exclusive) of the object or array starting at `start`, or -1 when it is not one. */
  valueEnd(start: number): number {
    this.steps++;
    if (this.memo[start] !== 0) return this.memo[start];
    const text = this.text;
    const n = text.length;
    const starts: number[] = [];
    const wants: Want[] = [];
    const fail = (): number => {
      for (const s of starts) this.memo[s] = -1;
      return -1;
    };
    const opened = (at: number) => {
      starts.push(at);
      wants.push(text.charCodeAt(at) === Code.OpenCurly ? Want.KeyOrClose : Want.ItemOrClose);
    };
    /** A value of the innermost open container ended. */
    const valueDone = () => {
      const top = wants.length - 1;
      wants[top] = wants[top] === Want.MemberValue ? Want.MemberEnd : Want.ItemEnd;
    };
    opened(start);
    let pos = start + 1;
    while (wants.length > 0) {
      while (pos < n && isSpace(text.charCodeAt(pos))) pos++, this.steps++;
      if (pos >= n) return fail();
      let c = text.charCodeAt(pos);
      this.steps++;
      if (c === Code.Comma) {
        // A dangling comma (before `}` or `]`) is read as absent.
        let ahead = pos + 1;
        while (ahead < n && isSpace(text.charCodeAt(ahead))) ahead++, this.steps++;
        const next = ahead < n ? text.charCodeAt(ahead) : -1;
        if (next === Code.CloseCurly || next === Code.CloseSquare) {
          pos = ahead;
          c = next;
        }
      }
      const top = wants.length - 1;
      const want = wants[top];
      if (c === Code.CloseCurly || c === Code.CloseSquare) {
        const closes = c === Code.CloseCurly
          ? want === Want.KeyOrClose || want === Want.MemberEnd
          : want === Want.ItemOrClose || want === Want.ItemEnd;
        if (!closes) return fail();
        pos++;
        this.memo[starts.pop()!] = pos;
        wants.pop();
        if (wants.length > 0) valueDone();
        continue;
      }
      if (want === Want.KeyOrClose || want === Want.Key) {
        this.#pos = pos;
        if (c !== Code.Quote || !this.#string()) return fail();
        pos = this.#pos;
        wants[top] = Want.Colon;
      } else if (want === Want.Colon) {
        if (c !== Code.Colon) return fail();
        pos++;
        wants[top] = Want.MemberValue;
      } else if (want === Want.MemberEnd || want === Want.ItemEnd) {
        if (c !== Code.Comma) return fail();
        pos++;
        wants[top] = want === Want.MemberEnd ? Want.Key : Want.Item;
      } else if (c === Code.OpenCurly || c === Code.OpenSquare) {
        const known = this.memo[pos];
        this.steps++;
        if (known < 0) return fail();
        if (known > 0) {
          pos = known;
          valueDone();
        } else {
          opened(pos);
          pos++;
        }
      } else {
        this.#pos = pos;
        const ok = c === Code.Quote
          ? this.#string()
          : c === Code.Minus || isDigit(c)
          ? this.#number()
          : this.#literal();
        if (!ok) return fail();
        pos = this.#pos;
        valueDone();
      }
    }
    return pos;
  }

  /** Reads a string token at `#pos` (a quote); moves `#pos` past it. */
  #string(): boolean {
    const text = this.text;
    const n = text.length;
    let p = this.#pos + 1;
    while (p < n) {
      const c = text.charCodeAt(p);
      this.steps++;
      if (c === Code.Quote) {
        this.#pos = p + 1;
        return true;
      }
      if (c < 0x20) return false;
      if (c !== Code.Backslash) {
        p++;
        continue;
      }
      const e = text.charCodeAt(p + 1);
      this.steps++;
      if (e === 117 /* u */) {
        for (let k = 2; k < 6; k++) {
          this.steps++;
          if (!isHex(text.charCodeAt(p + k))) return false;
        }
        p += 6;
      } else if (ESCAPES.has(e)) p += 2;
      else return false;
    }
    return false;
  }

  /** Reads a number token at `#pos`; moves `#pos` past it. */
  #number(): boolean {
    const text = this.text;
    let p = this.#pos;
    const digits = () => {
      const from = p;
      while (isDigit(text.charCodeAt(p))) p++, this.steps++;
      return p > from;
    };
    if (text.charCodeAt(p) === Code.Minus) p++, this.steps++;
    if (text.charCodeAt(p) === Code.Zero) p++, this.steps++;
    else if (!digits()) return false;
    if (text.charCodeAt(p) === Code.Dot) {
      p++;
      if (!digits()) return false;
    }
    const e = text.charCodeAt(p);
    if (e === Code.LowerE || e === Code.UpperE) {
      p++;
      const sign = text.charCodeAt(p);
      if (sign === Code.Plus || sign === Code.Minus) p++;
      if (!digits()) return false;
    }
    this.#pos = p;
    return true;
  }

  /** Reads `true`, `false` or `null` at `#pos`; moves `#pos` past it. */
  #literal(): boolean {
    for (const word of LITERALS) {
      if (this.text.startsWith(word, this.#pos)) {
        this.steps += word.length;
        this.#pos += word.length;
        return true;
      }
    }
    this.steps++;
    return false;
  }
}

const LITERALS = ["true", "false", "null"];

/**
 * The text of a recognised value with its dangling commas (outside strings)
 * removed, ready for `JSON.parse`.
 */
function withoutDanglingCommas(value: string): string {
  let out = "";
  let from = 0;
  let inString = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (inString) {
      if (c === Code.Backslash) i++;
      else if (c === Code.Quote) inString = false;
    } else if (c === Code.Quote) inString = true;
    else if (c === Code.Comma) {
      let j = i + 1;
      while (j < value.length && isSpace(value.charCodeAt(j))) j++;
      const next = value.charCodeAt(j);
      if (next === Code.CloseCurly || next === Code.CloseSquare) {
        out += value.slice(from, i);
        from = i + 1;
      }
    }
  }
  return from === 0 ? value : out + value.slice(from);
}

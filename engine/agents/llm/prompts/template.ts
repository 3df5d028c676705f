/**
 * Prompt templates: one per (environment, role, call), each a pure function of
 * that call's authorized view returning the system and user messages (FRAIL
 * Appendix G: the system prompt carries the role, the game parameters and the
 * rules; the user prompt the state as of the end of last round, the agent's own
 * position, its mechanism messages and the output contract). A template sees
 * the view and nothing else, so nothing outside the view can reach a prompt.
 *
 * @module
 */

/** One chat message. */
export interface ChatMessage {
  /** Who speaks. */
  role: "system" | "user" | "assistant";
  /** The text. */
  content: string;
}

/** A prompt template for one call. */
export interface PromptTemplate<V = unknown> {
  /** Environment id, e.g. `"bank_run"`. */
  env: string;
  /** Role, e.g. `"depositor"`. */
  role: string;
  /** Call kind, e.g. `"withdrawal"`. */
  call: string;
  /** Renders the messages from the call's view. */
  render(view: V): ChatMessage[];
}

/** The templates of one environment. */
export type PromptSet = readonly PromptTemplate<never>[];

/** What {@linkcode definePrompt} takes. */
export interface PromptSpec<V> {
  /** Environment id. */
  env: string;
  /** Role. */
  role: string;
  /** Call kind. */
  call: string;
  /** The system prompt's blocks, in order (`null` blocks are left out). */
  system(view: V): (string | null)[];
  /** The user prompt's blocks, in order (`null` blocks are left out). */
  user(view: V): (string | null)[];
  /** What goes between blocks. Default one blank line (`"\n\n"`). */
  separator?: string;
}

/**
 * Builds a template whose system and user prompts are blocks joined by one
 * blank line (or the spec's separator).
 *
 * @example
 * ```ts
 * import { definePrompt } from "./template.ts";
 * const t = definePrompt<{ name: string }>({
 *   env: "demo", role: "player", call: "greet",
 *   system: () => ["[ROLE]\nYou are a player."],
 *   user: (v) => [`[PROFILE]\n- Name: ${v.name}`, null],
 * });
 * const [sys, user] = t.render({ name: "p1" });
 * if (sys.content !== "[ROLE]\nYou are a player." || user.content !== "[PROFILE]\n- Name: p1") throw new Error();
 * ```
 */
export function definePrompt<V>(spec: PromptSpec<V>): PromptTemplate<V> {
  const separator = spec.separator ?? "\n\n";
  const join = (blocks: (string | null)[]) => blocks.filter((b) => b !== null).join(separator);
  return {
    env: spec.env,
    role: spec.role,
    call: spec.call,
    render(view: V): ChatMessage[] {
      return [
        { role: "system", content: join(spec.system(view)) },
        { role: "user", content: join(spec.user(view)) },
      ];
    },
  };
}

/**
 * The template of a role's call in a set.
 *
 * @example
 * ```ts
 * import { definePrompt, findTemplate } from "./template.ts";
 * const t = definePrompt({ env: "e", role: "r", call: "c", system: () => [], user: () => [] });
 * if (findTemplate([t], "r", "c") !== t || findTemplate([t], "r", "x") !== undefined) throw new Error();
 * ```
 */
export function findTemplate(
  set: PromptSet,
  role: string,
  call: string,
): PromptTemplate | undefined {
  return set.find((t) => t.role === role && t.call === call) as PromptTemplate | undefined;
}

/**
 * A number with three decimals, as the paper prints amounts (`-0.000` never appears).
 *
 * @example
 * ```ts
 * import { num3 } from "./template.ts";
 * if (num3(15) !== "15.000" || num3(-1e-12) !== "0.000" || num3(0.9024) !== "0.902") throw new Error();
 * ```
 */
export function num3(x: number): string {
  return Math.abs(x) < 0.0005 ? "0.000" : x.toFixed(3);
}

/**
 * A list of ids written as the paper's logs print it: `['dep_01', 'dep_02']`.
 *
 * @example
 * ```ts
 * import { idList } from "./template.ts";
 * if (idList(["dep_01"]) !== "['dep_01']" || idList([]) !== "[]") throw new Error();
 * ```
 */
export function idList(ids: readonly string[]): string {
  return `[${ids.map((id) => `'${id}'`).join(", ")}]`;
}

/** Options of {@linkcode wrap}. */
export interface WrapOptions {
  /** Longest line, in characters. Default 79. */
  width?: number;
  /** Prefix of the continuation lines. Default none. */
  indent?: string;
}

/**
 * Greedy word wrap of one paragraph: lines of at most `width` characters
 * (a word longer than that stays whole), continuation lines indented.
 *
 * @example
 * ```ts
 * import { wrap } from "./template.ts";
 * const w = wrap("- one two three four", { width: 12, indent: "  " });
 * if (w !== "- one two\n  three four") throw new Error(w);
 * ```
 */
export function wrap(text: string, options: WrapOptions = {}): string {
  const width = options.width ?? 79;
  const indent = options.indent ?? "";
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line === "") line = (lines.length ? indent : "") + word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = indent + word;
    }
  }
  lines.push(line);
  return lines.join("\n");
}

/**
 * A small count in words ("two"), or digits from thirteen on.
 *
 * @example
 * ```ts
 * import { countWord } from "./template.ts";
 * if (countWord(4) !== "four" || countWord(15) !== "15") throw new Error();
 * ```
 */
export function countWord(n: number): string {
  const words = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
  ];
  return words[n] ?? String(n);
}

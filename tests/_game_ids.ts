// Finds the places where TypeScript source compares a string literal with a
// game or family id: `x === "frail"`, `"frail" !== x`, `case "frail":`, and
// the Polars form `.eq(pl.lit("bank_run"))` / `.neq(...)`. Comments and
// JSDoc examples are skipped; template literals without a substitution count
// as strings. The lexer knows just enough TypeScript for that: strings,
// templates (with nested `${...}`), comments, regular expression literals
// (told from division by the token before them) and punctuators.

/** A token of the source: a string literal's value, a word or a punctuator. */
interface Token {
  kind: "string" | "word" | "punct" | "template" | "regex";
  value: string;
  line: number;
}

/** Where a string literal equal to an id is compared, and with what. */
export interface IdBranch {
  /** 1-based line. */
  line: number;
  /** The id compared with. */
  id: string;
}

const COMPARE = new Set(["===", "!==", "==", "!="]);
const PUNCTS = [
  "===",
  "!==",
  "**=",
  "...",
  "==",
  "!=",
  "<=",
  ">=",
  "=>",
  "&&",
  "||",
  "??",
  "?.",
  "++",
  "--",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "&=",
  "|=",
  "^=",
  "**",
];
/** Words after which a `/` starts a regular expression. */
const BEFORE_REGEX = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  // Brace depth at which each open template's `${` started.
  const templates: number[] = [];
  let depth = 0;
  const regexAllowed = () => {
    const prev = tokens.at(-1);
    if (prev === undefined) return true;
    if (prev.kind === "word") return BEFORE_REGEX.has(prev.value);
    if (prev.value === "!") {
      // A postfix non-null assertion (`x!`, `f()!`) ends an expression.
      const before = tokens.at(-2);
      const ends = before !== undefined &&
        (before.kind === "string" || before.value === ")" || before.value === "]" ||
          (before.kind === "word" && !BEFORE_REGEX.has(before.value)));
      return !ends;
    }
    if (prev.kind === "punct") return ![")", "]", "}"].includes(prev.value);
    return false;
  };
  /** Reads a template from after its opening backtick (or a `}` closing a substitution). */
  const readTemplate = (startLine: number, head: boolean) => {
    let value = "";
    while (i < text.length) {
      const c = text[i];
      if (c === "\\") {
        value += text[i + 1];
        if (text[i + 1] === "\n") line++;
        i += 2;
        continue;
      }
      if (c === "`") {
        i++;
        tokens.push({ kind: head ? "string" : "template", value, line: startLine });
        return;
      }
      if (c === "$" && text[i + 1] === "{") {
        i += 2;
        tokens.push({ kind: "template", value, line: startLine });
        templates.push(depth);
        depth++;
        return;
      }
      if (c === "\n") line++;
      value += c;
      i++;
    }
    throw new SyntaxError(`Unterminated template literal from line ${startLine}`);
  };
  while (i < text.length) {
    const c = text[i];
    if (c === "\n") {
      line++;
      i++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) throw new SyntaxError(`Unterminated comment on line ${line}`);
      for (let k = i; k < end; k++) if (text[k] === "\n") line++;
      i = end + 2;
      continue;
    }
    if (c === "'" || c === '"') {
      const start = line;
      let value = "";
      i++;
      while (i < text.length && text[i] !== c) {
        if (text[i] === "\n") throw new SyntaxError(`Unterminated string on line ${start}`);
        if (text[i] === "\\") {
          value += text[i + 1];
          i += 2;
          continue;
        }
        value += text[i++];
      }
      i++;
      tokens.push({ kind: "string", value, line: start });
      continue;
    }
    if (c === "`") {
      i++;
      readTemplate(line, true);
      continue;
    }
    if (c === "}" && templates.length > 0 && templates.at(-1) === depth - 1) {
      templates.pop();
      depth--;
      i++;
      readTemplate(line, false);
      continue;
    }
    if (c === "/" && regexAllowed()) {
      const start = line;
      let inClass = false;
      i++;
      while (i < text.length) {
        const r = text[i];
        if (r === "\n") throw new SyntaxError(`Unterminated regular expression on line ${start}`);
        if (r === "\\") {
          i += 2;
          continue;
        }
        if (r === "[") inClass = true;
        else if (r === "]") inClass = false;
        else if (r === "/" && !inClass) break;
        i++;
      }
      i++;
      while (i < text.length && /[a-z]/i.test(text[i])) i++;
      tokens.push({ kind: "regex", value: "", line: start });
      continue;
    }
    const word = /^[A-Za-z0-9_$\u00a0-\uffff]+/.exec(text.slice(i, i + 200));
    if (word !== null) {
      tokens.push({ kind: "word", value: word[0], line });
      i += word[0].length;
      continue;
    }
    const punct = PUNCTS.find((p) => text.startsWith(p, i)) ?? c;
    if (punct === "{") depth++;
    if (punct === "}") depth--;
    tokens.push({ kind: "punct", value: punct, line });
    i += punct.length;
  }
  return tokens;
}

/**
 * The string literals of `text` equal to one of `ids` that are compared:
 * an operand of `===`, `!==`, `==` or `!=`, a `case` label, or the value of
 * a Polars `.eq(pl.lit(...))` / `.neq(pl.lit(...))`.
 *
 * @throws {SyntaxError} For an unterminated string, template, comment or regular expression.
 */
export function idBranches(text: string, ids: ReadonlySet<string>): IdBranch[] {
  const tokens = tokenize(text);
  const out: IdBranch[] = [];
  const at = (k: number) => tokens[k]?.value;
  tokens.forEach((t, k) => {
    if (t.kind !== "string" || !ids.has(t.value)) return;
    const prev = tokens[k - 1];
    const next = tokens[k + 1];
    const compared = (prev?.kind === "punct" && COMPARE.has(prev.value)) ||
      (prev?.kind === "word" && prev.value === "case") ||
      (next?.kind === "punct" && COMPARE.has(next.value)) ||
      (at(k - 1) === "(" && at(k - 2) === "lit" && at(k - 3) === "." && at(k - 4) === "pl" &&
        at(k - 5) === "(" && (at(k - 6) === "eq" || at(k - 6) === "neq"));
    if (compared) out.push({ line: t.line, id: t.value });
  });
  return out;
}

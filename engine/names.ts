/**
 * Names that become parts of paths (run, episode and spec names), and the
 * check that a path about to be written lies inside its folder.
 *
 * A name is letters, digits, `_`, `-` and `.`, starting with a letter, a
 * digit or `_`: so never `.`, `..`, a hidden name, an option-like `-x`, or
 * anything holding a path separator. {@linkcode pathInside} then proves,
 * after resolving, that the joined path stays inside its root (a second
 * line of defence should a caller build a path from something else).
 *
 * @module
 */
import { isAbsolute, join, relative, resolve } from "node:path";

/**
 * The pattern every run, episode and spec name must match.
 *
 * @example
 * ```ts
 * import { NAME_PATTERN } from "./names.ts";
 * if (!NAME_PATTERN.test("bank_run_M0_e1") || NAME_PATTERN.test("..") || NAME_PATTERN.test("a/b")) {
 *   throw new Error();
 * }
 * ```
 */
export const NAME_PATTERN: RegExp = /^\w[\w.-]*$/;

/**
 * What {@linkcode NAME_PATTERN} allows, for error messages.
 *
 * @example
 * ```ts
 * import { NAME_HINT } from "./names.ts";
 * if (!NAME_HINT.startsWith("use letters")) throw new Error();
 * ```
 */
export const NAME_HINT =
  "use letters, digits, '_', '-' or '.', starting with a letter, digit or '_'";

/** Longest name: file names stay well under the usual 255-byte limit. */
const MAX_NAME = 200;

/**
 * Whether a value is a valid name: a string matching {@linkcode NAME_PATTERN},
 * at most 200 characters.
 *
 * @example
 * ```ts
 * import { isName } from "./names.ts";
 * if (!isName("demo") || isName("..") || isName(3) || isName("a".repeat(201))) throw new Error();
 * ```
 */
export function isName(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_NAME && NAME_PATTERN.test(value);
}

/**
 * Checks a name and returns it.
 *
 * @example
 * ```ts
 * import { checkName } from "./names.ts";
 * checkName("run", "demo");
 * try {
 *   checkName("run", "..");
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e instanceof RangeError) || !e.message.startsWith('Invalid run name ".."')) throw e;
 * }
 * ```
 * @throws {RangeError} Naming the kind of name and the value, for a name outside the pattern.
 */
export function checkName(kind: string, value: string): string {
  if (!isName(value)) {
    throw new RangeError(
      `Invalid ${kind} name ${JSON.stringify(value)}: ${NAME_HINT}, at most ${MAX_NAME} characters`,
    );
  }
  return value;
}

/**
 * Joins `parts` onto `root` and proves the result lies strictly inside
 * `root` (after resolving `.` and `..`).
 *
 * @example
 * ```ts
 * import { pathInside } from "./names.ts";
 * if (pathInside("runs", "demo", "a.ndjson") !== "runs/demo/a.ndjson") throw new Error();
 * try {
 *   pathInside("runs/demo", "..", "x.ndjson");
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e instanceof RangeError)) throw e;
 * }
 * ```
 * @throws {RangeError} When the path would lie outside `root` or be `root` itself.
 */
export function pathInside(root: string, ...parts: string[]): string {
  const path = join(root, ...parts);
  const rel = relative(resolve(root), resolve(path));
  if (rel === "" || rel === ".." || rel.startsWith("../") || isAbsolute(rel)) {
    throw new RangeError(`Refusing to write "${path}": it lies outside the folder "${root}"`);
  }
  return path;
}

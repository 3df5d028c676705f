/**
 * The commands' numeric flags, read one way: a value that is not a number
 * of the kind asked for is refused with a message naming the flag and the
 * text given (each command says how it stops: its usage, its exit code).
 *
 * @module
 */

/** Readers of numeric flags' texts, each `undefined` for a flag not given. */
export interface NumberFlags {
  /** An integer `>= min`. */
  int(name: string, text: string | undefined, min: number): number | undefined;
  /** A finite number `> 0`. */
  positive(name: string, text: string | undefined): number | undefined;
}

/**
 * The readers of numeric flags that call `fail` with the message for a bad
 * value (`--workers must be an integer >= 0, got "x"`).
 *
 * @example
 * ```ts
 * import { numberFlags } from "./_flags.ts";
 * const { int, positive } = numberFlags((message) => { throw new RangeError(message); });
 * if (int("n", "3", 1) !== 3 || int("n", undefined, 1) !== undefined) throw new Error();
 * if (positive("max-cost", "0.5") !== 0.5) throw new Error();
 * try {
 *   int("n", "0", 1);
 *   throw new Error("accepted");
 * } catch (e) {
 *   if ((e as Error).message !== '--n must be an integer >= 1, got "0"') throw e;
 * }
 * ```
 */
export function numberFlags(fail: (message: string) => never): NumberFlags {
  return {
    int(name, text, min) {
      if (text === undefined) return undefined;
      const n = Number(text);
      if (!Number.isSafeInteger(n) || n < min) {
        fail(`--${name} must be an integer >= ${min}, got "${text}"`);
      }
      return n;
    },
    positive(name, text) {
      if (text === undefined) return undefined;
      const n = Number(text);
      if (!(n > 0) || !Number.isFinite(n)) fail(`--${name} must be a number > 0, got "${text}"`);
      return n;
    },
  };
}

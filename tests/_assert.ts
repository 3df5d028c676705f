// Minimal assertions (the std assert module is JSR-only, which our machines cannot reach).
import { AssertionError, deepStrictEqual, notDeepStrictEqual } from "node:assert";

/** Deep equality. */
export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  deepStrictEqual(actual, expected, msg);
}

/** Deep inequality. */
export function assertNotEquals<T>(actual: T, expected: T, msg?: string): void {
  notDeepStrictEqual(actual, expected, msg);
}

/** |actual - expected| <= tolerance. */
export function assertAlmostEquals(
  actual: number,
  expected: number,
  tolerance = 1e-9,
  msg?: string,
): void {
  if (!(Math.abs(actual - expected) <= tolerance)) {
    throw new AssertionError({
      message: msg ?? `Expected ${actual} to be within ${tolerance} of ${expected}`,
      actual,
      expected,
    });
  }
}

/** Truthiness. */
export function assert(cond: unknown, msg = "Assertion failed"): asserts cond {
  if (!cond) throw new AssertionError({ message: msg });
}

/** Throws of a class with a message containing `includes`. */
export function assertThrows(
  fn: () => unknown,
  // deno-lint-ignore no-explicit-any
  cls?: new (...args: any[]) => Error,
  includes?: string,
): Error {
  try {
    fn();
  } catch (e) {
    check(e, cls, includes);
    return e as Error;
  }
  throw new AssertionError({ message: "Expected function to throw" });
}

/** Rejects with a class and a message containing `includes`. */
export async function assertRejects(
  fn: () => Promise<unknown>,
  // deno-lint-ignore no-explicit-any
  cls?: new (...args: any[]) => Error,
  includes?: string,
): Promise<Error> {
  try {
    await fn();
  } catch (e) {
    check(e, cls, includes);
    return e as Error;
  }
  throw new AssertionError({ message: "Expected promise to reject" });
}

// deno-lint-ignore no-explicit-any
function check(e: unknown, cls?: new (...args: any[]) => Error, includes?: string) {
  if (cls && !(e instanceof cls)) {
    throw new AssertionError({
      message: `Expected ${cls.name}, got ${(e as Error)?.name}: ${(e as Error)?.message}`,
    });
  }
  if (includes && !String((e as Error)?.message).includes(includes)) {
    throw new AssertionError({
      message: `Expected message to include "${includes}", got "${(e as Error)?.message}"`,
    });
  }
}

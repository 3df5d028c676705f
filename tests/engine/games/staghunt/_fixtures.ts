// Hand-built transcripts with hand-computed answers (see metrics_test.ts).
import { AssertionError } from "node:assert";
import type { StagHuntTurn } from "../../../../engine/games/staghunt/turns.ts";

/** |actual - expected| <= tol. */
export function near(actual: number, expected: number, tol = 1e-12, msg?: string): void {
  if (!(Math.abs(actual - expected) <= tol)) {
    throw new AssertionError({
      message: `${msg ? msg + ": " : ""}expected ${actual} to be within ${tol} of ${expected}`,
      actual,
      expected,
    });
  }
}

type Row = [agent: string, corrupted: boolean, original: "S" | "H", pub: "S" | "H", conf: number];

function episode(
  game: Pick<StagHuntTurn, "episode" | "N" | "M" | "T" | "F">,
  rounds: Row[][],
): StagHuntTurn[] {
  const act = (a: "S" | "H") => (a === "S" ? "Stag" : "Hare");
  return rounds.flatMap((rows, r) =>
    rows.map(([agent, corrupted, original, pub, confidence], i) => ({
      run: "hand",
      ...game,
      corruption: "base" as const,
      payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 },
      round: r + 1,
      position: i + 1,
      agent,
      corrupted,
      originalAction: act(original),
      publicAction: act(pub),
      executedAction: act(pub),
      confidence,
      originalJustification: "",
      publicJustification: "",
    }))
  );
}

/**
 * E1: N = 3, M = 2, T = 4, p02 corrupted (base). Rounds:
 * R1 S/S H<-S H/H  (S_int 1, S_pub 0: flip loss)
 * R2 H/H S<-H H/H  (0, 0: shared failure)
 * R3 S/S S<-H S/S  (1, 1: shared success)
 * R4 S/S S<-H H/H  (0, 1: flip rescue)
 * E2: N = 2, M = 2, T = 1, p01 corrupted. R1 H<-S S/S (1, 0: flip loss).
 */
export const HAND: StagHuntTurn[] = [
  ...episode({ episode: "E1", N: 3, M: 2, T: 4, F: 1 }, [
    [["p01", false, "S", "S", 0.9], ["p02", true, "S", "H", 0.6], ["p03", false, "H", "H", 0.3]],
    [["p01", false, "H", "H", 0.8], ["p02", true, "H", "S", 0.7], ["p03", false, "H", "H", 0.95]],
    [["p01", false, "S", "S", 0.5], ["p02", true, "H", "S", 0.4], ["p03", false, "S", "S", 1.0]],
    [["p01", false, "S", "S", 0.2], ["p02", true, "H", "S", 0.9], ["p03", false, "H", "H", 0.1]],
  ]),
  ...episode({ episode: "E2", N: 2, M: 2, T: 1, F: 1 }, [
    [["p01", true, "S", "H", 0.7], ["p02", false, "S", "S", 0.8]],
  ]),
];

/** Asserts that fn throws an instance of cls whose message matches. */
export function throwsWith(
  fn: () => unknown,
  // deno-lint-ignore no-explicit-any
  cls: new (...args: any[]) => Error,
  message: RegExp | string,
): void {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof cls)) {
      throw new AssertionError({ message: `Expected ${cls.name}, got ${String(e)}` });
    }
    const ok = typeof message === "string" ? e.message.includes(message) : message.test(e.message);
    if (!ok) throw new AssertionError({ message: `Unexpected message: ${e.message}` });
    return;
  }
  throw new AssertionError({ message: "Expected a throw" });
}

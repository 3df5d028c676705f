/**
 * The minimum-effort game's prompt blocks, in the style of the FRAIL
 * prompts (Appendix G: the system prompt carries the role, the game's rules
 * and its parameters; the user prompt what the player knows as of the end of
 * last round, its task and the output contract) and of Van Huyck, Battalio
 * and Beil's instructions: a neutral frame (players "choose a number", the
 * group's smallest number is "the minimum"), and the payoff table their
 * subjects were given, rows the player's own choice from the highest down,
 * columns the minimum from the highest down, cells in dollars, left blank
 * where the minimum would exceed the player's own choice.
 *
 * What the prompts say is what the view holds (`state.ts`): the
 * parameters, the round and T, and the player's own choices, the announced
 * minima and its own earnings; never the other players' choices.
 *
 * Choices where the paper is open: the wording; amounts in dollars with two
 * decimals, more only where the amount has more (a = 0.125 shows as
 * $0.125); the history oldest first, one line a round.
 *
 * @module
 */
import { payoffOf } from "../params.ts";
import type { MinEffortView } from "../state.ts";

/**
 * An amount of money without its sign's dollar: two decimals, more only when
 * the amount needs them (to six), `-` for a loss and never `-0.00`.
 *
 * @example
 * ```ts
 * import { amount } from "./blocks.ts";
 * if (amount(1.3000000000000003) !== "1.30" || amount(0.125) !== "0.125" || amount(-1e-13) !== "0.00") {
 *   throw new Error();
 * }
 * ```
 */
export function amount(x: number): string {
  const r = Math.round(x * 1e6) / 1e6;
  const abs = Math.abs(r);
  let s = abs.toFixed(2);
  if (Number(s) !== abs) s = String(abs);
  return r < 0 ? `-${s}` : s;
}

/**
 * An amount in dollars: `$0.20`, `-$0.10`.
 *
 * @example
 * ```ts
 * import { dollars } from "./blocks.ts";
 * if (dollars(0.2) !== "$0.20" || dollars(-0.1) !== "-$0.10") throw new Error();
 * ```
 */
export function dollars(x: number): string {
  const s = amount(x);
  return s.startsWith("-") ? `-$${s.slice(1)}` : `$${s}`;
}

/**
 * The payoff table: one row per own choice (highest first), one column per
 * minimum (highest first), blank where the minimum exceeds the choice.
 *
 * @example
 * ```ts
 * import { payoffTable } from "./blocks.ts";
 * const t = payoffTable({ efforts: 2, a: 0.2, b: 0.1, c: 0.6 });
 * if (t !== "[PAYOFF TABLE]\nYour earnings in dollars for each choice and each minimum:\n" +
 *   "Your     | Minimum chosen in the group\n" +
 *   "choice   |    2     1\n" +
 *   "       2 | 0.80  0.60\n" +
 *   "       1 |       0.70") throw new Error(t);
 * ```
 */
export function payoffTable(v: Pick<MinEffortView, "efforts" | "a" | "b" | "c">): string {
  const E = v.efforts;
  const cells: string[][] = [];
  for (let own = E; own >= 1; own--) {
    const row: string[] = [];
    for (let m = E; m >= 1; m--) row.push(m > own ? "" : amount(payoffOf(v, own, m)));
    cells.push(row);
  }
  const width = Math.max(4, ...cells.flat().map((s) => s.length), String(E).length);
  const pad = (s: string) => s.padStart(width);
  const lines = [
    "[PAYOFF TABLE]",
    "Your earnings in dollars for each choice and each minimum:",
    "Your     | Minimum chosen in the group",
    `choice   | ${Array.from({ length: E }, (_, i) => pad(String(E - i))).join("  ")}`,
  ];
  cells.forEach((row, i) => {
    lines.push(`${String(E - i).padStart(8)} | ${row.map(pad).join("  ")}`.trimEnd());
  });
  return lines.join("\n");
}

/**
 * The system prompt: [ROLE], [GAME] and the [PAYOFF TABLE].
 *
 * @example
 * ```ts
 * import { system } from "./blocks.ts";
 * const s = system({ you: "p03", N: 7, T: 10, efforts: 7, a: 0.2, b: 0.1, c: 0.6 } as never);
 * if (!s.includes("earnings = $0.20 x (the minimum) - $0.10 x (your number) + $0.60")) throw new Error(s);
 * ```
 */
export function system(v: MinEffortView): string {
  return `[ROLE]
You are ${v.you}, one of ${v.N} players in a group that plays the same decision
task for ${v.T} rounds. Every round each player chooses a whole number from 1 to ${v.efforts}.

[GAME]
- All players choose at the same time; nobody sees anyone else's number.
- The smallest number chosen in the group in a round is the minimum.
- Your earnings in a round depend on your own number and on the minimum:
  earnings = ${dollars(v.a)} x (the minimum) - ${dollars(v.b)} x (your number) + ${dollars(v.c)}.
- After each round the minimum is announced to all players, and you learn
  your own earnings. You never learn the other players' numbers.
- Your total earnings are the sum of your earnings over all ${v.T} rounds.

${payoffTable(v)}`;
}

/**
 * The [HISTORY] block: the player's own number, the minimum and its earnings
 * in every round so far, oldest first.
 *
 * @example
 * ```ts
 * import { history } from "./blocks.ts";
 * const h = history({ history: [{ round: 1, effort: 7, minimum: 4, payoff: 0.7 }] } as never);
 * if (h !== "[HISTORY]\n- Round 1: you chose 7; the minimum was 4; you earned $0.70.") throw new Error(h);
 * if (history({ history: [] } as never) !== "[HISTORY]\nNo rounds have been played yet.") throw new Error();
 * ```
 */
export function history(v: Pick<MinEffortView, "history">): string {
  if (v.history.length === 0) return "[HISTORY]\nNo rounds have been played yet.";
  return [
    "[HISTORY]",
    ...v.history.map((r) =>
      `- Round ${r.round}: you chose ${r.effort}; the minimum was ${r.minimum}; you earned ${
        dollars(r.payoff)
      }.`
    ),
  ].join("\n");
}

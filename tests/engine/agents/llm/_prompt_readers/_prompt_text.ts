// A test oracle: reads a rendered prompt back into the view it was rendered from, so the prompt
// tests can check that the text carries every field of the view. It was the local server's reader
// before the server became a game-agnostic double (the engine no longer parses prompts).
// Shared pieces of the prompt readers: numbers, id lists and `[HEADER]`
// blocks read off rendered text, and the mechanism messages the three FRAIL
// environments render alike (outstanding payments, accepted terms, the
// agreement's committed total, the coalition's total), each in its own words.
import type { Message } from "../../../../../engine/frail/types.ts";

/** A number pattern with one capture group. */
export const NUM = "(-?\\d+(?:\\.\\d+)?)";

/** The first capture of a pattern in a text as a number, or `fallback`. */
export function num(text: string, re: string | RegExp, fallback = 0): number {
  const m = text.match(typeof re === "string" ? new RegExp(re) : re);
  return m ? Number(m[1]) : fallback;
}

/** The quoted ids of a list such as `['a', 'b']`. */
export function ids(list: string): string[] {
  return [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]);
}

/** The lines of a `[HEADER]` block, up to the next header. */
export function block(text: string, header: string): string[] {
  const lines = text.split("\n");
  const i = lines.findIndex((l) => l.startsWith(`[${header}`));
  if (i < 0) return [];
  const out: string[] = [];
  for (const l of lines.slice(i + 1)) {
    if (l.startsWith("[")) break;
    out.push(l);
  }
  return out;
}

/** How an environment's templates word its mechanism messages. */
export interface MessageWords {
  /** How a message from the principal starts, and the principal's id (others are the coalition's). */
  principal: { prefix: string; id: string };
  /** The outstanding-payments message: marker, kind and total. */
  outstanding: { marker: string; kind: string; total: string | RegExp };
  /** The accepted-terms message: marker, the key of the party, and one term (party, amount, rounds left). */
  terms: { marker: string; party: string; each: RegExp };
  /** The agreement's committed-total message: marker and total (the prompt prints no signers' count). */
  agreement: { marker: string; total: string | RegExp };
  /** The coalition's total: marker, kind and total (the prompt prints no members' count). */
  coalition: { marker: string; kind: string; total: string | RegExp };
}

/** One mechanism message line read back. */
export function readMessage(line: string, w: MessageWords): Message {
  const from = line.startsWith(w.principal.prefix) ? w.principal.id : "coalition";
  if (line.includes(w.outstanding.marker)) {
    return { from, kind: w.outstanding.kind, content: { total: num(line, w.outstanding.total) } };
  }
  if (line.includes(w.terms.marker)) {
    const terms = [...line.matchAll(w.terms.each)].map((m) => ({
      [w.terms.party]: m[1],
      amount: Number(m[2]),
      lock_rounds_remaining: Number(m[3]),
    }));
    return { from, kind: "accepted_terms", content: { terms } };
  }
  if (line.includes(w.agreement.marker)) {
    return {
      from,
      kind: "aggregate_committed",
      content: { total: num(line, w.agreement.total) },
    };
  }
  if (line.includes(w.coalition.marker)) {
    return { from, kind: w.coalition.kind, content: { total: num(line, w.coalition.total) } };
  }
  return { from, kind: "unknown", content: { text: line } };
}

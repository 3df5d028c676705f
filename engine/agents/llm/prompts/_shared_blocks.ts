/**
 * Prompt pieces shared by more than one environment's templates: the
 * [OUTPUT] block's frame and reply fields, the M1-M3 `proposal_actions`
 * replies, the [MESSAGES] and proposal blocks' frames, and the lists the
 * FRAIL mechanisms print (accepted terms, signers, pending votes, exit
 * rituals). Each environment keeps its own wording (who speaks, what is
 * offered); only the frames and the phrases every environment prints alike
 * live here, so each rendered prompt is exactly what it was before they were
 * shared.
 *
 * @module
 */
import type { Message } from "../../../frail/types.ts";
import { idList, num3 } from "./template.ts";

/**
 * The reply's `reasoning` field as the FRAIL [OUTPUT] blocks state it (G.2).
 *
 * @example
 * ```ts
 * import { REASONING_40_WORDS } from "./_shared_blocks.ts";
 * if (REASONING_40_WORDS !== '"reasoning": "<at most 40 words>"') throw new Error();
 * ```
 */
export const REASONING_40_WORDS: string = '"reasoning": "<at most 40 words>"';

/**
 * The reply's `reasoning` field as the bank run's [OUTPUT CONTRACT] states it (G.2).
 *
 * @example
 * ```ts
 * import { REASONING_SENTENCES } from "./_shared_blocks.ts";
 * if (REASONING_SENTENCES !== '"reasoning": "<1-2 sentences>"') throw new Error();
 * ```
 */
export const REASONING_SENTENCES: string = '"reasoning": "<1-2 sentences>"';

/**
 * The closing line of most [OUTPUT] blocks.
 *
 * @example
 * ```ts
 * import { KEEP_REASONING_SHORT } from "./_shared_blocks.ts";
 * if (!KEEP_REASONING_SHORT.endsWith("is complete.")) throw new Error();
 * ```
 */
export const KEEP_REASONING_SHORT: string = "Keep reasoning short so the JSON object is complete.";

/**
 * The line every mechanism-response [OUTPUT] ends its reply schema with.
 *
 * @example
 * ```ts
 * import { EMPTY_ARRAY_NOTE } from "./_shared_blocks.ts";
 * if (EMPTY_ARRAY_NOTE !== "Use an empty array when no action applies.") throw new Error();
 * ```
 */
export const EMPTY_ARRAY_NOTE: string = "Use an empty array when no action applies.";

/** Options of {@linkcode outputBlock}. */
export interface OutputBlockOptions {
  /** Lines before "Reply with a single JSON object ...". Default none. */
  lead?: string;
}

/**
 * An [OUTPUT] block: an optional lead, the reply instruction, then the
 * schema and notes (one string, lines joined by `\n`).
 *
 * @example
 * ```ts
 * import { outputBlock } from "./_shared_blocks.ts";
 * const b = outputBlock('{"go": true}', { lead: "Decide now." });
 * if (b !== '[OUTPUT]\nDecide now.\nReply with a single JSON object, no other text:\n{"go": true}') throw new Error(b);
 * ```
 */
export function outputBlock(body: string, options: OutputBlockOptions = {}): string {
  const lead = options.lead === undefined ? "" : `${options.lead}\n`;
  return `[OUTPUT]\n${lead}Reply with a single JSON object, no other text:\n${body}`;
}

/**
 * A bank-run [OUTPUT CONTRACT] block: the reply instruction and a JSON object
 * laid out one field a line.
 *
 * @example
 * ```ts
 * import { outputContractBlock } from "./_shared_blocks.ts";
 * const b = outputContractBlock(['"a": 1', '"b": 2']);
 * if (b !== '[OUTPUT CONTRACT]\nReply with a single JSON object and nothing else:\n{\n  "a": 1,\n  "b": 2\n}') throw new Error(b);
 * ```
 */
export function outputContractBlock(fields: readonly string[]): string {
  return `[OUTPUT CONTRACT]
Reply with a single JSON object and nothing else:
{
  ${fields.join(",\n  ")}
}`;
}

/**
 * A JSON reply schema written compactly: the given lines (each holding one or
 * more fields) joined by `,` and a new line indented by one space.
 *
 * @example
 * ```ts
 * import { compactJson } from "./_shared_blocks.ts";
 * if (compactJson(['"a": 1, "b": 2', '"c": 3']) !== '{"a": 1, "b": 2,\n "c": 3}') throw new Error();
 * ```
 */
export function compactJson(lines: readonly string[]): string {
  return `{${lines.join(",\n ")}}`;
}

/**
 * A one-line reply schema of a probability and the reasoning.
 *
 * @example
 * ```ts
 * import { probabilityReply } from "./_shared_blocks.ts";
 * const r = probabilityReply("withdraw_probability");
 * if (r !== '{"withdraw_probability": <integer 0 to 100>, "reasoning": "<at most 40 words>"}') throw new Error(r);
 * ```
 */
export function probabilityReply(field: string): string {
  return `{"${field}": <integer 0 to 100>, ${REASONING_40_WORDS}}`;
}

/**
 * The `offers` field of an M1 offer call: whom to offer, how much, and the
 * last round the commitment binds.
 *
 * @example
 * ```ts
 * import { offersField } from "./_shared_blocks.ts";
 * const f = offersField("creditor", "premium");
 * if (f !== '"offers": [{"target": "<creditor id>", "amount": <premium>, "lock_until": <round>}]') throw new Error(f);
 * ```
 */
export function offersField(party: string, amount: string): string {
  return `"offers": [{"target": "<${party} id>", "amount": <${amount}>, "lock_until": <round>}]`;
}

/**
 * The `disclose_terms_to` field of an M1 offer call.
 *
 * @example
 * ```ts
 * import { discloseTermsField } from "./_shared_blocks.ts";
 * if (discloseTermsField("backer") !== '"disclose_terms_to": "none" | "all" | ["<backer id>", ...]') throw new Error();
 * ```
 */
export function discloseTermsField(party: string): string {
  return `"disclose_terms_to": "none" | "all" | ["<${party} id>", ...]`;
}

/**
 * The `solicit` field of an M2 solicitation call.
 *
 * @example
 * ```ts
 * import { solicitField } from "./_shared_blocks.ts";
 * if (solicitField("creditor") !== '"solicit": ["<creditor id>", ...] | ["all"]') throw new Error();
 * ```
 */
export function solicitField(party: string): string {
  return `"solicit": ["<${party} id>", ...] | ["all"]`;
}

/**
 * The `disclose_aggregate` field of an M2 solicitation call.
 *
 * @example
 * ```ts
 * import { DISCLOSE_AGGREGATE_FIELD } from "./_shared_blocks.ts";
 * if (DISCLOSE_AGGREGATE_FIELD !== '"disclose_aggregate": true | false') throw new Error();
 * ```
 */
export const DISCLOSE_AGGREGATE_FIELD: string = '"disclose_aggregate": true | false';

const ACTIONS_INDENT = "\n                      ";

/**
 * The M3 `proposal_actions` of a mechanism-response reply (G.3), followed by
 * the given reasoning field.
 *
 * @example
 * ```ts
 * import { coalitionActionsReply, REASONING_40_WORDS } from "./_shared_blocks.ts";
 * const r = coalitionActionsReply(REASONING_40_WORDS);
 * if (!r.startsWith('{"proposal_actions": [{"action": "join"}, {"action": "exit_request"},\n')) throw new Error(r);
 * if (!r.endsWith('"support": true}],\n "reasoning": "<at most 40 words>"}')) throw new Error(r);
 * ```
 */
export function coalitionActionsReply(reasoning: string): string {
  return proposalActions([
    '{"action": "join"}, {"action": "exit_request"}',
    '{"action": "propose_announcement_vote", "announce_to": "all"}',
    '{"action": "vote", "vote_id": "...", "support": true}',
  ], reasoning);
}

/**
 * A `proposal_actions` reply schema: the action entries, one line each (the
 * continuation lines aligned under the first), then the reasoning field.
 *
 * @example
 * ```ts
 * import { proposalActions } from "./_shared_blocks.ts";
 * const r = proposalActions(['{"action": "exit"}'], '"reasoning": "<why>"');
 * if (r !== '{"proposal_actions": [{"action": "exit"}],\n "reasoning": "<why>"}') throw new Error(r);
 * ```
 */
export function proposalActions(entries: readonly string[], reasoning: string): string {
  return compactJson([`"proposal_actions": [${entries.join(`,${ACTIONS_INDENT}`)}]`, reasoning]);
}

/** Options of {@linkcode answerActionsReply}. */
export interface AnswerActionsOptions {
  /** What an M2 proposal is called in the closing note, e.g. `"a letter"`. */
  agreement: string;
}

/**
 * The compact M1 or M2 `proposal_actions` reply (accept or decline an offer;
 * sign or decline an agreement, or exit) with the note on answering it, as
 * the debt rollover's and crowdfunding's mechanism-response calls print it.
 *
 * @example
 * ```ts
 * import { answerActionsReply } from "./_shared_blocks.ts";
 * const r = answerActionsReply("M2", { agreement: "a letter" });
 * if (!r.endsWith("If you have a letter to answer, include sign or decline in proposal_actions.")) throw new Error(r);
 * if (!answerActionsReply("M1", { agreement: "x" }).startsWith('{"proposal_actions": [{"action": "accept"|"decline"')) throw new Error();
 * ```
 */
export function answerActionsReply(mechanism: "M1" | "M2", options: AnswerActionsOptions): string {
  if (mechanism === "M1") {
    return `${
      proposalActions(['{"action": "accept"|"decline", "proposal_id": "..."}'], REASONING_40_WORDS)
    }
If you have an offer, include accept or decline in proposal_actions.`;
  }
  return `${
    proposalActions(
      ['{"action": "sign"|"decline", "proposal_id": "..."}', '{"action": "exit"}'],
      REASONING_40_WORDS,
    )
  }
If you have ${options.agreement} to answer, include sign or decline in proposal_actions.`;
}

/** Options of {@linkcode offerReply}. */
export interface OfferReplyOptions {
  /** Who receives offers, e.g. `"creditor"`. */
  party: string;
  /** What the offered amount is called, e.g. `"premium"`. */
  amount: string;
}

/**
 * The compact M1 offer-call reply schema and its notes (debt rollover's
 * borrower, crowdfunding's founder).
 *
 * @example
 * ```ts
 * import { offerReply } from "./_shared_blocks.ts";
 * const r = offerReply({ party: "backer", amount: "bonus" });
 * if (!r.startsWith('{"offers": [{"target": "<backer id>", "amount": <bonus>, "lock_until": <round>}],\n "disclose_terms_to"')) throw new Error(r);
 * if (!r.endsWith("An empty offers list makes no offers this round.\nKeep reasoning short so the JSON object is complete.")) throw new Error(r);
 * ```
 */
export function offerReply(options: OfferReplyOptions): string {
  return `${
    compactJson([
      offersField(options.party, options.amount),
      discloseTermsField(options.party),
      REASONING_40_WORDS,
    ])
  }
An empty offers list makes no offers this round.
${KEEP_REASONING_SHORT}`;
}

/**
 * The compact M2 solicitation-call reply schema (debt rollover's borrower,
 * crowdfunding's founder).
 *
 * @example
 * ```ts
 * import { solicitationReply } from "./_shared_blocks.ts";
 * const r = solicitationReply("creditor");
 * if (r !== '{"solicit": ["<creditor id>", ...] | ["all"], "disclose_aggregate": true | false,\n "reasoning": "<at most 40 words>"}') throw new Error(r);
 * ```
 */
export function solicitationReply(party: string): string {
  return compactJson([`${solicitField(party)}, ${DISCLOSE_AGGREGATE_FIELD}`, REASONING_40_WORDS]);
}

/**
 * Items written as a comma-separated list, or `"none"` when there are none.
 *
 * @example
 * ```ts
 * import { listOrNone } from "./_shared_blocks.ts";
 * if (listOrNone([1, 2], (n) => `#${n}`) !== "#1, #2" || listOrNone([], String) !== "none") throw new Error();
 * ```
 */
export function listOrNone<T>(items: readonly T[], line: (item: T) => string): string {
  return items.length === 0 ? "none" : items.map(line).join(", ");
}

/**
 * The signers of an M2 agreement, those who declared an exit marked.
 *
 * @example
 * ```ts
 * import { signersList } from "./_shared_blocks.ts";
 * const s = signersList([{ id: "a", exitDeclared: false }, { id: "b", exitDeclared: true }]);
 * if (s !== "a, b (exit declared)") throw new Error(s);
 * ```
 */
export function signersList(signers: readonly { id: string; exitDeclared: boolean }[]): string {
  return listOrNone(signers, (s) => (s.exitDeclared ? `${s.id} (exit declared)` : s.id));
}

/**
 * The M1 offers accepted so far, as the proposer sees them.
 *
 * @example
 * ```ts
 * import { acceptedOffersList } from "./_shared_blocks.ts";
 * const s = acceptedOffersList([{ target: "crd_01", amount: 0.05, lockUntil: 4 }], "premium");
 * if (s !== "crd_01 premium 0.050 through round 4") throw new Error(s);
 * ```
 */
export function acceptedOffersList(
  offers: readonly { target: string; amount: number; lockUntil: number }[],
  unit: string,
): string {
  return listOrNone(
    offers,
    (o) => `${o.target} ${unit} ${num3(o.amount)} through round ${o.lockUntil}`,
  );
}

/** Options of {@linkcode acceptedTermsList}. */
export interface AcceptedTermsOptions {
  /** The key of a term's party id in the message, e.g. `"creditor"`. */
  party: string;
  /** What the amount is called, e.g. `"premium"`. */
  unit: string;
  /** How rounds left are written. Default `"<n> rounds"`. */
  rounds?: (n: number) => string;
}

/**
 * The terms of a certified `accepted_terms` message.
 *
 * @example
 * ```ts
 * import { acceptedTermsList } from "./_shared_blocks.ts";
 * const s = acceptedTermsList({ terms: [{ backer: "bkr_01", amount: 0.03, lock_rounds_remaining: 2 }] },
 *   { party: "backer", unit: "bonus" });
 * if (s !== "bkr_01 bonus 0.030 (2 rounds left)") throw new Error(s);
 * ```
 */
export function acceptedTermsList(
  content: Message["content"],
  options: AcceptedTermsOptions,
): string {
  const rounds = options.rounds ?? ((n: number) => `${n} rounds`);
  const terms = content.terms as (Record<string, unknown> & {
    amount: number;
    lock_rounds_remaining: number;
  })[];
  return listOrNone(
    terms,
    (t) =>
      `${t[options.party]} ${options.unit} ${num3(t.amount)} (${
        rounds(t.lock_rounds_remaining)
      } left)`,
  );
}

/**
 * The fallback line of a certified message of an unknown kind.
 *
 * @example
 * ```ts
 * import { unknownMessageLine } from "./_shared_blocks.ts";
 * if (unknownMessageLine("from x", { from: "x", kind: "k", content: { a: 1 } }) !== 'from x: k {"a":1}') throw new Error();
 * ```
 */
export function unknownMessageLine(from: string, m: Message): string {
  return `${from}: ${m.kind} ${JSON.stringify(m.content)}`;
}

/**
 * The [MESSAGES] block: certified messages delivered this round, one line
 * each; `null` under M0.
 *
 * @example
 * ```ts
 * import { messagesBlock } from "./_shared_blocks.ts";
 * if (messagesBlock({ mechanism: "M1", announcements: [] }, String) !== "[MESSAGES]\nNone this round.") throw new Error();
 * if (messagesBlock({ mechanism: "M0", announcements: [] }, String) !== null) throw new Error();
 * ```
 */
export function messagesBlock(
  v: { mechanism: string; announcements: readonly Message[] },
  line: (m: Message) => string,
): string | null {
  if (v.mechanism === "M0") return null;
  return [
    "[MESSAGES]",
    ...(v.announcements.length ? v.announcements.map(line) : ["None this round."]),
  ].join("\n");
}

/**
 * A block of proposals awaiting an answer: its header, then one line per
 * proposal, or `- none`.
 *
 * @example
 * ```ts
 * import { proposalsBlock } from "./_shared_blocks.ts";
 * if (proposalsBlock("[OFFER]", [], String) !== "[OFFER]\n- none") throw new Error();
 * if (proposalsBlock("[OFFER]", ["o1"], (p) => `- ${p}`) !== "[OFFER]\n- o1") throw new Error();
 * ```
 */
export function proposalsBlock<P>(
  header: string,
  proposals: readonly P[],
  line: (p: P) => string,
): string {
  return [header, ...(proposals.length ? proposals.map(line) : ["- none"])].join("\n");
}

/**
 * What a non-member of an M3 group may do: join this round, or, having left,
 * never rejoin.
 *
 * @example
 * ```ts
 * import { joinEligibility } from "./_shared_blocks.ts";
 * if (joinEligibility(false) !== "having left, you may never rejoin") throw new Error();
 * ```
 */
export function joinEligibility(canJoin: boolean): string {
  return canJoin ? "you may join this round" : "having left, you may never rejoin";
}

/**
 * An M3 exit ritual's state: `"none"`, or its wave and exit list.
 *
 * @example
 * ```ts
 * import { exitRitualText } from "./_shared_blocks.ts";
 * if (exitRitualText({ wave: 1, list: ["crd_02"] }) !== "wave 1 of 3, exit list ['crd_02']") throw new Error();
 * if (exitRitualText(null) !== "none") throw new Error();
 * ```
 */
export function exitRitualText(ritual: { wave: number; list: readonly string[] } | null): string {
  return ritual === null ? "none" : `wave ${ritual.wave} of 3, exit list ${idList(ritual.list)}`;
}

/**
 * An M3 group's pending announcement votes, or `"none"`.
 *
 * @example
 * ```ts
 * import { pendingVotesList } from "./_shared_blocks.ts";
 * const s = pendingVotesList([{ id: "v1", proposer: "crd_01", announceTo: "all" }]);
 * if (s !== "v1 (proposed by crd_01, announce to all)") throw new Error(s);
 * ```
 */
export function pendingVotesList(
  votes: readonly { id: string; proposer: string; announceTo: "all" | readonly string[] }[],
): string {
  return listOrNone(
    votes,
    (x) =>
      `${x.id} (proposed by ${x.proposer}, announce to ${
        x.announceTo === "all" ? "all" : idList(x.announceTo)
      })`,
  );
}

/**
 * Whether a party is committed, as the proposer's lists print it.
 *
 * @example
 * ```ts
 * import { committedText } from "./_shared_blocks.ts";
 * if (committedText(false) !== "not committed") throw new Error();
 * ```
 */
export function committedText(committed: boolean): string {
  return committed ? "committed" : "not committed";
}

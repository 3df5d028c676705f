// Joins the messages an episode's `llm_call` events logged (each distinct
// system prompt once, later calls naming it by its SHA-256; see
// engine/core/message_log.ts) back into the messages of every call, and
// checks each call's joined messages against its `prompt_hash`. A call whose
// messages cannot be joined or do not hash to `prompt_hash` keeps what could
// be read and says why: a mismatch is shown, never hidden.

import { promptHash } from "../engine/agents/llm/cache.ts";
import type { ChatMessage } from "../engine/agents/llm/prompts/template.ts";
import { sha256Hex } from "../engine/core/hash.ts";
import { REDACTED } from "../engine/agents/llm/redact.ts";

/** One message of a call as read back from the log. */
export interface TranscriptMessage {
  /** `"system"`, `"user"` or `"assistant"`. */
  role: string;
  /** The text sent, or `null` when the log does not hold it (see the call's `problem`). */
  content: string | null;
}

/** One model call of an episode: what was sent and what came back. */
export interface CallTranscript {
  /** Round (0 before round 1). */
  round: number;
  /** Step of the round. */
  step: string;
  /** Agent id. */
  agent: string;
  /** The agent's role (from `episode_start`), or `null` when the log does not name it. */
  role: string | null;
  /** Call name, e.g. `"withdrawal"`. */
  call: string;
  /** Model configuration id. */
  model: string | null;
  /** `"ok"` or `"error"`, as logged. */
  status: string | null;
  /** The messages sent, in order, or `null` when the log holds none for this call. */
  messages: TranscriptMessage[] | null;
  /** The reply text as logged, or `null`. */
  reply: string | null;
  /** The reasoning text the provider returned, or `null`. */
  reasoning: string | null;
  /** The call's `prompt_hash` as logged, or `null`. */
  promptHash: string | null;
  /** Whether every message was read and the messages hash to `promptHash`. */
  verified: boolean;
  /** Why the messages are missing, incomplete or do not match `promptHash`; `null` when verified. */
  problem: string | null;
}

/** Events of one episode, as read from a log or kept by a runner. */
export type TranscriptEvent = { readonly type: string };

/** Every model call of one episode's events, in log order, with its messages joined and checked. */
export function callTranscripts(events: readonly TranscriptEvent[]): CallTranscript[] {
  const roles = new Map<string, string>();
  const logged = new Map<string, string>();
  const out: CallTranscript[] = [];
  for (const event of events) {
    const e = event as Readonly<Record<string, unknown>>;
    if (e.type === "episode_start" && Array.isArray(e.agents)) {
      for (const a of e.agents as unknown[]) {
        const { id, role } = (a ?? {}) as Record<string, unknown>;
        if (typeof id === "string" && typeof role === "string") roles.set(id, role);
      }
    }
    if (e.type !== "llm_call") continue;
    const agent = String(e.agent ?? "");
    const hash = typeof e.prompt_hash === "string" ? e.prompt_hash : null;
    const { messages, problem } = joined(e.messages, hash, logged);
    out.push({
      round: typeof e.round === "number" ? e.round : 0,
      step: String(e.step ?? ""),
      agent,
      role: roles.get(agent) ?? null,
      call: String(e.call ?? ""),
      model: typeof e.model === "string" ? e.model : null,
      status: typeof e.status === "string" ? e.status : null,
      messages,
      reply: typeof e.content === "string" ? e.content : null,
      reasoning: typeof e.reasoning === "string" ? e.reasoning : null,
      promptHash: hash,
      verified: problem === null,
      problem,
    });
  }
  return out;
}

function joined(
  value: unknown,
  hash: string | null,
  logged: Map<string, string>,
): { messages: TranscriptMessage[] | null; problem: string | null } {
  if (value === undefined) {
    return {
      messages: null,
      problem: "The log holds no messages for this call (its llm_call event has no messages field)",
    };
  }
  if (!Array.isArray(value)) {
    return {
      messages: [],
      problem: "The logged messages are unreadable: messages is not an array",
    };
  }
  const messages: TranscriptMessage[] = [];
  const problems: string[] = [];
  value.forEach((m: unknown, i) => {
    const { role, content, content_sha256: ref } = (m ?? {}) as Record<string, unknown>;
    const name = typeof role === "string" ? role : "?";
    if (typeof role === "string" && typeof content === "string") {
      messages.push({ role, content });
      if (role === "system") logged.set(sha256Hex(content), content);
    } else if (typeof role === "string" && typeof ref === "string") {
      const text = logged.get(ref);
      if (text === undefined) {
        problems.push(
          `message ${i + 1} (${name}) names a text by SHA-256 ${
            ref.slice(0, 12)
          }... that no earlier call of the episode logged`,
        );
      }
      messages.push({ role, content: text ?? null });
    } else {
      problems.push(
        `message ${i + 1} is neither { role, content } nor { role, content_sha256 } with strings`,
      );
      messages.push({ role: name, content: null });
    }
  });
  if (problems.length > 0) {
    return { messages, problem: `The logged messages are incomplete: ${problems.join("; ")}` };
  }
  const got = promptHash(messages as ChatMessage[]);
  if (got === hash) return { messages, problem: null };
  if (hash === null) {
    return { messages, problem: "The call has no prompt_hash to check its messages against" };
  }
  const redacted = messages.some((m) => m.content!.includes(REDACTED))
    ? `; they contain ${REDACTED}, so a secret was removed from them before logging`
    : "";
  return {
    messages,
    problem: `The logged messages do not match the call's prompt_hash: they hash to ${
      got.slice(0, 12)
    }..., the call recorded ${hash.slice(0, 12)}...${redacted}`,
  };
}

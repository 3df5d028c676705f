/**
 * How an episode's `llm_call` events keep the messages of their calls: every
 * message as sent, except that a system prompt an earlier call of the same
 * episode already logged is written as the SHA-256 of its text
 * (`{ role, content_sha256 }`, see `LoggedMessage` in `events.ts`). Every
 * participant of a role gets the same system prompt every round, so each
 * distinct one is stored once per episode while the user messages (the
 * round's view) are stored with their call. Readers join them back in log
 * order and check the result against the call's `prompt_hash`
 * (`episodeTranscript` in `analysis/transcript.ts`).
 *
 * @module
 */
import type { LoggedMessage } from "./events.ts";
import { sha256Hex } from "./hash.ts";

/**
 * The messages of one episode's calls as they are logged: a system prompt is
 * written in full the first time and as its SHA-256 after that. One log per
 * episode; writing is idempotent (messages already logged as a hash pass
 * through), so re-logging logged records gives the same events.
 *
 * @example
 * ```ts
 * import { MessageLog } from "./message_log.ts";
 * import { sha256Hex } from "./hash.ts";
 * const log = new MessageLog();
 * const call = (user: string) => [
 *   { role: "system", content: "You are a depositor." },
 *   { role: "user", content: user },
 * ];
 * const first = log.compact(call("Round 1"));
 * const second = log.compact(call("Round 2"));
 * if (JSON.stringify(first) !== JSON.stringify(call("Round 1"))) throw new Error();
 * const ref = { role: "system", content_sha256: sha256Hex("You are a depositor.") };
 * if (JSON.stringify(second) !== JSON.stringify([ref, { role: "user", content: "Round 2" }])) {
 *   throw new Error();
 * }
 * ```
 */
export class MessageLog {
  /** Hash of every system prompt logged so far, by its text. */
  readonly #logged = new Map<string, string | null>();

  /** The messages as the next `llm_call` event logs them. */
  compact(messages: readonly LoggedMessage[]): LoggedMessage[] {
    return messages.map((m) => {
      if (m.role !== "system" || !("content" in m)) return m;
      const hash = this.#logged.get(m.content);
      if (hash === undefined) {
        this.#logged.set(m.content, null);
        return m;
      }
      const sha = hash ?? sha256Hex(m.content);
      if (hash === null) this.#logged.set(m.content, sha);
      return { role: m.role, content_sha256: sha };
    });
  }
}

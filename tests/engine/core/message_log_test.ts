import { assertEquals } from "../../_assert.ts";
import { MessageLog } from "../../../engine/core/message_log.ts";
import { sha256Hex } from "../../../engine/core/hash.ts";
import type { LoggedMessage } from "../../../engine/core/events.ts";

const calls: LoggedMessage[][] = [
  [{ role: "system", content: "S1" }, { role: "user", content: "u1" }],
  [{ role: "system", content: "S2" }, { role: "user", content: "u1" }],
  [{ role: "system", content: "S1" }, { role: "user", content: "u2" }],
  [{ role: "system", content: "S2" }, { role: "system", content: "S1" }],
];

Deno.test("MessageLog.compact() writes each system prompt once and names repeats by SHA-256", () => {
  const log = new MessageLog();
  const ref = (text: string) => ({ role: "system", content_sha256: sha256Hex(text) });
  assertEquals(calls.map((c) => log.compact(c)), [
    calls[0],
    calls[1],
    // User messages are kept in full, even when repeated.
    [ref("S1"), { role: "user", content: "u2" }],
    [ref("S2"), ref("S1")],
  ]);
});

Deno.test("MessageLog.compact() gives the same messages when re-logging logged ones (a replay)", () => {
  const once = new MessageLog();
  const logged = calls.map((c) => once.compact(c));
  const again = new MessageLog();
  assertEquals(logged.map((c) => again.compact(c)), logged);
});

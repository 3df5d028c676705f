// The messages of every model call reach its llm_call event as sent, with keys redacted.
import { assertEquals } from "../../../_assert.ts";
import { llmPopulation, renderCall } from "../../../../engine/agents/llm/llm_agent.ts";
import { promptSet } from "../../../../engine/agents/llm/prompts/registry.ts";
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import { serveLocalModel } from "../../../../engine/agents/llm/server/local_server.ts";
import { playEpisode } from "../../../../engine/core/episode.ts";
import type { CallRequest } from "../../../../engine/core/environment.ts";
import { bankRunGame } from "../../../../engine/games/bank_run/descriptor.ts";
import { bankRun } from "../../../../engine/games/bank_run/environment.ts";
import { frailSetup } from "../../../../engine/frail/descriptor.ts";
import { callTranscripts } from "../../../../analysis/_transcript.ts";

const KEY = "sk-local-secret-7777";

Deno.test("llmAgent() logs each call's messages as rendered, with a key pasted into a prompt redacted", async () => {
  const server = serveLocalModel({ apiKey: KEY, seed: 1 });
  try {
    const runtime = new LlmRuntime({
      models: [{
        id: "m",
        baseURL: server.url,
        model: "coordlab-defensive",
        testDouble: true,
        apiKeyEnv: "K",
      }],
      readEnv: (name) => name === "K" ? KEY : undefined,
    });
    // The system prompt of every call carries the key (a careless template).
    const prompts = promptSet("bank_run").map((t) => ({
      ...t,
      render: (view: never) =>
        t.render(view).map((m) =>
          m.role === "system" ? { ...m, content: `${m.content}\nKey: ${KEY}` } : m
        ),
    }));
    const requests: CallRequest[] = [];
    const make = llmPopulation({ runtime, env: "bank_run", models: "m", prompts });
    const played = await playEpisode(bankRun, {
      ...frailSetup(bankRunGame, {
        mechanism: "M0",
        regime: "stable",
        overrides: { depositors: 3, totalDeposits: 3, horizon: 1 },
      }),
      seed: 1,
      agents: (p) => {
        const a = make(p);
        return { policy: a.policy, decide: (req) => (requests.push(req), a.decide(req)) };
      },
    });
    const calls = played.events.filter((e) => e.type === "llm_call");
    assertEquals(calls.length, 3);
    const sent = requests.map((r) => renderCall(r, { env: "bank_run", prompts }));
    const text = JSON.stringify(played.events);
    assertEquals(text.includes(KEY), false);
    const [first] = calls;
    assertEquals(first.type === "llm_call" && first.messages, [
      { role: "system", content: sent[0][0].content.replace(KEY, "[redacted]") },
      sent[0][1],
    ]);
    // The reader shows why the logged messages do not hash to what was sent.
    const [t] = callTranscripts(played.events);
    assertEquals(t.verified, false);
    assertEquals(
      t.problem!.endsWith(
        "; they contain [redacted], so a secret was removed from them before logging",
      ),
      true,
    );
  } finally {
    await server.close();
  }
});

// Test helper: a FRAIL episode played by LLM agents against the local
// OpenAI-compatible server, through a proxy that records every request body
// the server received, with the messages `renderCall` produced for each call
// kept beside them. Optionally every user message ends with hostile text.

import type { AgentFactory } from "../../engine/core/agent.ts";
import { llmPopulation, renderCall } from "../../engine/agents/llm/llm_agent.ts";
import type { ChatMessage, PromptSet } from "../../engine/agents/llm/prompts/template.ts";
import { promptSet } from "../../engine/agents/llm/prompts/registry.ts";
import { LlmRuntime } from "../../engine/agents/llm/runtime.ts";
import { serveLocalModel } from "../../engine/agents/llm/server/local_server.ts";
import { type EpisodeResult, runEpisode } from "../../engine/run_episode.ts";
import type { EnvId, MechanismId } from "../../engine/frail/types.ts";

/** What {@linkcode llmEpisode} played. */
export interface LlmEpisode {
  /** The episode. */
  result: EpisodeResult;
  /** Its log file. */
  file: string;
  /** The messages of every chat request the server received, in arrival order. */
  received: ChatMessage[][];
  /** The messages `renderCall` produced, by `round/agent/call`. */
  rendered: Map<string, ChatMessage[]>;
}

/** Options of {@linkcode llmEpisode}. */
export interface LlmEpisodeOptions {
  env?: EnvId;
  mechanism?: MechanismId;
  seed?: number;
  run?: string;
  /** Text appended to every user message (to test escaping). */
  appendToUser?: string;
}

/** Plays an LLM episode into `dir` (log under `dir/<run>/`). */
export async function llmEpisode(
  dir: string,
  options: LlmEpisodeOptions = {},
): Promise<LlmEpisode> {
  const env = options.env ?? "bank_run";
  const seed = options.seed ?? 1;
  const server = serveLocalModel({ seed });
  const received: ChatMessage[][] = [];
  const target = new URL(server.url);
  const proxy = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = req.method === "POST" ? await req.text() : undefined;
    if (body !== undefined) received.push(JSON.parse(body).messages);
    const url = new URL(req.url);
    const res = await fetch(`${target.origin}${url.pathname}`, {
      method: req.method,
      headers: { "content-type": "application/json" },
      body,
    });
    return new Response(await res.text(), {
      status: res.status,
      headers: { "content-type": res.headers.get("content-type") ?? "application/json" },
    });
  });
  try {
    const runtime = new LlmRuntime({
      models: [{
        id: "local",
        baseURL: `http://127.0.0.1:${proxy.addr.port}/v1`,
        model: "coordlab-defensive",
        testDouble: true,
        concurrency: 8,
      }],
    });
    const prompts = withUserSuffix(promptSet(env), options.appendToUser);
    const make = llmPopulation({ runtime, env, models: "local", prompts, sample: seed });
    const rendered = new Map<string, ChatMessage[]>();
    const agents: AgentFactory = (player) => {
      const agent = make(player);
      return {
        policy: agent.policy,
        decide(req) {
          rendered.set(`${req.round}/${req.agent}/${req.call}`, renderCall(req, { env, prompts }));
          return agent.decide(req);
        },
      };
    };
    const result = await runEpisode({
      env,
      mechanism: options.mechanism ?? "M0",
      seed,
      run: options.run ?? "llm",
      agents,
      outDir: dir,
    });
    return { result, file: result.logPath!, received, rendered };
  } finally {
    await proxy.shutdown();
    await server.close();
  }
}

function withUserSuffix(prompts: PromptSet, suffix: string | undefined): PromptSet {
  if (suffix === undefined) return prompts;
  return prompts.map((t) => ({
    ...t,
    render: (view: never) =>
      t.render(view).map((m) =>
        m.role === "user" ? { ...m, content: `${m.content}\n${suffix}` } : m
      ),
  }));
}

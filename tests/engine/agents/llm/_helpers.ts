/**
 * Shared test helpers: grids, temporary folders, file scans and local servers.
 *
 * @module
 */
import {
  type LocalServer,
  type LocalServerOptions,
  serveLocalModel,
} from "../../../../engine/agents/llm/server/local_server.ts";
import type { TestDoubleCall } from "../../../../engine/agents/llm/test_double.ts";

/**
 * A bank-run depositor's withdrawal call, for requests sent with
 * `LlmRuntime.complete` directly: the local test double answers it (model
 * `"coordlab-stay"`: `{"withdraw_probability":0,"reasoning":"I always stay."}`).
 */
export const DEPOSITOR_CALL: TestDoubleCall = {
  game: "bank_run",
  agent: "dep_01",
  role: "depositor",
  call: "withdrawal",
  round: 1,
  step: "withdrawal",
  view: {},
};

/** Runs `fn` with a local model server, closed however `fn` ends. */
export async function withServer(
  options: LocalServerOptions,
  fn: (server: LocalServer) => Promise<void>,
): Promise<void> {
  const server = serveLocalModel(options);
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

/**
 * The child process's grid spec: bank-run episodes of the model `"local"`
 * under M0-M3, `perMechanism` of each (grid order cycles M0-M3).
 */
export function childSpec(perMechanism: number): Record<string, unknown> {
  return {
    name: "child",
    episodes: perMechanism,
    blocks: [{
      game: "frail",
      envs: ["bank_run"],
      mechanisms: ["M0", "M1", "M2", "M3"],
      agents: [{ model: "local" }],
    }],
  };
}

/** Every file under a folder, recursively. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...await filesUnder(path));
    else if (e.isFile) out.push(path);
  }
  return out;
}

/** Absolute path of a file beside this one. */
export function here(name: string): string {
  return new URL(`./${name}`, import.meta.url).pathname;
}

/** One scripted answer of {@linkcode scriptedServer}. */
export type Scripted =
  | { status: 200; content: string; reasoning?: string }
  | { status: number; headers?: Record<string, string> }
  | { raw: string; contentType: string }
  | { hang: true };

/** A server answering chat completions with a script, in order; counts requests. */
export function scriptedServer(script: Scripted[]): {
  url: string;
  requests: () => number;
  close: () => Promise<void>;
} {
  let i = 0;
  let requests = 0;
  const closing = new AbortController();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    requests++;
    await req.body?.cancel();
    const step = script[Math.min(i++, script.length - 1)];
    if ("hang" in step) {
      await new Promise((r) => {
        const t = setTimeout(r, 5000);
        closing.signal.addEventListener("abort", () => (clearTimeout(t), r(null)));
      });
      return new Response("late", { status: 504 });
    }
    if ("raw" in step) {
      return new Response(step.raw, { status: 200, headers: { "content-type": step.contentType } });
    }
    if (step.status !== 200) {
      return new Response(
        JSON.stringify({ error: { message: `scripted ${step.status}`, type: "x" } }),
        {
          status: step.status,
          headers: {
            "content-type": "application/json",
            ...("headers" in step ? step.headers : {}),
          },
        },
      );
    }
    const s = step as { content: string; reasoning?: string };
    return Response.json({
      id: "x",
      object: "chat.completion",
      created: 0,
      model: "m",
      choices: [{
        index: 0,
        finish_reason: "stop",
        message: { role: "assistant", content: s.content, reasoning_content: s.reasoning },
      }],
      usage: {
        prompt_tokens: 11,
        completion_tokens: 7,
        total_tokens: 18,
        completion_tokens_details: { reasoning_tokens: 3 },
      },
    });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    requests: () => requests,
    close: async () => {
      closing.abort();
      await server.shutdown();
    },
  };
}

/**
 * Runs the local OpenAI-compatible server as its own process (so its work
 * does not share a thread with the client's), printing its base URL on the
 * first line of stdout and serving until the process is stopped.
 *
 * Usage: `deno run --allow-net=127.0.0.1 engine/agents/llm/server/main.ts
 * [--latency MS] [--seed N] [--fault-rate R]` (`--fault-rate` splits R
 * equally among 429, 500, timeouts, malformed and truncated replies).
 *
 * @module
 */
import { serveLocalModel } from "./local_server.ts";

function flag(name: string, fallback: number): number {
  const i = Deno.args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(Deno.args[i + 1]);
  if (!Number.isFinite(v) || v < 0) {
    console.error(`--${name} must be a non-negative number, got ${Deno.args[i + 1]}`);
    Deno.exit(2);
  }
  return v;
}

if (import.meta.main) {
  const r = flag("fault-rate", 0) / 5;
  const server = serveLocalModel({
    latencyMs: flag("latency", 0),
    seed: flag("seed", 0),
    faults: { rateLimit: r, serverError: r, timeout: r, malformed: r, truncated: r },
  });
  console.log(server.url);
  const stop = async () => {
    await server.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGTERM", stop);
  Deno.addSignalListener("SIGINT", stop);
}

/**
 * Runs the local OpenAI-compatible server as its own process (so its work
 * does not share a thread with the client's), printing its base URL on the
 * first line of stdout and serving until the process is stopped.
 *
 * Usage: `deno run --allow-net=127.0.0.1 engine/agents/llm/server/main.ts
 * [--port P] [--latency MS] [--seed N] [--fault-rate R] [--fault KIND]`
 * (`--port` 0, the default, lets the system pick a free port; `--fault-rate`
 * splits R equally among 429, 500, timeouts, malformed and truncated replies;
 * `--fault KIND` answers every chat request with that fault instead, e.g.
 * `server_error`, `html_body` or `huge_reply`).
 *
 * @module
 */
import { FAULT_KINDS, type FaultRates } from "./faults.ts";
import { serveLocalModel } from "./local_server.ts";

/** The rates that inject one fault kind into every chat request. */
function every(kind: string): FaultRates {
  if (!(FAULT_KINDS as readonly string[]).includes(kind)) {
    console.error(`--fault must be one of ${FAULT_KINDS.join(", ")}, got ${kind}`);
    Deno.exit(2);
  }
  const field = kind.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
  return { [field]: 1 } as FaultRates;
}

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
  const at = Deno.args.indexOf("--fault");
  const server = serveLocalModel({
    latencyMs: flag("latency", 0),
    seed: flag("seed", 0),
    port: flag("port", 0),
    faults: at >= 0
      ? every(Deno.args[at + 1] ?? "")
      : { rateLimit: r, serverError: r, timeout: r, malformed: r, truncated: r },
  });
  console.log(server.url);
  const stop = async () => {
    await server.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGTERM", stop);
  Deno.addSignalListener("SIGINT", stop);
}

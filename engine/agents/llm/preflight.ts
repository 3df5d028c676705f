/**
 * Checks, before any episode starts, that every model a run needs can be
 * called: its key variable is set; its base URL answers `/models` and lists
 * the model (a provider without a `/models` endpoint, 404 or 405 there, is
 * not held to it); and one tiny chat request to the model
 * (`LlmRuntime.probe`: one short user message, at most 16 completion tokens,
 * with the model's usual retries) comes back as a chat completion. So a
 * wrong path (a base URL missing `/v1`), a refused key, an unknown model or a
 * provider that fails every request is found before any episode, not after
 * a grid of neutral defaults. All problems are collected into one
 * {@linkcode LlmPreflightError}; URLs in it are printed without credentials.
 *
 * @module
 */
import { APIError } from "npm:openai@7.59.0";
import type { LlmCallRecord } from "../../core/events.ts";
import { safeUrl } from "./redact.ts";
import { classifyFailure } from "./retry.ts";
import type { LlmRuntime } from "./runtime.ts";
import { LlmPreflightError, type PreflightProblem } from "./preflight_error.ts";

// The error and its problems, in their own module so that the CLIs catch it
// without loading the OpenAI client's package.
export { LlmPreflightError, type PreflightProblem } from "./preflight_error.ts";

/** Options of {@linkcode preflight}. */
export interface PreflightOptions {
  /** Model ids to check. Default: every configured model. */
  models?: readonly string[];
  /** Timeout of each `/models` request in ms (the test chat request uses the model's `timeoutMs`). Default 10000. */
  timeoutMs?: number;
}

/**
 * Checks the models; resolves when all are usable.
 *
 * @example
 * ```ts
 * import { LlmPreflightError, preflight } from "./preflight.ts";
 * import { LlmRuntime } from "./runtime.ts";
 * const runtime = new LlmRuntime({
 *   models: [{ id: "x", baseURL: "http://127.0.0.1:9/v1", model: "m", apiKeyEnv: "NO_SUCH_KEY_VAR" }],
 *   readEnv: () => undefined,
 * });
 * try {
 *   await preflight(runtime);
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e instanceof LlmPreflightError) || e.problems[0].kind !== "missing_key") throw e;
 * }
 * ```
 * @throws {LlmPreflightError} Listing every problem.
 */
export async function preflight(
  runtime: LlmRuntime,
  options: PreflightOptions = {},
): Promise<void> {
  const ids = options.models ?? [...runtime.models.keys()];
  const timeout = options.timeoutMs ?? 10_000;
  const problems: PreflightProblem[] = [];
  const listings = new Map<string, Promise<string[] | PreflightProblem["kind"] | "skip">>();
  const reasons = new Map<string, string>();
  for (const id of ids) {
    const m = runtime.model(id);
    const where = `Model "${id}" (provider "${m.provider}")`;
    const url = safeUrl(m.baseURL);
    if (m.apiKeyEnv !== null && runtime.apiKey(m) === undefined) {
      problems.push({
        model: id,
        kind: "missing_key",
        message: `${where}: the API key variable ${m.apiKeyEnv} is not set`,
      });
      continue;
    }
    const group = `${m.baseURL}|${m.apiKeyEnv ?? ""}`;
    if (!listings.has(group)) {
      listings.set(
        group,
        runtime.client(id).models.list({ timeout, maxRetries: 0 }).then(
          (page) => page.data.map((x) => x.id),
          (err) => {
            if (err instanceof APIError && (err.status === 404 || err.status === 405)) {
              return "skip";
            }
            const f = classifyFailure(err);
            reasons.set(group, runtime.redact(f.message));
            if (f.status === 401 || f.status === 403) return "rejected_key";
            return "unreachable";
          },
        ),
      );
    }
    const got = await listings.get(group)!;
    if (got === "unreachable") {
      problems.push({
        model: id,
        kind: "unreachable",
        message: `${where}: cannot reach ${url} (${reasons.get(group)})`,
      });
    } else if (got === "rejected_key") {
      problems.push({
        model: id,
        kind: "rejected_key",
        message: `${where}: ${url} rejected the key in ${m.apiKeyEnv ?? "(no key)"} (${
          reasons.get(group)
        })`,
      });
    } else if (Array.isArray(got) && !got.includes(m.model)) {
      const shown = got.slice(0, 10).map((x) => `"${x}"`).join(", ");
      problems.push({
        model: id,
        kind: "unknown_model",
        message: `${where}: ${url} does not serve "${m.model}" (it serves ${shown || "no models"}${
          got.length > 10 ? ", ..." : ""
        })`,
      });
    } else {
      const problem = probeProblem(await runtime.probe(id), where, url, m.apiKeyEnv);
      if (problem) problems.push({ model: id, ...problem });
    }
  }
  if (problems.length) throw new LlmPreflightError(problems);
}

/** What a failed test request says about a model, or `null` when it came back. */
function probeProblem(
  record: LlmCallRecord,
  where: string,
  url: string,
  keyVar: string | null,
): Omit<PreflightProblem, "model"> | null {
  if (record.status === "ok") return null;
  const status = record.failures.at(-1)?.status ?? null;
  if (status === 401 || status === 403) {
    return {
      kind: "rejected_key",
      message: `${where}: ${url} rejected the key in ${keyVar ?? "(no key)"} (${record.error})`,
    };
  }
  if (status === 404 || status === 405) {
    return {
      kind: "bad_endpoint",
      message:
        `${where}: the test chat request to ${
          url.replace(/\/+$/, "")
        }/chat/completions was answered ` +
        `${status}: check the base URL (OpenAI-compatible APIs usually end in /v1) and the ` +
        `model name (${record.error})`,
    };
  }
  return {
    kind: "failed_request",
    message: `${where}: the test chat request to ${url} failed: ${record.error}`,
  };
}

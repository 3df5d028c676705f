/**
 * Checks, before any episode starts, that every model a run needs can be
 * called: its key variable is set, its base URL answers `/models`, and the
 * model is listed there. All problems are collected into one
 * {@linkcode LlmPreflightError}. A provider without a `/models` endpoint
 * (404 or 405) is given the benefit of the doubt.
 *
 * @module
 */
import { APIError } from "npm:openai@7.59.0";
import { classifyFailure } from "./retry.ts";
import type { LlmRuntime } from "./runtime.ts";

/** One thing wrong with one model. */
export interface PreflightProblem {
  /** Model id. */
  model: string;
  /** What is wrong. */
  kind: "missing_key" | "unreachable" | "rejected_key" | "unknown_model";
  /** One sentence saying what and where. */
  message: string;
}

/**
 * Raised by {@linkcode preflight}; callers may branch on `problems`.
 *
 * @example
 * ```ts
 * import { LlmPreflightError } from "./preflight.ts";
 * const e = new LlmPreflightError([{ model: "x", kind: "missing_key", message: "Model \"x\": the API key variable K is not set" }]);
 * if (!e.message.endsWith("- Model \"x\": the API key variable K is not set")) throw new Error(e.message);
 * ```
 */
export class LlmPreflightError extends Error {
  /** Every problem found. */
  readonly problems: PreflightProblem[];
  /** Creates the error from its problems. */
  constructor(problems: PreflightProblem[]) {
    super(
      `LLM preflight failed, so no episode was started:\n` +
        problems.map((p) => `- ${p.message}`).join("\n"),
    );
    this.name = "LlmPreflightError";
    this.problems = problems;
  }
}

/** Options of {@linkcode preflight}. */
export interface PreflightOptions {
  /** Model ids to check. Default: every configured model. */
  models?: readonly string[];
  /** Timeout of each `/models` request in ms. Default 10000. */
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
    if (m.apiKeyEnv !== null && runtime.apiKey(m) === undefined) {
      problems.push({
        model: id,
        kind: "missing_key",
        message: `Model "${id}": the API key variable ${m.apiKeyEnv} is not set`,
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
    if (got === "skip") continue;
    if (got === "unreachable") {
      problems.push({
        model: id,
        kind: "unreachable",
        message: `Model "${id}": cannot reach ${m.baseURL} (${reasons.get(group)})`,
      });
    } else if (got === "rejected_key") {
      problems.push({
        model: id,
        kind: "rejected_key",
        message: `Model "${id}": ${m.baseURL} rejected the key in ${m.apiKeyEnv ?? "(no key)"} (${
          reasons.get(group)
        })`,
      });
    } else if (Array.isArray(got) && !got.includes(m.model)) {
      const shown = got.slice(0, 10).map((x) => `"${x}"`).join(", ");
      problems.push({
        model: id,
        kind: "unknown_model",
        message: `Model "${id}": ${m.baseURL} does not serve "${m.model}" (it serves ${
          shown || "no models"
        }${got.length > 10 ? ", ..." : ""})`,
      });
    }
  }
  if (problems.length) throw new LlmPreflightError(problems);
}

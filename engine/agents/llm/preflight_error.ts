/**
 * The error of `preflight` (`preflight.ts`, which exports it too), apart from
 * it so that the command-line programs recognise it without loading the
 * OpenAI client's package (about 60 ms at every start).
 *
 * @module
 */

/** One thing wrong with one model. */
export interface PreflightProblem {
  /** Model id. */
  model: string;
  /**
   * What is wrong: `bad_endpoint` is a 404 or 405 to the test chat request
   * (a wrong base URL or model); `failed_request` any other failure of it.
   */
  kind:
    | "missing_key"
    | "unreachable"
    | "rejected_key"
    | "unknown_model"
    | "bad_endpoint"
    | "failed_request";
  /** One sentence saying what and where. */
  message: string;
}

/**
 * Raised by `preflight` (`preflight.ts`); callers may branch on `problems`.
 *
 * @example
 * ```ts
 * import { LlmPreflightError } from "./preflight_error.ts";
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

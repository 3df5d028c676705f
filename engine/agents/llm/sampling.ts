/**
 * The sampling fields of a model's requests, apart from the LLM runtime so
 * that the grid's cost estimate reads them without loading the OpenAI
 * client's package (about 60 ms at every start of a program that imports the
 * grid runner). `runtime.ts` exports the same function.
 *
 * @module
 */
import type { ModelConfig } from "./model_config.ts";

/**
 * The request fields that shape sampling: temperature, the token cap under
 * its configured name, the reasoning effort when set, and extra fields.
 *
 * @example
 * ```ts
 * import { samplingParams } from "./sampling.ts";
 * import { parseModelConfig } from "./model_config.ts";
 * const m = parseModelConfig({ id: "d", baseURL: "http://127.0.0.1:1/v1", model: "x", reasoningEffort: "low" });
 * const p = samplingParams(m);
 * if (p.temperature !== 1 || p.max_tokens !== 8192 || p.reasoning_effort !== "low") throw new Error();
 * ```
 */
export function samplingParams(m: ModelConfig): Record<string, unknown> {
  return {
    ...m.extraBody,
    temperature: m.temperature,
    [m.tokenLimitParam]: m.maxTokens,
    ...(m.reasoningEffort === null ? {} : { reasoning_effort: m.reasoningEffort }),
  };
}

import { assert, assertEquals, assertRejects, assertThrows } from "../../../_assert.ts";
import {
  loadModelConfigs,
  parseModelConfig,
  parseModelConfigs,
} from "../../../../engine/agents/llm/model_config.ts";
import { assignedModels, modelFor } from "../../../../engine/agents/llm/model_assignment.ts";

const base = { id: "ds", baseURL: "https://api.deepseek.com/v1", model: "deepseek-v4.1-flash" };

Deno.test("parseModelConfig() fills the paper's Table 6 defaults when fields are left out", () => {
  const m = parseModelConfig(base);
  assertEquals(
    [m.temperature, m.maxTokens, m.apiKeyEnv, m.provider, m.reasoningEffort, m.concurrency],
    [1, 8192, null, "api.deepseek.com", null, 8],
  );
  assertEquals([m.requestsPerMinute, m.timeoutMs, m.maxRetries, m.price], [null, 120000, 5, null]);
});

Deno.test("parseModelConfig() keeps an explicit provider, effort, limits and price", () => {
  const m = parseModelConfig({
    ...base,
    provider: "deepseek",
    apiKeyEnv: "DEEPSEEK_API_KEY",
    reasoningEffort: "low",
    concurrency: 16,
    requestsPerMinute: 600,
    price: { inputPerMillion: 0.27, outputPerMillion: 1.1 },
  });
  assertEquals([m.provider, m.reasoningEffort, m.concurrency, m.requestsPerMinute], [
    "deepseek",
    "low",
    16,
    600,
  ]);
  assertEquals(m.price, { inputPerMillion: 0.27, outputPerMillion: 1.1 });
});

Deno.test("parseModelConfig() throws a RangeError naming the field when a value is out of range", () => {
  assertThrows(() => parseModelConfig({ ...base, temperature: 3 }), RangeError, '"temperature"');
  assertThrows(() => parseModelConfig({ ...base, baseURL: "not a url" }), RangeError, '"baseURL"');
  assertThrows(
    () => parseModelConfig({ ...base, apiKeyEnv: "sk-live-123" }),
    RangeError,
    '"apiKeyEnv"',
  );
  assertThrows(() => parseModelConfig({ ...base, apiKey: "sk-123" }), RangeError, '"apiKey"');
});

Deno.test("parseModelConfigs() refuses a repeated id", () => {
  assertThrows(() => parseModelConfigs([base, base]), RangeError, 'id "ds" appears more than once');
});

Deno.test("parseModelConfigs() names the entry whose field is bad", () => {
  assertThrows(
    () => parseModelConfigs({ models: [base, { ...base, id: "x", maxTokens: 0 }] }),
    RangeError,
    'Model config 1 ("x"): Invalid model config parameter "maxTokens"',
  );
});

Deno.test("loadModelConfigs() throws a SyntaxError naming the file when it is not JSON", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/models.json`, "{ nope");
  await assertRejects(() => loadModelConfigs(`${dir}/models.json`), SyntaxError, "models.json");
});

Deno.test("modelFor() gives every role one model when the assignment is a string", () => {
  for (const role of ["depositor", "bank"]) assertEquals(modelFor("ds", { id: "x", role }), "ds");
});

Deno.test("modelFor() prefers the agent entry, then the role entry, then the default", () => {
  const a = { default: "gpt", roles: { bank: "glm", depositor: "qwen" }, agents: { dep_02: "ds" } };
  assertEquals(modelFor(a, { id: "dep_02", role: "depositor" }), "ds");
  assertEquals(modelFor(a, { id: "dep_01", role: "depositor" }), "qwen");
  assertEquals(modelFor(a, { id: "bank", role: "bank" }), "glm");
  assertEquals(modelFor(a, { id: "founder", role: "founder" }), "gpt");
  assertEquals(assignedModels(a), ["gpt", "glm", "qwen", "ds"]);
  assert(assignedModels("gpt").length === 1);
});

import { assert, assertEquals, assertRejects, assertThrows } from "../../../_assert.ts";
import {
  CLIENT_REQUEST_FIELDS,
  loadModelConfigs,
  MAX_TIMER_MS,
  parseModelConfig,
  parseModelConfigs,
} from "../../../../engine/agents/llm/model_config.ts";
import { assignedModels, modelFor } from "../../../../engine/agents/llm/model_assignment.ts";
import { makeTempDir } from "../../../_temp.ts";

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
  const dir = await makeTempDir();
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

for (
  const [field, value, message] of [
    [
      "requestsPerMinute",
      1e-9,
      '"requestsPerMinute": must be a whole number of requests from 1 to 1000000 (got 1e-9)',
    ],
    [
      "requestsPerMinute",
      2.5,
      '"requestsPerMinute": must be a whole number of requests from 1 to 1000000 (got 2.5)',
    ],
    ["concurrency", 0, '"concurrency": must be a whole number from 1 to 10000 (got 0)'],
    [
      "timeoutMs",
      2 ** 31,
      '"timeoutMs": must be a whole number of ms from 1 to 2147483647 (about 24.8 days) (got 2147483648)',
    ],
    [
      "timeoutMs",
      0,
      '"timeoutMs": must be a whole number of ms from 1 to 2147483647 (about 24.8 days) (got 0)',
    ],
    ["maxRetries", 21, '"maxRetries": must be a whole number from 0 to 20 (got 21)'],
    [
      "backoffMs",
      -1,
      '"backoffMs": must be a whole number of ms from 0 to 2147483647 (about 24.8 days) (got -1)',
    ],
    [
      "maxBackoffMs",
      1e12,
      '"maxBackoffMs": must be a whole number of ms from 0 to 2147483647 (about 24.8 days) (got 1000000000000)',
    ],
    [
      "maxRetryAfterMs",
      2 ** 32,
      '"maxRetryAfterMs": must be a whole number of ms from 0 to 2147483647 (about 24.8 days) (got 4294967296)',
    ],
    ["backoffMs", 70_000, '"backoffMs": must be at most maxBackoffMs (60000) (got 70000)'],
  ] as const
) {
  Deno.test(`parseModelConfigs() refuses ${field} = ${value}, naming the model, the field and the range`, () => {
    assertThrows(
      () => parseModelConfigs({ models: [{ ...base, [field]: value }] }),
      RangeError,
      `Model config 0 ("ds"): Invalid model config parameter ${message}`,
    );
  });
}

for (const url of ["file:///etc/passwd", "javascript:alert(1)", "ftp://me:pw-1234@h.example/v1"]) {
  Deno.test(`parseModelConfigs() refuses the base URL ${url} with a RangeError`, () => {
    const err = assertThrows(
      () => parseModelConfigs([{ ...base, baseURL: url }]),
      RangeError,
      `Model config 0 ("ds"): Invalid model config parameter "baseURL": must be an http: or https: URL, not ${
        new URL(url).protocol
      }`,
    );
    assert(!err.message.includes("pw-1234"), err.message);
  });
}

Deno.test("parseModelConfig() refuses a base URL without a host and one that does not parse", () => {
  assertThrows(
    () => parseModelConfig({ ...base, baseURL: "http://%zz" }),
    RangeError,
    'Invalid model config parameter "baseURL": must be an http: or https: URL (it does not parse as a URL)',
  );
});

Deno.test("parseModelConfig() refuses extraBody fields the client sets itself, listing them", () => {
  for (const key of CLIENT_REQUEST_FIELDS) {
    assertThrows(
      () => parseModelConfig({ ...base, extraBody: { enable_thinking: true, [key]: 1 } }),
      RangeError,
      `Invalid model config parameter "extraBody": names "${key}", which the client sets itself`,
    );
  }
  assertEquals(
    parseModelConfig({ ...base, extraBody: { enable_thinking: true } }).extraBody,
    { enable_thinking: true },
  );
  assertEquals(CLIENT_REQUEST_FIELDS.slice(0, 3), ["model", "messages", "stream"]);
  assertEquals(MAX_TIMER_MS, 2 ** 31 - 1);
});

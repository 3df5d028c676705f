// Reading a chat-completion request of the local test double: the body, its
// model and messages, and the structured call only the double reads.
import { TEST_DOUBLE_FIELD, type TestDoubleCall, type TestDoubleProbe } from "../test_double.ts";
import { DoubleRequestError } from "./answer.ts";

/** A chat message as the double reads it. */
export interface Message {
  /** Author role. */
  role: string;
  /** Text. */
  content: string;
}

/** A chat-completion request the double can answer. */
export interface ChatRequest {
  /** The body without the structured call: what the fault draws hash. */
  body: Record<string, unknown>;
  /** The served model asked for. */
  model: string;
  /** The messages. */
  messages: Message[];
  /** The structured call, or the probe marker. */
  call: TestDoubleCall | TestDoubleProbe;
}

/**
 * Reads a parsed request body: the model must be served, the messages an
 * array, and the structured call present and well formed.
 *
 * @throws {DoubleRequestError} Naming the bad field (404 for a model not served).
 */
export function readChatRequest(
  parsed: unknown,
  models: readonly string[],
): ChatRequest {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new DoubleRequestError(400, "The request body is not a JSON object");
  }
  const { [TEST_DOUBLE_FIELD]: field, ...body } = parsed as Record<string, unknown>;
  const model = body.model;
  if (typeof model !== "string" || !models.includes(model)) {
    throw new DoubleRequestError(
      404,
      `The model \`${model}\` does not exist`,
      "model_not_found",
    );
  }
  if (!Array.isArray(body.messages)) {
    throw new DoubleRequestError(400, "messages must be an array");
  }
  return { body, model, messages: body.messages as Message[], call: readCall(field) };
}

const STRINGS = ["game", "agent", "role", "call", "step"] as const;

function readCall(field: unknown): TestDoubleCall | TestDoubleProbe {
  if (field === undefined) {
    throw new DoubleRequestError(
      400,
      `The request has no "${TEST_DOUBLE_FIELD}" field: the local test double answers only ` +
        `requests that carry the structured call (configure the model with "testDouble": true)`,
    );
  }
  if (typeof field !== "object" || field === null || Array.isArray(field)) {
    throw new DoubleRequestError(
      400,
      `"${TEST_DOUBLE_FIELD}" must be an object, got ${JSON.stringify(field)}`,
    );
  }
  const f = field as Record<string, unknown>;
  if (f.probe === true && Object.keys(f).length === 1) return { probe: true };
  for (const key of STRINGS) {
    if (typeof f[key] !== "string") {
      throw new DoubleRequestError(
        400,
        `"${TEST_DOUBLE_FIELD}.${key}" must be a string, got ${JSON.stringify(f[key])}`,
      );
    }
  }
  if (!Number.isSafeInteger(f.round)) {
    throw new DoubleRequestError(
      400,
      `"${TEST_DOUBLE_FIELD}.round" must be an integer, got ${JSON.stringify(f.round)}`,
    );
  }
  if (!("view" in f)) {
    throw new DoubleRequestError(400, `"${TEST_DOUBLE_FIELD}.view" is missing`);
  }
  return f as unknown as TestDoubleCall;
}

/**
 * What kind of agents a chart's rows come from, so that a chart of mock
 * agents says so in its subtitle (a PNG saved from it, e.g. a README
 * thumbnail, is then never mistaken for a chart of LLM agents).
 *
 * A chart knows the kind in two ways, and says nothing when it knows
 * neither: its rows carry a `model` column naming mock policies
 * (`mock:...`, as logged), or the caller passes `agents` (from
 * {@linkcode chartAgents} on the episodes frame the rows were computed
 * from). When both are there they must agree.
 *
 * @module
 */

import type pl from "npm:nodejs-polars@0.25.2";

/**
 * The agents behind a chart: `"mock"` (every model is a mock policy),
 * `"llm"` (none is) or `"mixed"`.
 */
export type ChartAgents = "mock" | "llm" | "mixed";

/** The kinds a caller may pass as a chart's `agents` option. */
const KINDS: readonly ChartAgents[] = ["mock", "llm", "mixed"];

/** The subtitle line of each kind; LLM agents need none. */
const SUBTITLES: Readonly<Record<ChartAgents, string | undefined>> = {
  mock: "Mock agents (scripted policies, no LLM)",
  mixed: "Mock and LLM agents",
  llm: undefined,
};

/** Whether a logged model names a mock policy (`mock:defensive`, `mock:threshold(...)`). */
function isMock(model: string): boolean {
  return model.startsWith("mock:");
}

/**
 * The kind of agents behind a frame of episodes, read from its `agents`
 * column (each agent's logged policy: `mock:...` for a mock agent,
 * `llm:<model>` for a model). Pass it as the `agents` option of a chart
 * built from tables of these episodes.
 *
 * @param episodes The `episodes` frame of `loadRuns()`, or its records.
 * @returns `"mock"`, `"llm"` or `"mixed"`; `undefined` when a policy is
 * neither (a test double, a replayed agent): the kind is not known then.
 * @throws {RangeError} If there are no rows, or a row's `agents` is not the
 * loader's JSON list of agents.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chartAgents } from "./agents.ts";
 *
 * const episode = (...policies: string[]) => ({
 *   agents: JSON.stringify(policies.map((policy, i) => ({ id: `a${i}`, policy }))),
 * });
 * assert.equal(chartAgents([episode("mock:passive_bank", "mock:defensive")]), "mock");
 * assert.equal(chartAgents([episode("llm:m", "llm:m"), episode("mock:defensive")]), "mixed");
 * assert.equal(chartAgents([episode("test:stag")]), undefined);
 * assert.throws(() => chartAgents([{ model: "mocks" }]), {
 *   message: "chartAgents: row 0 has no agents list (received undefined): pass the episodes " +
 *     "frame of loadRuns(), whose agents column lists each agent's policy",
 * });
 * ```
 */
export function chartAgents(
  episodes: pl.DataFrame | readonly Record<string, unknown>[],
): ChartAgents | undefined {
  const rows = Array.isArray(episodes)
    ? episodes as readonly Record<string, unknown>[]
    : (episodes as pl.DataFrame).toRecords();
  if (rows.length === 0) {
    throw new RangeError("chartAgents: no episodes, so the kind of agents cannot be known");
  }
  const policies = rows.flatMap((row, index) => {
    const bad = () =>
      new RangeError(
        `chartAgents: row ${index} has no agents list (received ${String(row.agents)}): ` +
          "pass the episodes frame of loadRuns(), whose agents column lists each agent's policy",
      );
    if (typeof row.agents !== "string") throw bad();
    let agents: unknown;
    try {
      agents = JSON.parse(row.agents);
    } catch {
      throw bad();
    }
    if (!Array.isArray(agents)) throw bad();
    return agents.map((agent) => String((agent as { policy?: unknown })?.policy));
  });
  if (policies.some((p) => !p.startsWith("mock:") && !p.startsWith("llm:"))) return undefined;
  const mocks = policies.filter(isMock).length;
  return mocks === policies.length ? "mock" : mocks === 0 ? "llm" : "mixed";
}

/**
 * The kind of agents of a chart: `"mock"` when every row carries a `model`
 * naming a mock policy (`mock:...`), else `given`, else unknown (a model
 * name alone does not tell an LLM from a relabelled mock). A `given` kind
 * other than `"mock"` for rows of mock policies is an error.
 *
 * @param values The chart's rows.
 * @param given The chart's `agents` option.
 * @param name The chart, first in error messages.
 * @returns The kind, or `undefined` when the chart cannot know it.
 * @throws {RangeError} If `given` is not a kind, or the rows' models say otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentsOfRows } from "./agents.ts";
 *
 * assert.equal(agentsOfRows([{ model: "mock:x" }], undefined, "c"), "mock");
 * assert.equal(agentsOfRows([{ mean: 1 }], "mock", "c"), "mock");
 * assert.equal(agentsOfRows([{ model: "gpt-5" }], undefined, "c"), undefined);
 * assert.throws(() => agentsOfRows([{ model: "mock:x" }], "llm", "c"), {
 *   message: 'c: agents is "llm" but every row\'s model is a mock policy (mock:x)',
 * });
 * ```
 */
export function agentsOfRows(
  values: readonly Record<string, unknown>[],
  given: ChartAgents | undefined,
  name: string,
): ChartAgents | undefined {
  if (given !== undefined && !KINDS.includes(given)) {
    throw new RangeError(
      `${name}: agents must be one of ${KINDS.map((k) => `"${k}"`).join(", ")}: ` +
        `received ${JSON.stringify(given)}`,
    );
  }
  const models = values.map((row) => row.model);
  const mock = models.length > 0 &&
    models.every((model) => typeof model === "string" && isMock(model));
  if (mock && given !== undefined && given !== "mock") {
    const distinct = [...new Set(models as string[])].slice(0, 3).join(", ");
    throw new RangeError(
      `${name}: agents is "${given}" but every row's model is a mock policy (${distinct})`,
    );
  }
  return mock ? "mock" : given;
}

/**
 * The subtitle line that names the agents, if any.
 *
 * @param agents The chart's kind of agents.
 * @returns The line, or `undefined` for LLM agents or an unknown kind.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentsSubtitle } from "./agents.ts";
 *
 * assert.equal(agentsSubtitle("mock"), "Mock agents (scripted policies, no LLM)");
 * assert.equal(agentsSubtitle(undefined), undefined);
 * ```
 */
export function agentsSubtitle(agents: ChartAgents | undefined): string | undefined {
  return agents === undefined ? undefined : SUBTITLES[agents];
}

import { assert, assertEquals } from "../../_assert.ts";
import {
  emptySpendTotals,
  emptyTotals,
  type SpendTotals,
} from "../../../engine/agents/llm/accounting.ts";
import {
  allCallsFailed,
  closingMessage,
  endOfRun,
  episodesToPlay,
  NO_STOP,
  poolSize,
  stopFor,
  stopForAbandoned,
  stopForDisk,
  type StopInput,
} from "../../../engine/grid/scheduler.ts";

const GO: StopInput = {
  halt: null,
  budget: null,
  spent: null,
  usage: null,
  fatal: null,
  allCallsFailed: null,
  atEnd: false,
};

function spent(fields: Partial<SpendTotals>): SpendTotals {
  return { ...emptySpendTotals(), ...fields };
}

Deno.test("episodesToPlay() keeps unfinished episodes, and failed ones only with redoFailed", () => {
  const episodes = ["a", "b", "c", "d"].map((id) => ({ id }));
  const finished = new Map([
    ["a", { status: "ok" }],
    ["b", { status: "error" }],
    ["d", { status: "degraded" }],
  ]);
  assertEquals(episodesToPlay(episodes, finished, false).map((e) => e.id), ["c"]);
  assertEquals(episodesToPlay(episodes, finished, undefined).map((e) => e.id), ["c"]);
  assertEquals(episodesToPlay(episodes, finished, true).map((e) => e.id), ["b", "c", "d"]);
  assertEquals(episodesToPlay(episodes, new Map(), false), episodes);
});

Deno.test("poolSize() uses workers only without agents, in-process LLM episodes or an empty todo", () => {
  const base = { agents: false, llmInProcess: false, workers: 4, todo: 10 };
  assertEquals(poolSize(base), 4);
  assertEquals(poolSize({ ...base, todo: 3 }), 3);
  assertEquals(poolSize({ ...base, todo: 0 }), 0);
  assertEquals(poolSize({ ...base, workers: 0 }), 0);
  assertEquals(poolSize({ ...base, agents: true }), 0);
  assertEquals(poolSize({ ...base, llmInProcess: true }), 0);
});

Deno.test("stopFor() goes on when nothing stops the run", () => {
  assert(stopFor(GO) === null);
  assert(stopFor({ ...GO, budget: { maxTokens: 100 }, usage: emptyTotals() }) === null);
});

Deno.test("stopFor() puts the runtime's halt before the budget and the provider", () => {
  const s = stopFor({
    ...GO,
    halt: { reason: "Could not write the response cache", by: "cache" },
    budget: { maxTokens: 10 },
    spent: spent({ tokens: 50, requests: 2 }),
    fatal: 'Provider "p" is failing',
  });
  assertEquals(s, { stopped: "Could not write the response cache", stoppedBy: "cache" });
});

Deno.test("stopFor() stops at a budget the whole run's spend reached, but not at the end", () => {
  const input = { ...GO, budget: { maxTokens: 100 }, spent: spent({ tokens: 100, requests: 3 }) };
  assertEquals(stopFor(input), {
    stopped: "Token budget reached: 100 of 100 billed tokens used over 3 requests",
    stoppedBy: "budget",
  });
  assert(stopFor({ ...input, atEnd: true }) === null);
  assert(stopFor({ ...input, spent: spent({ tokens: 99, requests: 3 }) }) === null);
});

Deno.test("stopFor() checks the session's usage when the spend ledger has not reached the budget", () => {
  const usage = { ...emptyTotals(), calls: 3, billedTokens: 120 };
  const s = stopFor({ ...GO, budget: { maxTokens: 100 }, spent: spent({ tokens: 10 }), usage });
  assertEquals(s, {
    stopped: "Token budget reached: 120 of 100 billed tokens used",
    stoppedBy: "budget",
  });
  assert(
    stopFor({ ...GO, budget: { maxTokens: 100 }, usage: { ...usage, billedTokens: 99 } }) === null,
  );
});

Deno.test("stopFor() stops for a failing provider, the runtime's first, at the end too", () => {
  const failing = { ...GO, allCallsFailed: 'Every model call of episode "e" failed (1 calls)' };
  assertEquals(stopFor(failing), {
    stopped: 'Every model call of episode "e" failed (1 calls)',
    stoppedBy: "provider",
  });
  assertEquals(stopFor({ ...failing, fatal: "refused key", atEnd: true }), {
    stopped: "refused key",
    stoppedBy: "provider",
  });
});

Deno.test("stopForDisk() replaces any stop but an earlier disk one", () => {
  const budget = { stopped: "Token budget reached", stoppedBy: "budget" } as const;
  assertEquals(stopForDisk(budget, "Could not write a"), {
    stopped: "Could not write a",
    stoppedBy: "disk",
  });
  assertEquals(stopForDisk(NO_STOP, "Could not write a"), {
    stopped: "Could not write a",
    stoppedBy: "disk",
  });
  const disk = { stopped: "Could not write a", stoppedBy: "disk" } as const;
  assert(stopForDisk(disk, "Could not write b") === disk);
});

Deno.test("stopForAbandoned() keeps the first reason", () => {
  assertEquals(stopForAbandoned(NO_STOP, "Cost budget reached", "budget"), {
    stopped: "Cost budget reached",
    stoppedBy: "budget",
  });
  const first = { stopped: "refused key", stoppedBy: "provider" } as const;
  assert(stopForAbandoned(first, "Cost budget reached", "budget") === first);
});

Deno.test("allCallsFailed() names the episode and its last failure only when every call failed", () => {
  const lastFailure = { provider: "openai", model: "gpt", error: "HTTP 503: busy" };
  const s = { id: "e7", usage: { calls: 4, failedCalls: 4 }, lastFailure };
  assertEquals(
    allCallsFailed(s),
    'Every model call of episode "e7" failed (4 calls); the last, to provider "openai" ' +
      '(model "gpt"): HTTP 503: busy',
  );
  assert(allCallsFailed({ ...s, usage: { calls: 4, failedCalls: 3 } }) === null);
  assert(allCallsFailed({ ...s, usage: { calls: 0, failedCalls: 0 } }) === null);
  assert(allCallsFailed({ ...s, lastFailure: null }) === null);
});

Deno.test("endOfRun() says complete, incomplete or interrupted", () => {
  const base = { todo: 5, done: 5, abandoned: 0, logged: 5, stop: NO_STOP };
  assertEquals(endOfRun(base), {
    interrupted: false,
    remaining: 0,
    status: "complete",
    stop: NO_STOP,
  });
  assertEquals(endOfRun({ ...base, logged: 3 }), {
    interrupted: false,
    remaining: 2,
    status: "incomplete",
    stop: NO_STOP,
  });
  assertEquals(endOfRun({ ...base, done: 4, logged: 4 }), {
    interrupted: true,
    remaining: 1,
    status: "interrupted",
    stop: NO_STOP,
  });
  assertEquals(endOfRun({ ...base, done: 4, abandoned: 1, logged: 4 }).status, "interrupted");
  // An abandoned episode alone makes the run interrupted.
  assertEquals(endOfRun({ ...base, abandoned: 1 }).interrupted, true);
});

Deno.test("endOfRun() names a signal's string reason only when nothing else stopped an interrupted run", () => {
  const cut = { todo: 5, done: 2, abandoned: 0, logged: 2, stop: NO_STOP };
  const term = { aborted: true, reason: "Received SIGTERM" };
  assertEquals(endOfRun({ ...cut, signal: term }).stop, {
    stopped: "Received SIGTERM",
    stoppedBy: "signal",
  });
  // A signal's reason wins over abandon's; a reason that is not a string is no words.
  assertEquals(endOfRun({ ...cut, signal: term, abandon: { aborted: true, reason: "x" } }).stop, {
    stopped: "Received SIGTERM",
    stoppedBy: "signal",
  });
  assertEquals(endOfRun({ ...cut, abandon: { aborted: true, reason: new Error("x") } }).stop, {
    stopped: null,
    stoppedBy: "signal",
  });
  assertEquals(endOfRun({ ...cut, signal: { aborted: false, reason: undefined } }).stop, NO_STOP);
  const budget = { stopped: "Token budget reached", stoppedBy: "budget" } as const;
  assert(endOfRun({ ...cut, stop: budget, signal: term }).stop === budget);
  // Not interrupted: a late signal stops nothing.
  assertEquals(endOfRun({ ...cut, done: 5, logged: 5, signal: term }).stop, NO_STOP);
});

Deno.test("closingMessage() says why the run stopped and how to resume", () => {
  const base = {
    dir: "runs/x",
    total: 10,
    remaining: 0,
    interrupted: false,
    stop: NO_STOP,
    failed: 0,
    degraded: 0,
  };
  assertEquals(closingMessage(base), "Done: 10 episodes in runs/x.");
  assertEquals(
    closingMessage({ ...base, failed: 2, degraded: 1 }),
    "Done: 10 episodes in runs/x (1 degraded: some decisions are neutral defaults after failed " +
      "calls; 2 ended with an error); run again with redoFailed (--redo-failed) to play them again.",
  );
  const budget = { stopped: "Token budget reached", stoppedBy: "budget" } as const;
  assertEquals(
    closingMessage({ ...base, remaining: 4, interrupted: true, stop: budget }),
    "Stopped: Token budget reached. 6 of 10 episodes finished in runs/x; run the same spec on " +
      "the same folder to resume.",
  );
  assertEquals(
    closingMessage({ ...base, stop: { stopped: "refused key", stoppedBy: "provider" } }),
    "Done: 10 episodes in runs/x. Stopped: refused key.",
  );
  assertEquals(
    closingMessage({ ...base, stop: { stopped: "Could not write", stoppedBy: "disk" } }),
    "Stopped: Could not write. 10 of 10 episodes finished in runs/x; run the same spec on the " +
      "same folder to resume.",
  );
  assertEquals(
    closingMessage({ ...base, remaining: 3, interrupted: true }),
    "Interrupted: 7 of 10 episodes finished in runs/x; run the same spec on the same folder to " +
      "resume.",
  );
  assertEquals(
    closingMessage({ ...base, remaining: 3 }),
    "3 episodes could not start (see the failures); run again to retry them.",
  );
});

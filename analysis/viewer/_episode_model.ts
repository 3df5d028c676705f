// Turns the events of one episode into what a reader wants side by side:
// rounds, each holding every agent call with what it produced (report,
// model calls, agent errors, corrections, override, the decision and its
// draw), the Stag Hunt turns with the calls behind them, mechanism events,
// messages, transitions, failures and the disclosure. No event is dropped:
// anything not placed elsewhere lands in its round's `other` list.

import { type CallTranscript, callTranscripts } from "../_transcript.ts";
import { boundsOf, type EpisodeHeader, episodeHeader, isRecord } from "./_condition.ts";
import type { LogEvent } from "./_log_source.ts";

/** One call to an agent and everything logged about it. */
export interface AgentCall {
  /** Agent id. */
  agent: string;
  /** Role, as logged with the report. */
  role: string;
  /** Call name, e.g. `"withdrawal"`. */
  call: string;
  /** Step of the round the report was given in. */
  step: string;
  /** The validated report, or `null` if the log has none. */
  report: Record<string, unknown> | null;
  /** `llm_call` events behind the report. */
  llmCalls: LogEvent[];
  /** The messages sent and checked, one per `llm_call` event (same order). */
  prompts: CallTranscript[];
  /** `agent_error` events. */
  errors: LogEvent[];
  /** `correction` events (contract repairs). */
  corrections: LogEvent[];
  /** The `override` of a committed agent's report, if any. */
  override: LogEvent | null;
  /** The `decision` drawn from the report, if any. */
  decision: LogEvent | null;
}

/** A Stag Hunt turn and the calls that produced it. */
export interface TurnEntry {
  /** The `turn` event. */
  turn: LogEvent;
  /** Whether the public action differs from the speaker's own. */
  flipped: boolean;
  /** The speaker's calls in this round before the turn (turn, re-justification). */
  calls: AgentCall[];
}

/** Everything logged in one round. */
export interface RoundEntry {
  /** Round number (0 before round 1). */
  round: number;
  /** Agent calls not attached to a turn, in log order. */
  calls: AgentCall[];
  /** Stag Hunt turns in speaking order. */
  turns: TurnEntry[];
  /** `mechanism` events. */
  mechanisms: LogEvent[];
  /** `message` events (certified messages). */
  messages: LogEvent[];
  /** `transition` events. */
  transitions: LogEvent[];
  /** `failure` events. */
  failures: LogEvent[];
  /** The `disclosure` at the end of the round, if any. */
  disclosure: LogEvent | null;
  /** The round's `checkpoint`, if any. */
  checkpoint: LogEvent | null;
  /** Events of any other kind. */
  other: LogEvent[];
}

/** The outcome fields the viewer shows. */
export interface OutcomeView {
  /** Whether the episode succeeded. */
  success: boolean | null;
  /** Failure kind, or `null`. */
  failure: string | null;
  /** Last round played. */
  rounds: number | null;
  /** Welfare W. */
  welfare: number | null;
  /** Welfare realization W~. */
  realization: number | null;
  /** Bounds used for W~. */
  bounds: { worst: number; best: number } | null;
  /** Payoff by player. */
  payoffs: Record<string, number>;
}

/** Totals over the episode, for the header and the run index. */
export interface EpisodeCounts {
  /** Agent calls (reports or failures). */
  calls: number;
  /** Corrections. */
  corrections: number;
  /** Overrides of committed agents. */
  overrides: number;
  /** Agent errors. */
  agentErrors: number;
  /** Model calls. */
  llmCalls: number;
  /** Tokens in plus out over all model calls. */
  tokens: number;
  /** Summed cost of model calls, or `null` when none had a price. */
  cost: number | null;
  /** Model calls whose logged messages cannot all be read or do not match their `prompt_hash`. */
  unverifiedPrompts: number;
  /** Stag Hunt turns whose public action differs from the original. */
  flips: number;
  /** Realized decisions. */
  realized: number;
}

/** One episode, arranged for display. */
export interface EpisodeModel {
  /** Run id. */
  run: string;
  /** Episode id. */
  episode: string;
  /** The header, or `null` when the log has no `episode_start`. */
  header: EpisodeHeader | null;
  /** `ok`, `error`, `degraded` (or another logged status), or `incomplete` without an `episode_end`. */
  status: string;
  /** The `episode_end` event, if any. */
  end: LogEvent | null;
  /** The outcome, if the episode ended with one. */
  outcome: OutcomeView | null;
  /** Events before round 1 other than `episode_start`. */
  setup: RoundEntry;
  /** The rounds, in order. */
  rounds: RoundEntry[];
  /** Events of the `end` step (final payouts, summaries) other than `episode_end`. */
  final: RoundEntry;
  /** Totals. */
  counts: EpisodeCounts;
}

function emptyRound(round: number): RoundEntry {
  return {
    round,
    calls: [],
    turns: [],
    mechanisms: [],
    messages: [],
    transitions: [],
    failures: [],
    disclosure: null,
    checkpoint: null,
    other: [],
  };
}

/**
 * Arranges the events of one episode for display.
 *
 * @throws {RangeError} If `events` is empty or mixes episodes.
 */
export function episodeModel(events: readonly LogEvent[]): EpisodeModel {
  if (events.length === 0) throw new RangeError("Cannot show an episode without events");
  const { run, episode } = events[0];
  const stray = events.find((e) => e.run !== run || e.episode !== episode);
  if (stray !== undefined) {
    throw new RangeError(
      `The events mix episodes: "${episode}" of run "${run}" and "${stray.episode}" of run "${stray.run}"`,
    );
  }
  const rounds = new Map<number, RoundEntry>();
  const setup = emptyRound(0);
  const final = emptyRound(-1);
  const pending = new Map<string, LogEvent[]>();
  const lastCall = new Map<string, AgentCall>();
  let start: LogEvent | null = null;
  let end: LogEvent | null = null;
  const transcripts = callTranscripts(events);
  const prompts = new Map(
    events.filter((e) => e.type === "llm_call").map((e, i) => [e, transcripts[i]]),
  );

  const roundOf = (event: LogEvent): RoundEntry => {
    if (event.step === "end") return final;
    const number = typeof event.round === "number" ? event.round : 0;
    if (number <= 0) return setup;
    let entry = rounds.get(number);
    if (entry === undefined) rounds.set(number, entry = emptyRound(number));
    return entry;
  };

  for (const event of events) {
    const entry = roundOf(event);
    const key = `${entry.round}\u0000${event.agent}\u0000${event.call}`;
    switch (event.type) {
      case "episode_start":
        start ??= event;
        break;
      case "episode_end":
        end = event;
        break;
      case "round_start":
        break;
      case "llm_call":
      case "agent_error":
      case "correction": {
        const list = pending.get(key) ?? [];
        list.push(event);
        pending.set(key, list);
        break;
      }
      case "report": {
        const call = newCall(event, pending.get(key) ?? [], prompts);
        pending.delete(key);
        entry.calls.push(call);
        lastCall.set(key, call);
        break;
      }
      case "override":
      case "decision": {
        const call = lastCall.get(key);
        const slot = event.type === "override" ? "override" : "decision";
        if (call !== undefined && call[slot] === null) call[slot] = event;
        else entry.other.push(event);
        break;
      }
      case "turn": {
        const mine = entry.calls.filter((c) => c.agent === event.agent);
        entry.calls = entry.calls.filter((c) => c.agent !== event.agent);
        entry.turns.push({
          turn: event,
          flipped: event.original_action !== event.public_action,
          calls: mine,
        });
        break;
      }
      case "mechanism":
        entry.mechanisms.push(event);
        break;
      case "message":
        entry.messages.push(event);
        break;
      case "transition":
        entry.transitions.push(event);
        break;
      case "failure":
        entry.failures.push(event);
        break;
      case "disclosure":
        entry.disclosure = event;
        break;
      case "checkpoint":
        entry.checkpoint = event;
        break;
      default:
        entry.other.push(event);
    }
  }
  // Agent-side events that no report followed (a crash between them) stay visible.
  for (const [key, list] of pending) {
    const round = Number(key.slice(0, key.indexOf("\u0000")));
    const entry = round < 0 ? final : round === 0 ? setup : rounds.get(round)!;
    entry.other.push(...list);
  }
  const ordered = [...rounds.values()].sort((a, b) => a.round - b.round);
  const status = end === null ? "incomplete" : String(end.status);
  return {
    run,
    episode,
    header: start === null ? null : episodeHeader(start),
    status,
    end,
    outcome: end !== null && isRecord(end.outcome) ? outcomeView(end.outcome) : null,
    setup,
    rounds: ordered,
    final,
    counts: {
      ...countAll([setup, ...ordered, final]),
      unverifiedPrompts: transcripts.filter((t) => !t.verified && t.messages !== null).length,
    },
  };
}

function newCall(
  report: LogEvent,
  before: LogEvent[],
  prompts: ReadonlyMap<LogEvent, CallTranscript>,
): AgentCall {
  const llmCalls = before.filter((e) => e.type === "llm_call");
  return {
    agent: String(report.agent),
    role: String(report.role ?? ""),
    call: String(report.call),
    step: String(report.step ?? ""),
    report: isRecord(report.report) ? report.report : null,
    llmCalls,
    prompts: llmCalls.map((e) => prompts.get(e)!),
    errors: before.filter((e) => e.type === "agent_error"),
    corrections: before.filter((e) => e.type === "correction"),
    override: null,
    decision: null,
  };
}

function outcomeView(outcome: Record<string, unknown>): OutcomeView {
  const number = (value: unknown) => typeof value === "number" ? value : null;
  const payoffs: Record<string, number> = {};
  if (isRecord(outcome.payoffs)) {
    for (const [id, value] of Object.entries(outcome.payoffs)) {
      if (typeof value === "number") payoffs[id] = value;
    }
  }
  return {
    success: typeof outcome.success === "boolean" ? outcome.success : null,
    failure: typeof outcome.failure === "string" ? outcome.failure : null,
    rounds: number(outcome.rounds),
    welfare: number(outcome.welfare),
    realization: number(outcome.welfareRealization),
    bounds: boundsOf(outcome.bounds),
    payoffs,
  };
}

function countAll(entries: readonly RoundEntry[]): EpisodeCounts {
  const counts: EpisodeCounts = {
    calls: 0,
    corrections: 0,
    overrides: 0,
    agentErrors: 0,
    llmCalls: 0,
    tokens: 0,
    cost: null,
    unverifiedPrompts: 0,
    flips: 0,
    realized: 0,
  };
  const add = (call: AgentCall) => {
    counts.calls++;
    counts.corrections += call.corrections.length;
    counts.overrides += call.override === null ? 0 : 1;
    counts.agentErrors += call.errors.length;
    counts.realized += call.decision?.realized === true ? 1 : 0;
    for (const llm of call.llmCalls) {
      counts.llmCalls++;
      counts.tokens += (Number(llm.tokens_in) || 0) + (Number(llm.tokens_out) || 0);
      if (typeof llm.cost === "number") counts.cost = (counts.cost ?? 0) + llm.cost;
    }
  };
  for (const entry of entries) {
    entry.calls.forEach(add);
    for (const turn of entry.turns) {
      turn.calls.forEach(add);
      counts.flips += turn.flipped ? 1 : 0;
    }
    for (const event of entry.other) {
      if (event.type === "correction") counts.corrections++;
      if (event.type === "agent_error") counts.agentErrors++;
    }
  }
  return counts;
}

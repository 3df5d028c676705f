/**
 * Episode diffs: two episodes aligned by round and agent, with the state
 * fields, reports, decisions and model replies that differ. Made for a
 * branch and its parent (`branch.ts`), whose rounds before the branch round
 * are identical, but any two logs of the same game compare.
 *
 * - `firstRound` is the first round that differs: its state hashes differ,
 *   or an agent's reports or game events do (a checkpoint's state
 *   leaves out what the events hold, e.g. the Stag Hunt's turns from
 *   `"lines-v7"` on, the bank run's decision histories from `"lines-v4"`), or
 *   one episode played it and the other did not; `null` when no round
 *   differs. Model replies that differ are listed, but alone do not make a
 *   round differ: a branch's rounds before its branch round hold the
 *   parent's reports without its model calls.
 * - A round's `state` lists every differing leaf of the two checkpoint
 *   states (path, value in `a`, value in `b`), in sorted key order; `agents`
 *   lists, per agent id (sorted), the reports (by step and call), the
 *   agent's game events (decisions, turns, mechanism actions, messages: by
 *   type and order within the round) and the replies (model call contents)
 *   that differ. Events are compared without their base fields (`seq`,
 *   `time`, ids), so an event shifted by an earlier one is not a difference.
 * - Both logs must carry states (written logs, or played with `hashes:
 *   true`): a diff of states it cannot see would be a guess.
 *
 * @module
 */
import { type EngineEvent, EVENT_BASE_FIELDS } from "./events.ts";

/** A value that differs between the two episodes. */
export interface DiffValue {
  /** Path of the field (`depositors[2].balance`; `""` for the whole value). */
  path: string;
  /** Value in episode `a` (`undefined` when absent). */
  a: unknown;
  /** Value in episode `b` (`undefined` when absent). */
  b: unknown;
}

/** What differs for one agent in one round. */
export interface AgentDiff {
  /** Agent id. */
  agent: string;
  /** Reports that differ, keyed `step/call` in `path`. */
  reports: DiffValue[];
  /** The agent's game events that differ (decisions, turns, mechanism actions...), keyed `type[i]`. */
  decisions: DiffValue[];
  /** Model replies (`llm_call` content) that differ, keyed `step/call[i]`. */
  replies: DiffValue[];
}

/** One round of a diff. */
export interface RoundDiff {
  /** Round, from 1. */
  round: number;
  /**
   * Whether both episodes played the round, their state hashes are equal and
   * no agent's reports or game events differ (replies alone may).
   */
  same: boolean;
  /** Which episode did not play the round, if one did not. */
  missing?: "a" | "b";
  /** State hashes, `a` then `b` (`null` for a round not played). */
  hashes: [string | null, string | null];
  /** Differing state fields. */
  state: DiffValue[];
  /** Agents with a difference, by id. */
  agents: AgentDiff[];
}

/** What {@linkcode diffEpisodes} returns. */
export interface EpisodeDiff {
  /** The two episodes, as `run/episode`. */
  a: string;
  /** The second episode, as `run/episode`. */
  b: string;
  /** The first round that differs (its state hash or an agent's events), or `null`. */
  firstRound: number | null;
  /** Every round either episode played, in order. */
  rounds: RoundDiff[];
  /**
   * Set when one is a branch of the other (`episode_start.branch_of`): which
   * one is the branch, and its branch round.
   */
  branch: { child: "a" | "b"; round: number } | null;
}

/** Options of {@linkcode diffEpisodes}. */
export interface DiffEpisodesOptions {
  /** Most differing state fields listed per round. Default 200. */
  maxStateFields?: number;
}

/**
 * Aligns two episodes by round and agent and lists what differs.
 *
 * @example
 * ```ts
 * import { diffEpisodes } from "./episode_diff.ts";
 * import { runEpisode } from "../run_episode.ts";
 * const a = await runEpisode({ env: "bank_run", mechanism: "M0", seed: 2, hashes: true });
 * const b = await runEpisode({ env: "bank_run", mechanism: "M0", seed: 2, hashes: true,
 *   agents: { depositors: "always_run" } });
 * const d = diffEpisodes(a.events, b.events);
 * if (d.firstRound !== 1 || d.rounds[0].agents.length === 0) throw new Error();
 * if (diffEpisodes(a.events, a.events).firstRound !== null) throw new Error();
 * ```
 * @throws {TypeError} When a log has no `episode_start`, or a checkpoint without its state.
 */
export function diffEpisodes(
  a: readonly EngineEvent[],
  b: readonly EngineEvent[],
  options: DiffEpisodesOptions = {},
): EpisodeDiff {
  const max = options.maxStateFields ?? 200;
  const ra = rounds(a, "a");
  const rb = rounds(b, "b");
  const n = Math.max(ra.played.length, rb.played.length);
  const out: RoundDiff[] = [];
  let firstRound: number | null = null;
  for (let i = 0; i < n; i++) {
    const x = ra.played[i];
    const y = rb.played[i];
    const round = i + 1;
    const hashes: [string | null, string | null] = [x?.hash ?? null, y?.hash ?? null];
    const agents = agentDiffs(x?.events ?? [], y?.events ?? []);
    // Model replies alone do not make a round differ: a branch's rounds before its branch
    // round take the parent's reports without its model calls (paid in the parent).
    const same = x !== undefined && y !== undefined && x.hash === y.hash &&
      agents.every((d) => d.reports.length === 0 && d.decisions.length === 0);
    if (!same && firstRound === null) firstRound = round;
    const state = x && y ? differences(x.state, y.state, "", max) : [];
    out.push({
      round,
      same,
      ...(x === undefined
        ? { missing: "a" as const }
        : y === undefined
        ? { missing: "b" as const }
        : {}),
      hashes,
      state,
      agents,
    });
  }
  const branch = branchRelation(ra.start, rb.start);
  return { a: ra.id, b: rb.id, firstRound, rounds: out, branch };
}

interface PlayedRound {
  hash: string;
  state: unknown;
  events: EngineEvent[];
}

type Start = Extract<EngineEvent, { type: "episode_start" }>;

function rounds(events: readonly EngineEvent[], side: string) {
  const start = events.find((e): e is Start => e.type === "episode_start");
  if (!start) throw new TypeError(`Cannot diff: log ${side} has no episode_start event`);
  const played: PlayedRound[] = [];
  let current: EngineEvent[] = [];
  for (const e of events) {
    if (e.type === "checkpoint") {
      if (e.state_hash === undefined || e.state === undefined) {
        throw new TypeError(
          `Cannot diff: log ${side} ("${start.run}/${start.episode}") has no state in its round ` +
            `${e.round} checkpoint; diff written logs or episodes played with hashes: true`,
        );
      }
      played.push({ hash: e.state_hash, state: e.state, events: current });
      current = [];
    } else if (e.round > 0) current.push(e);
  }
  return { start, played, id: `${start.run}/${start.episode}` };
}

/** Every differing leaf of two JSON values, depth first, keys sorted, at most `max`. */
function differences(left: unknown, right: unknown, path: string, max: number): DiffValue[] {
  const out: DiffValue[] = [];
  const walk = (l: unknown, r: unknown, p: string) => {
    if (out.length >= max || Object.is(l, r)) return;
    const objects = typeof l === "object" && typeof r === "object" && l !== null && r !== null &&
      Array.isArray(l) === Array.isArray(r);
    if (!objects) {
      out.push({ path: p, a: l, b: r });
      return;
    }
    if (Array.isArray(l) && Array.isArray(r)) {
      for (let i = 0; i < Math.max(l.length, r.length); i++) walk(l[i], r[i], `${p}[${i}]`);
      return;
    }
    const lo = l as Record<string, unknown>;
    const ro = r as Record<string, unknown>;
    for (const k of [...new Set([...Object.keys(lo), ...Object.keys(ro)])].sort()) {
      walk(lo[k], ro[k], p ? `${p}.${k}` : k);
    }
  };
  walk(left, right, path);
  return out;
}

/** An event's own fields, without the base (`seq`, `time`, ids, round, step). */
function own(e: EngineEvent): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) {
    if (!EVENT_BASE_FIELDS.has(k) || k === "type") out[k] = v;
  }
  delete out.event_hash;
  return out;
}

const SKIPPED = new Set(["report", "llm_call", "correction", "agent_error"]);

/** Per agent, keyed lists of reports, game events and replies of one round. */
function byAgent(events: readonly EngineEvent[]) {
  const agents = new Map<
    string,
    {
      reports: Map<string, unknown>;
      decisions: Map<string, unknown>;
      replies: Map<string, unknown>;
    }
  >();
  const of = (id: string) => {
    let x = agents.get(id);
    if (!x) agents.set(id, x = { reports: new Map(), decisions: new Map(), replies: new Map() });
    return x;
  };
  const counts = new Map<string, number>();
  const next = (k: string) => {
    const c = counts.get(k) ?? 0;
    counts.set(k, c + 1);
    return c;
  };
  for (const e of events) {
    const agent = (e as { agent?: unknown }).agent;
    if (typeof agent !== "string") continue;
    const call = (e as { call?: string }).call;
    if (e.type === "report") of(agent).reports.set(`${e.step}/${call}`, e.report);
    else if (e.type === "llm_call") {
      const k = `${e.step}/${call}`;
      of(agent).replies.set(`${k}[${next(`${agent}\u0000r\u0000${k}`)}]`, e.content);
    } else if (!SKIPPED.has(e.type)) {
      of(agent).decisions.set(`${e.type}[${next(`${agent}\u0000d\u0000${e.type}`)}]`, own(e));
    }
  }
  return agents;
}

function agentDiffs(a: readonly EngineEvent[], b: readonly EngineEvent[]): AgentDiff[] {
  const x = byAgent(a);
  const y = byAgent(b);
  const ids = [...new Set([...x.keys(), ...y.keys()])].sort();
  const out: AgentDiff[] = [];
  const compare = (l: Map<string, unknown> | undefined, r: Map<string, unknown> | undefined) => {
    const keys = [...new Set([...(l?.keys() ?? []), ...(r?.keys() ?? [])])];
    return keys.flatMap((k) => {
      const va = l?.get(k);
      const vb = r?.get(k);
      return differences(va, vb, "", 1).length === 0 ? [] : [{ path: k, a: va, b: vb }];
    });
  };
  for (const id of ids) {
    const d = {
      agent: id,
      reports: compare(x.get(id)?.reports, y.get(id)?.reports),
      decisions: compare(x.get(id)?.decisions, y.get(id)?.decisions),
      replies: compare(x.get(id)?.replies, y.get(id)?.replies),
    };
    if (d.reports.length + d.decisions.length + d.replies.length > 0) out.push(d);
  }
  return out;
}

function branchRelation(a: Start, b: Start): EpisodeDiff["branch"] {
  const is = (child: Start, parent: Start) =>
    child.branch_of !== undefined && child.branch_of.run === parent.run &&
    child.branch_of.episode === parent.episode;
  if (is(a, b)) return { child: "a", round: a.branch_of!.round };
  if (is(b, a)) return { child: "b", round: b.branch_of!.round };
  return null;
}

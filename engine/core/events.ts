/**
 * The event log: a tagged union of small records sharing one base. Every
 * episode's log is NDJSON, one event per line, each line carrying the schema
 * version.
 *
 * @module
 */

/** Version of the event schema written in every event. */
export const EVENT_SCHEMA_VERSION = 1;

/** Fields every event carries. */
export interface EventBase {
  /** Event schema version ({@linkcode EVENT_SCHEMA_VERSION}). */
  schema: number;
  /** Run id (a folder name under `runs/`). */
  run: string;
  /** Episode id, unique within the run. */
  episode: string;
  /** Round number; 0 before round 1. */
  round: number;
  /** Step of the round (`"setup"`, a step id of the environment, `"checkpoint"`, `"end"`). */
  step: string;
  /** Position of the event in the episode's log, from 0. */
  seq: number;
  /** Wall-clock time the event was written (ISO 8601); never part of a hash. */
  time: string;
}

/** The body of an event: what an environment or the runner emits, before the base is added. */
export type EventBody =
  | {
    type: "episode_start";
    env: string;
    mechanism: string;
    regime: string;
    seed: number;
    params: unknown;
    agents: AgentInfo[];
    bounds: { worst: number; best: number };
    toolkit: string;
  }
  | { type: "round_start" }
  | { type: "report"; agent: string; role: string; call: string; report: Record<string, unknown> }
  | {
    type: "correction";
    agent: string;
    call: string;
    field: string;
    reason: string;
    raw: unknown;
    applied: unknown;
  }
  | { type: "agent_error"; agent: string; call: string; status: "error"; message: string }
  | {
    type: "decision";
    agent: string;
    call: string;
    action: string;
    alternative: string;
    reported: number;
    probability: number;
    draw: number;
    realized: boolean;
    committed: boolean;
    amount: number;
  }
  | {
    type: "override";
    agent: string;
    call: string;
    field: string;
    from: unknown;
    to: unknown;
    reason: string;
  }
  | { type: "mechanism"; action: string; agent: string; [key: string]: unknown }
  | {
    type: "message";
    from: string;
    to: string[] | "all";
    kind: string;
    content: Record<string, unknown>;
  }
  | { type: "transition"; kind: string; [key: string]: unknown }
  | { type: "failure"; kind: string; detail: string }
  | {
    type: "disclosure";
    /** The snapshot agents see next round. */
    public: Record<string, unknown>;
    /** Engine-side round metrics for analysis (never shown to agents); at least `committed`. */
    metrics: Record<string, number>;
  }
  | { type: "checkpoint"; state: unknown; state_hash: string; events_hash: string }
  | { type: "episode_end"; status: "ok" | "error"; outcome?: EpisodeOutcome; error?: string };

/** An event as written to the log. */
export type EngineEvent = EventBase & EventBody;

/** Who played in an episode. */
export interface AgentInfo {
  /** Agent id, e.g. `"dep_01"` or `"bank"`. */
  id: string;
  /** Role, e.g. `"depositor"` or `"bank"`. */
  role: string;
  /** The policy or model behind it, e.g. `"mock:defensive"`. */
  policy: string;
}

/** What an episode produced. */
export interface EpisodeOutcome {
  /** Whether the central player reached successful settlement. */
  success: boolean;
  /** Failure kind (`"liquidity"`, `"insolvency"`, ...) or `null`. */
  failure: string | null;
  /** Last round played. */
  rounds: number;
  /** Payoff of every player, by agent id. */
  payoffs: Record<string, number>;
  /** Social welfare: the sum of all payoffs. */
  welfare: number;
  /** Welfare realization (W - worst) / (best - worst), truncated at 1. */
  welfareRealization: number;
  /** The bounds used for the normalisation. */
  bounds: { worst: number; best: number };
}

/**
 * The event log: a tagged union of small records sharing one base. Every
 * episode's log is NDJSON, one event per line, each line carrying the schema
 * version.
 *
 * @module
 */

/**
 * Version of the event schema written in every event. Version 2 records the
 * full condition in `episode_start` (`game`, `condition`, `condition_id`,
 * `derived`, `model`); version 1 logs (coordlab 0.1) stored the Stag Hunt's
 * corruption mode in `mechanism` and its heterogeneity in `regime`, did not
 * record parameter overrides or derived quantities, and are refused by name.
 *
 * @example
 * ```ts
 * import { EVENT_SCHEMA_VERSION } from "./events.ts";
 * if (EVENT_SCHEMA_VERSION !== 2) throw new Error();
 * ```
 */
export const EVENT_SCHEMA_VERSION = 2;

/**
 * The names of the fields every event carries ({@linkcode EventBase}), and
 * `type`: what a reader leaves out when it lists an event's own fields.
 *
 * @example
 * ```ts
 * import { EVENT_BASE_FIELDS } from "./events.ts";
 * if (!EVENT_BASE_FIELDS.has("seq") || EVENT_BASE_FIELDS.has("agent")) throw new Error();
 * ```
 */
export const EVENT_BASE_FIELDS: ReadonlySet<string> = new Set([
  "schema",
  "run",
  "episode",
  "round",
  "step",
  "seq",
  "time",
  "type",
]);

/** Where a branch was forked from (`episode_start.branch_of`). */
export interface BranchOf {
  /** The parent's run id. */
  run: string;
  /** The parent's episode id. */
  episode: string;
  /** The first round played under the change (rounds before it are the parent's). */
  round: number;
  /** The parent's condition (`episode_start.condition` of the parent). */
  condition: Record<string, unknown>;
  /** The parent's condition id. */
  condition_id: string;
  /** The parent's state hash at the end of each round before `round`, round 1 first. */
  hashes: string[];
  /** The parent's own `branch_of`, when the parent is a branch (a branch of a branch). */
  branch_of?: BranchOf;
}

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
  /**
   * Position of the event among the episode's game events, from 0. Agent-side
   * events (`llm_call`, `agent_error`, `correction`) take the `seq` of the game
   * event that follows them; the file order is the log order.
   */
  seq: number;
  /** Wall-clock time the event was written (ISO 8601); never part of a hash. */
  time: string;
}

/** The body of an event: what an environment or the runner emits, before the base is added. */
export type EventBody =
  | {
    type: "episode_start";
    /** Family of games: `"frail"` or `"staghunt"`. */
    game: string;
    /** Game id (`"bank_run"`, ..., `"staghunt"`). */
    env: string;
    /** The full condition as explicit fields (FRAIL: env, mechanism, regime, overrides, overrides_id; Stag Hunt: N, M, T, F, corruption, heterogeneity, payoffs). */
    condition: Record<string, unknown>;
    /** A short stable label of the condition. */
    condition_id: string;
    /** Episode seed. */
    seed: number;
    /** The resolved parameters. */
    params: unknown;
    /** Quantities that follow from the parameters (bounds, boundaries, funding, q*, ...). */
    derived: Record<string, unknown>;
    /** Role of the central player (bank, borrower, founder), or `null` in a game of peers. */
    central_role: string | null;
    /** Player id of the central player (it has a payoff even where it is not an agent), or `null`. */
    central_id: string | null;
    /** Every player, its role and the policy or model behind it. */
    agents: AgentInfo[];
    /** The participants' policy or model (every player but the central one); distinct ones sorted and joined by `+`. */
    model: string;
    /** Closed-form welfare bounds. */
    bounds: { worst: number; best: number };
    /** Toolkit version that wrote the log. */
    toolkit: string;
    /** Stream derivation (`rng.ts`), e.g. `"murmur3-xoshiro128ss-v2"`. */
    rng?: string;
    /** Events-hash definition (`events_hash.ts`), e.g. `"lines-v3"`. */
    hashing?: string;
    /**
     * Set in a branch (`branch.ts`): the episode it was forked from, the
     * round from which the change applies, and the parent's condition (which
     * rounds before `round` were played under).
     */
    branch_of?: BranchOf;
    /** Set in a branch: the change applied from `branch_of.round` on, as given. */
    change?: Record<string, unknown>;
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
    /** Its own hash (`"lines-v3"` logs with hashes; see `events_hash.ts`). */
    event_hash?: string;
  }
  | {
    type: "agent_error";
    agent: string;
    call: string;
    status: "error";
    message: string;
    /** Its own hash (`"lines-v3"` logs with hashes; see `events_hash.ts`). */
    event_hash?: string;
  }
  | ({ type: "llm_call"; agent: string; call: string } & LlmCallRecord & {
    /** Its own hash, its last member (`"lines-v3"` logs with hashes; see `events_hash.ts`). */
    event_hash?: string;
  })
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
  | {
    /** One published Stag Hunt turn, with both action layers. */
    type: "turn";
    /** Speaker. */
    agent: string;
    /** Speaking position in the round, from 1. */
    position: number;
    /** Whether the speaker is a designated corrupted player (never shown to agents). */
    corrupted: boolean;
    /** The agent's own (pre-flip) action. */
    original_action: string;
    /** The action shown in the public transcript. */
    public_action: string;
    /**
     * The action executed (scored): the public one, but under
     * `communication_only` the original one. Absent in logs written before it
     * was added (their modes executed the public action).
     */
    executed_action?: string;
    /** Reported confidence in [0, 1], kept on both layers. */
    confidence: number;
    /** The agent's own justification. */
    original_justification: string;
    /** The public justification (a new one when the public action was changed). */
    public_justification: string;
  }
  | {
    /**
     * The end of a round. An episode played with hashes (every written log)
     * records the state and both hashes; one played without them (in memory,
     * logging off) records none of the three.
     */
    type: "checkpoint";
    state?: unknown;
    state_hash?: string;
    events_hash?: string;
  }
  | {
    type: "episode_end";
    /**
     * `"ok"`; `"degraded"` when the episode finished but some decision took
     * its neutral default because its agent failed (a model call that failed
     * after its last retry, an agent that threw); `"error"` when it crashed.
     */
    status: "ok" | "degraded" | "error";
    /** The outcome (`"ok"` and `"degraded"`). */
    outcome?: EpisodeOutcome;
    /** Why it crashed (`"error"`). */
    error?: string;
    /** What was filled in (`"degraded"` only). */
    degraded?: Degradation;
    /**
     * Hash of the events from the last checkpoint on, this one included
     * without this member, its last (`"lines-v3"` logs with hashes; see `events_hash.ts`).
     */
    events_hash?: string;
  };

/**
 * What made an episode `"degraded"`: counts over the whole episode.
 */
export interface Degradation {
  /** Decisions that took their call's neutral default because their agent failed. */
  defaults: number;
  /** `agent_error` events (each agent failure fills its own decision, so this equals `defaults`). */
  agent_errors: number;
  /** Model calls that failed after their last retry (`llm_call` events with status `"error"`). */
  failed_calls: number;
}

/**
 * One failed attempt of a model call: retried, or (the last one) the end of
 * the call.
 */
export interface LlmAttemptFailure {
  /** Attempt number, from 1. */
  attempt: number;
  /** What went wrong (`"invalid_response"`: a 200 whose body is not a chat completion). */
  kind:
    | "rate_limit"
    | "server_error"
    | "timeout"
    | "connection"
    | "client_error"
    | "invalid_response";
  /** HTTP status, or `null` without a response. */
  status: number | null;
  /** The error message, with secrets redacted. */
  message: string;
  /** Wait before the next attempt in ms, or `null` when none followed. */
  wait_ms: number | null;
  /**
   * The wait the provider asked for (`Retry-After`) in ms, or `null`; above
   * `wait_ms` when the model's `maxRetryAfterMs` capped it.
   */
  requested_wait_ms: number | null;
}

/**
 * What one model call behind a report did and cost. An agent attaches these to
 * its reply (see `AgentReply` in `episode.ts`); the runner logs each as an
 * `llm_call` event just before the agent's corrections and report. They describe
 * the outside world, not the game, so a replay feeds them back rather than
 * regenerating them; from `"lines-v3"` on, the events hash covers them (each
 * `llm_call` also carries its own `event_hash`, see `events_hash.ts`).
 */
export interface LlmCallRecord {
  /** Model configuration id. */
  model: string;
  /** Provider (the limiter group). */
  provider: string;
  /** Model name sent to the provider. */
  provider_model: string;
  /** `"ok"` when a reply came back, `"error"` when every attempt failed. */
  status: "ok" | "error";
  /** Whether the reply came from the response cache. */
  cache: "hit" | "miss" | "off";
  /** Network attempts made (0 on a cache hit). */
  attempts: number;
  /** Failed attempts, in order. */
  failures: LlmAttemptFailure[];
  /** Latency of the answering attempt in ms (0 on a cache hit). */
  latency_ms: number;
  /** Wall time of the whole call in ms, including limiter and backoff waits. */
  wall_ms: number;
  /** Prompt tokens. */
  tokens_in: number;
  /** Completion tokens (reasoning included, as providers report them). */
  tokens_out: number;
  /** Reasoning tokens, where the provider reports them. */
  tokens_reasoning: number;
  /** Estimated cost of this call (0 on a cache hit), or `null` without a price. */
  cost: number | null;
  /** The provider's finish reason. */
  finish_reason: string | null;
  /**
   * The reply text as received, with the configured keys redacted (in a log,
   * cut to the runtime's `maxLoggedReplyChars`, with a `correction` saying so).
   */
  content: string | null;
  /** Reasoning text the provider returned beside the reply, if any (redacted and cut alike). */
  reasoning: string | null;
  /** SHA-256 of the canonical messages. */
  prompt_hash: string;
  /** Response-cache key. */
  cache_key: string;
  /** Why the call failed (secrets redacted), or `null`. */
  error: string | null;
  /**
   * Why the provider's token counts were not used (missing, negative, not
   * integers): the counts are then 0 and the call is unpriced. `null` when
   * they were used.
   */
  usage_warning: string | null;
  /**
   * The messages sent, in order, with the configured keys redacted; a system
   * prompt an earlier `llm_call` of the episode logged is written as its
   * SHA-256 (see {@linkcode LoggedMessage}). Joined back, they hash to
   * `prompt_hash`. Absent in logs written before messages were kept and in
   * records not made by an LLM agent (a probe).
   */
  messages?: LoggedMessage[];
}

/**
 * One message of a model call as an `llm_call` event logs it: its text, or,
 * for a system message whose text an earlier `llm_call` of the same episode
 * already logged, the SHA-256 (hex, of the UTF-8 text) of that text, so that
 * each distinct system prompt is written once per episode.
 */
export type LoggedMessage =
  | { role: string; content: string }
  | { role: string; content_sha256: string };

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

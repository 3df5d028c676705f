/**
 * Per-provider limits shared by every episode in flight: at most
 * `concurrency` calls at once (first come, first served) and at most
 * `requestsPerMinute` call starts in any sliding 60-second window.
 *
 * @module
 */
import type { ModelConfig } from "./model_config.ts";

/** Options of {@linkcode Limiter}. */
export interface LimiterOptions {
  /** Calls in flight at once (at least 1). */
  concurrency: number;
  /** Call starts per sliding minute, or `null` for no limit. Default `null`. */
  requestsPerMinute?: number | null;
  /** Clock in ms. Default `Date.now`. */
  now?: () => number;
  /** Sleeps for ms. Default a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Called whenever the counts of {@linkcode Limiter.status} change. Default none. */
  onChange?: () => void;
}

/** What a limiter is doing now. */
export interface LimiterStatus {
  /** Calls holding a slot. */
  active: number;
  /** Calls waiting for a slot. */
  queued: number;
  /** Calls holding a slot but waiting for the requests-per-minute window. */
  rateWaiting: number;
}

const MINUTE = 60_000;

/**
 * A concurrency and rate limiter.
 *
 * @example
 * ```ts
 * import { Limiter } from "./limiter.ts";
 * const lim = new Limiter({ concurrency: 1 });
 * const release = await lim.acquire();
 * const second = lim.acquire();
 * if (lim.status().queued !== 1) throw new Error();
 * release();
 * (await second)();
 * if (lim.status().active !== 0) throw new Error();
 * ```
 */
export class Limiter {
  readonly #concurrency: number;
  readonly #rpm: number | null;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #onChange: () => void;
  readonly #queue: (() => void)[] = [];
  #starts: number[] = [];
  #active = 0;
  #rateWaiting = 0;

  /** Creates a limiter. */
  constructor(options: LimiterOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new RangeError(
        `Limiter concurrency must be a positive integer, got ${options.concurrency}`,
      );
    }
    const rpm = options.requestsPerMinute ?? null;
    if (rpm !== null && !(rpm > 0)) {
      throw new RangeError(`Limiter requestsPerMinute must be positive, got ${rpm}`);
    }
    this.#concurrency = options.concurrency;
    this.#rpm = rpm === null ? null : Math.max(1, Math.floor(rpm));
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.#onChange = options.onChange ?? (() => {});
  }

  /** Counts of active, queued and rate-waiting calls. */
  status(): LimiterStatus {
    return { active: this.#active, queued: this.#queue.length, rateWaiting: this.#rateWaiting };
  }

  /** Waits for a slot and the rate window; resolves to the slot's release function. */
  async acquire(): Promise<() => void> {
    if (this.#active >= this.#concurrency) {
      await new Promise<void>((resolve) => {
        this.#queue.push(resolve);
        this.#onChange();
      });
    } else {
      this.#active++;
      this.#onChange();
    }
    const wait = this.#reserveStart();
    if (wait > 0) {
      this.#rateWaiting++;
      this.#onChange();
      await this.#sleep(wait);
      this.#rateWaiting--;
      this.#onChange();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#queue.shift();
      if (next) next(); // the slot passes on; #active is unchanged
      else this.#active--;
      this.#onChange();
    };
  }

  /** Reserves the earliest start the window allows; returns the wait in ms. */
  #reserveStart(): number {
    if (this.#rpm === null) return 0;
    const now = this.#now();
    this.#starts = this.#starts.filter((t) => t > now - MINUTE);
    const n = this.#starts.length;
    const start = n >= this.#rpm ? Math.max(now, this.#starts[n - this.#rpm] + MINUTE) : now;
    this.#starts.push(start);
    return start - now;
  }
}

/**
 * One limiter per provider for a set of models: models sharing a provider
 * share a limiter whose limits are the smallest any of them declares.
 *
 * @example
 * ```ts
 * import { limitersByProvider } from "./limiter.ts";
 * import { parseModelConfig } from "./model_config.ts";
 * const base = { baseURL: "http://127.0.0.1:1/v1", model: "m" };
 * const pool = limitersByProvider([
 *   parseModelConfig({ ...base, id: "a", concurrency: 4 }),
 *   parseModelConfig({ ...base, id: "b", concurrency: 2 }),
 * ]);
 * if (pool.size !== 1) throw new Error();
 * ```
 */
export function limitersByProvider(
  models: readonly ModelConfig[],
  options: Pick<LimiterOptions, "now" | "sleep" | "onChange"> = {},
): Map<string, Limiter> {
  const limits = new Map<string, { concurrency: number; rpm: number | null }>();
  for (const m of models) {
    const got = limits.get(m.provider);
    const rpm = got?.rpm ?? null;
    limits.set(m.provider, {
      concurrency: Math.min(got?.concurrency ?? Infinity, m.concurrency),
      rpm: m.requestsPerMinute === null ? rpm : Math.min(rpm ?? Infinity, m.requestsPerMinute),
    });
  }
  return new Map(
    [...limits].map((
      [provider, l],
    ) => [
      provider,
      new Limiter({ ...options, concurrency: l.concurrency, requestsPerMinute: l.rpm }),
    ]),
  );
}

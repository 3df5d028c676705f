/**
 * End-of-round advancement of a coalition's exit ritual (`exit_ritual.ts`):
 * one wave per round after the request; at the end of the third wave every
 * listed member leaves the coalition for good (`coalition.ts`).
 *
 * @module
 */
import type { EventBody } from "../../core/events.ts";
import { completeExit } from "./coalition.ts";
import { advanceRitual } from "./exit_ritual.ts";
import type { CoalitionProfile } from "./profile.ts";

/**
 * Advances the ritual in progress (if any) at the end of `round`, confirming
 * the listed members' exits after the third wave. Returns the events.
 *
 * @example
 * ```ts
 * import { advanceCoalitionExit } from "./coalition_exit.ts";
 * const m3 = { members: [{ id: "a", since: 1, amount: 1 }], exited: [], votes: [],
 *   ritual: { opened: 1, wave: 0, list: ["a"] } };
 * advanceCoalitionExit(m3, 2); advanceCoalitionExit(m3, 3);
 * const events = advanceCoalitionExit(m3, 4);
 * if (events.length !== 2 || m3.members.length !== 0 || m3.ritual !== null) throw new Error();
 * ```
 */
export function advanceCoalitionExit(m3: CoalitionProfile, round: number): EventBody[] {
  const r = m3.ritual;
  if (!r) return [];
  const events: EventBody[] = [];
  const confirmed = advanceRitual(r, round);
  events.push({
    type: "mechanism",
    action: "exit_wave",
    agent: "coalition",
    wave: r.wave,
    list: [...r.list],
  });
  if (confirmed.length) {
    completeExit(m3, confirmed);
    m3.ritual = null;
    events.push({
      type: "mechanism",
      action: "exit_confirmed",
      agent: "coalition",
      members: confirmed,
    });
  }
  return events;
}

// M1's offers are indexed by target beside the state (paid_offers.ts): every
// question the index answers must get the answer a scan of the whole list
// gives, whatever happened to the offers, and a list changed other than by
// appending must be indexed again.
import { assert, assertEquals } from "../../../_assert.ts";
import {
  answerOffer,
  expireOffers,
  hasPendingOffer,
  isLocked,
  makeOffers,
  type Offer,
  offersTo,
  offersWithStatus,
  type PaidOffersState,
} from "../../../../engine/frail/mechanisms/paid_offers.ts";
import { acceptedOffersTo, openProposals } from "../../../../engine/frail/mechanisms/views.ts";
import { emptyProfile } from "../../../../engine/frail/mechanisms/profile.ts";

// The rules as they were written before the index: scans of the whole list.
const scanLocked = (s: PaidOffersState, agent: string, round: number) =>
  s.offers.some((o) =>
    o.target === agent && o.status === "accepted" && o.round <= round && round <= o.lockUntil
  );
const scanPending = (s: PaidOffersState, agent: string) =>
  s.offers.some((o) => o.target === agent && o.status === "pending");
const scanTo = (s: PaidOffersState, agent: string) => s.offers.filter((o) => o.target === agent);

/** A seeded generator of uniform numbers in [0, 1) (Park-Miller). */
function uniform(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 16807) % 2147483647) / 2147483647;
}

const TARGETS = ["a", "b", "c", "d", "e", "f"];

Deno.test("offersTo(), offersWithStatus(), isLocked(), hasPendingOffer() and answerOffer() give what scanning the list gives, over 300 seeded episodes", () => {
  let checks = 0;
  let accepted = 0;
  let locked = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const u = uniform(seed);
    const profile = emptyProfile("M1");
    const s = profile.m1!;
    const check = (round: number) => {
      for (const t of [...TARGETS, "nobody"]) {
        assertEquals(offersTo(s, t), scanTo(s, t));
        for (const status of ["pending", "accepted", "declined", "expired"] as const) {
          assertEquals(
            offersWithStatus(s, t, status),
            scanTo(s, t).filter((o) => o.status === status),
          );
        }
        assertEquals(
          openProposals(profile, t, { round }).offers,
          scanTo(s, t).filter((o) => o.status === "pending"),
        );
        assertEquals(
          acceptedOffersTo(profile, t),
          scanTo(s, t).filter((o) => o.status === "accepted").sort((x, y) =>
            y.lockUntil - x.lockUntil
          ),
        );
        assertEquals(hasPendingOffer(s, t), scanPending(s, t));
        for (let r = round - 2; r <= round + 3; r++) {
          assertEquals(isLocked(s, t, r), scanLocked(s, t, r));
          if (scanLocked(s, t, r)) locked++;
        }
        checks++;
      }
    };
    for (let round = 1; round <= 10; round++) {
      // Offers to a random subset (repeats, locked targets and bad terms included: refused).
      const proposals = TARGETS.filter(() => u() < 0.6).map((target) => ({
        target: u() < 0.1 ? TARGETS[0] : target,
        amount: u() < 0.05 ? 0 : Math.round(u() * 100) / 1000,
        lock_until: round + Math.floor(u() * 4) - (u() < 0.05 ? 2 : 0),
      }));
      const before = s.offers.length;
      const results = makeOffers(s, proposals, { round, eligible: (id) => id !== "f" });
      assertEquals(s.offers.length - before, results.filter((r) => r.ok).length);
      check(round);
      // Answers: right and wrong ids, right and wrong agents, twice to the same offer.
      for (let k = 0; k < 6; k++) {
        const pending = s.offers.filter((o) => o.status === "pending");
        const pick = (u() < 0.7 ? pending : s.offers)[Math.floor(u() * s.offers.length)] as
          | Offer
          | undefined;
        const agent = pick && u() < 0.8 ? pick.target : TARGETS[Math.floor(u() * TARGETS.length)];
        const id = pick && u() < 0.9 ? pick.id : "m1_t1_zz";
        const expected = s.offers.find((o) =>
          o.id === id && o.target === agent && o.status === "pending"
        );
        const accept = u() < 0.6;
        assert(
          answerOffer(s, agent, id, accept) === expected,
          `answerOffer(${agent}, ${id}) is not the offer the scan finds`,
        );
        if (expected) assertEquals(expected.status, accept ? "accepted" : "declined");
        if (expected && accept) accepted++;
        check(round);
      }
      expireOffers(s);
      check(round);
    }
  }
  assertEquals(checks, 300 * 10 * 8 * 7);
  // Enough offers accepted that the locks are exercised (the count is the seeds').
  assertEquals([accepted, locked], [1587, 101872]);
});

Deno.test("offersTo() indexes a list again when an offer was removed or replaced, and each list apart", () => {
  const offer = (id: string, target: string, round: number): Offer => ({
    id,
    target,
    amount: 0.1,
    lockUntil: round + 2,
    round,
    status: "accepted",
  });
  const s: PaidOffersState = { offers: [offer("x", "a", 1), offer("y", "b", 1)] };
  assertEquals(offersTo(s, "a").map((o) => o.id), ["x"]);
  assert(isLocked(s, "b", 2));
  s.offers.pop();
  assertEquals(offersTo(s, "b"), []);
  assert(!isLocked(s, "b", 2));
  // Same length, a different last offer.
  s.offers.push(offer("y", "b", 1));
  assertEquals(offersTo(s, "b").map((o) => o.id), ["y"]);
  s.offers[1] = offer("z", "c", 1);
  assertEquals([offersTo(s, "b").length, offersTo(s, "c").map((o) => o.id)], [0, ["z"]]);
  assert(!isLocked(s, "b", 2) && isLocked(s, "c", 2));
  // A copy of the state (a replayed or branched episode) has its own list and its own index.
  const copy: PaidOffersState = structuredClone(s);
  copy.offers.push(offer("w", "a", 2));
  assertEquals(offersTo(copy, "a").map((o) => o.id), ["x", "w"]);
  assertEquals(offersTo(s, "a").map((o) => o.id), ["x"]);
  // A list assigned anew is indexed anew.
  s.offers = [offer("v", "d", 3)];
  assertEquals([offersTo(s, "a").length, offersTo(s, "d").map((o) => o.id)], [0, ["v"]]);
});

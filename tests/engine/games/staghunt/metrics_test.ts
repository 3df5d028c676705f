import assert from "node:assert/strict";
import { expectedCalibrationError } from "../../../../engine/games/staghunt/metrics/calibration.ts";
import {
  honestStagRate,
  outcomeAlignment,
  payoffPerTurn,
} from "../../../../engine/games/staghunt/metrics/choices.ts";
import { roundOutcomes, successRates } from "../../../../engine/games/staghunt/metrics/rounds.ts";
import {
  consensusEntropy,
  downstreamAlignment,
} from "../../../../engine/games/staghunt/metrics/transcript.ts";
import { HAND, near, throwsWith } from "./_fixtures.ts";

// The hand-built transcript HAND (see _fixtures.ts) has five rounds:
// E1 R1 flip loss, R2 shared failure, R3 shared success, R4 flip rescue; E2 R1 flip loss.

Deno.test("roundOutcomes() gives both layers' Stag counts and the joint category of each round", () => {
  assert.deepEqual(
    roundOutcomes(HAND).map((r) => [r.episode, r.round, r.preflipStag, r.publicStag, r.joint]),
    [
      ["E1", 1, 2, 1, "flip_loss"],
      ["E1", 2, 0, 1, "shared_failure"],
      ["E1", 3, 2, 3, "shared_success"],
      ["E1", 4, 1, 2, "flip_rescue"],
      ["E2", 1, 2, 1, "flip_loss"],
    ],
  );
});

Deno.test("successRates() gives pre-flip and public success and the four joint shares over rounds", () => {
  assert.deepEqual(successRates(HAND), {
    rounds: 5,
    preflip: 3 / 5,
    public: 2 / 5,
    // base executes the public actions.
    executed: 2 / 5,
    sharedSuccess: 1 / 5,
    flipLoss: 2 / 5,
    flipRescue: 1 / 5,
    sharedFailure: 1 / 5,
  });
});

Deno.test("roundOutcomes() throws when a round lacks some of its N turns", () => {
  throwsWith(() => roundOutcomes(HAND.slice(1)), RangeError, /has 2 of 3 turns/);
});

Deno.test("honestStagRate() counts honest original Stag choices only", () => {
  // Honest turns: E1 p01 S H S S, p03 H H S H; E2 p02 S: 5 of 9.
  assert.deepEqual(honestStagRate(HAND), { turns: 9, rate: 5 / 9 });
});

Deno.test("payoffPerTurn() gives realised (public, S_pub) and truthful (original, S_int) payoffs per honest turn", () => {
  // Realised: E1 0+2, 2+2, 4+4, 4+2 = 20; E2 0. Truthful: E1 4+2, 2+2, 4+4, 0+2 = 20; E2 4.
  const p = payoffPerTurn(HAND);
  assert.equal(p.turns, 9);
  near(p.realised, 20 / 9);
  near(p.truthful, 24 / 9);
  // All turns add the corrupted ones: realised E1 H(0)=2, S(0)=0, S(1)=4, S(1)=4; E2 H(0)=2.
  // Truthful: E1 S(1)=4, H(0)=2, H(1)=2, H(0)=2; E2 S(1)=4.
  const all = payoffPerTurn(HAND, { who: "all" });
  assert.equal(all.turns, 14);
  near(all.realised, (20 + 12) / 14);
  near(all.truthful, (24 + 14) / 14);
});

Deno.test("outcomeAlignment() scores honest original actions against the public outcome", () => {
  // E1: R1 (fail) S x, H ok; R2 (fail) H ok, H ok; R3 (success) S ok, S ok; R4 (success) S ok, H x;
  // E2: R1 (fail) S x. 6 of 9.
  assert.deepEqual(outcomeAlignment(HAND), { turns: 9, rate: 6 / 9 });
});

Deno.test("expectedCalibrationError() bins honest turns into 8 equal-width confidence bins", () => {
  // (confidence, aligned): bin0 (0.1, 0); bin1 (0.2, 1); bin2 (0.3, 1); bin4 (0.5, 1);
  // bin6 (0.8, 1), (0.8, 0); bin7 (0.9, 0), (0.95, 1), (1.0, 1).
  const c = expectedCalibrationError(HAND, { unit: "turn" });
  assert.equal(c.units, 9);
  assert.deepEqual(c.bins.map((b) => b.count), [1, 1, 1, 0, 1, 0, 2, 3]);
  near(c.ece, (0.1 + 0.8 + 0.7 + 0.5 + 2 * 0.3 + 3 * Math.abs(2.85 / 3 - 2 / 3)) / 9);
  assert.ok(Number.isNaN(c.bins[3].confidence));
});

Deno.test("expectedCalibrationError() groups honest agents by mean confidence by default", () => {
  // E1 p01: mean conf 0.6, alignment 3/4 (bin 4); E1 p03: 0.5875, 3/4 (bin 4); E2 p02: 0.8, 0 (bin 6).
  const c = expectedCalibrationError(HAND);
  assert.equal(c.units, 3);
  near(c.ece, (2 * Math.abs((0.6 + 0.5875) / 2 - 0.75) + 0.8) / 3);
  throwsWith(() => expectedCalibrationError(HAND, { bins: 0 }), RangeError, /"bins"/);
});

Deno.test("downstreamAlignment() averages the share of later speakers repeating a public report, by position", () => {
  // Position 1: E1 0, 1/2, 1, 1/2; E2 0 -> 2/5. Position 2: E1 1, 0, 1, 0 -> 1/2.
  assert.deepEqual(downstreamAlignment(HAND), [
    { position: 1, speakers: 5, alignment: 2 / 5 },
    { position: 2, speakers: 4, alignment: 1 / 2 },
  ]);
  // Honest speakers only: E1 p01 at position 1.
  assert.deepEqual(downstreamAlignment(HAND, { speakers: "honest" }), [
    { position: 1, speakers: 4, alignment: 1 / 2 },
  ]);
});

Deno.test("consensusEntropy() is the binary entropy of each round's public Stag share", () => {
  // Public Stag shares 1/3, 1/3, 1, 2/3, 1/2.
  const h = -(1 / 3) * Math.log2(1 / 3) - (2 / 3) * Math.log2(2 / 3);
  const e = consensusEntropy(HAND);
  assert.deepEqual(e.rounds.map((r) => r.entropy), [h, h, 0, h, 1]);
  near(e.mean, (3 * h + 1) / 5);
  near(h, 0.9182958340544896);
  // Original layer: shares 2/3, 0, 2/3, 1/3, 1.
  assert.deepEqual(consensusEntropy(HAND, { layer: "original" }).rounds.map((r) => r.entropy), [
    h,
    0,
    h,
    h,
    0,
  ]);
});

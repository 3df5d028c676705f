import { assertEquals } from "../../../_assert.ts";
import { openStream } from "../../../../engine/core/rng.ts";
import { deliverCertified } from "../../../../engine/frail/mechanisms/certified_delivery.ts";
import { emptyProfile } from "../../../../engine/frail/mechanisms/profile.ts";
import type { Message } from "../../../../engine/frail/types.ts";
import { bankRun } from "../../../../engine/games/bank_run/environment.ts";
import { parseBankRunParams } from "../../../../engine/games/bank_run/params.ts";
import { type BankRunState, initialBankRunState } from "../../../../engine/games/bank_run/state.ts";
import { depositorView } from "../../../../engine/games/bank_run/views.ts";

const state = (mechanism: "M0" | "M1" | "M3"): BankRunState =>
  initialBankRunState(
    parseBankRunParams({}),
    mechanism,
    openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }),
  );

Deno.test("depositorView() shows each coalition member's own balance after the roster was reordered in place", () => {
  const s = state("M3");
  s.m3!.members.push(
    { id: "dep_03", since: 1, amount: 1 },
    { id: "dep_01", since: 1, amount: 1 },
  );
  s.depositors.forEach((d, i) => (d.balance = i + 1));
  const before = depositorView(s, "dep_01").coalition!.members;
  assertEquals(before, [{ id: "dep_03", balance: 3 }, { id: "dep_01", balance: 1 }]);
  // The same list, its entries moved: the positions found earlier no longer hold these ids.
  s.depositors.reverse();
  const after = depositorView(s, "dep_03").coalition!.members;
  assertEquals(after, [{ id: "dep_03", balance: 3 }, { id: "dep_01", balance: 1 }]);
  assertEquals(depositorView(s, "dep_15").balance, 15);
});

Deno.test("depositorView() throws naming an id that is not a depositor", () => {
  const s = state("M0");
  let message = "";
  try {
    depositorView(s, "dep_99");
  } catch (err) {
    message = (err as Error).message;
  }
  assertEquals(message, 'Unknown depositor "dep_99"');
});

Deno.test("deliverCertified() writes each accepted term with the participant's key first", () => {
  const p = emptyProfile("M1");
  p.m1!.discloseTermsTo = "all";
  p.m1!.offers.push(
    { id: "x", target: "a", amount: 0.25, lockUntil: 4, round: 1, status: "accepted" },
    { id: "y", target: "b", amount: 0.5, lockUntil: 9, round: 1, status: "declined" },
  );
  const inbox: Record<string, Message[]> = {};
  deliverCertified(p, inbox, {
    round: 2,
    central: "bank",
    active: ["a", "b"],
    committedTotal: () => 0,
    participantKey: "depositor",
    compensationKind: "outstanding_compensation",
  });
  assertEquals(
    JSON.stringify(inbox["b"][1].content),
    '{"terms":[{"depositor":"a","amount":0.25,"lock_rounds_remaining":3}]}',
  );
});

Deno.test("initialBankRunState() and the disclosure step write the books' fields in the same order", () => {
  const s = state("M1");
  const keys = "cash,assets,depositsRemaining,fractionRedeemed,outstandingCompensation";
  assertEquals(Object.keys(s.disclosed).join(), keys);
  s.round = 1;
  const disclosure = bankRun.steps(s).find((step) => step.id === "disclosure")!;
  disclosure.apply(s, new Map(), {
    round: 1,
    stream: () => openStream({ seed: 1, round: 1, agent: "engine", purpose: "x" }),
  });
  assertEquals(Object.keys(s.disclosed).join(), keys);
});

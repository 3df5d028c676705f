// Prompt text restored to the papers where it had departed without need
// (issue 21): certified aggregates without counts (FRAIL §3.2), a Stag Hunt
// transcript of announcements and reports only (paper 002, §4.2), and the
// bank's game parameters in the third person; the local server still reads
// every such prompt back.
import { assert, assertEquals } from "../../../_assert.ts";
import { announcementLine } from "../../../../engine/games/bank_run/prompts/blocks.ts";
import { messageLine as debtLine } from "../../../../engine/games/debt_rollover/prompts/blocks.ts";
import { messageLine as crowdLine } from "../../../../engine/games/crowdfunding/prompts/blocks.ts";
import { bankRetentionOfferPrompt } from "../../../../engine/games/bank_run/prompts/bank_retention_offer.ts";
import { bankProtectionSolicitationPrompt } from "../../../../engine/games/bank_run/prompts/bank_protection_solicitation.ts";
import { playerTurnPrompt } from "../../../../engine/games/staghunt/prompts/player_turn.ts";
import { bankView } from "../../../../engine/games/bank_run/views.ts";
import { initialBankRunState } from "../../../../engine/games/bank_run/state.ts";
import { parseBankRunParams } from "../../../../engine/games/bank_run/params.ts";
import { stagHunt } from "../../../../engine/games/staghunt/environment.ts";
import { playerView } from "../../../../engine/games/staghunt/views.ts";
import { initialStagHuntState } from "../../../../engine/games/staghunt/state.ts";
import { openStream } from "../../../../engine/core/rng.ts";
import { readMessage } from "./_prompt_readers/_prompt_text.ts";
import { readStagHuntView } from "./_prompt_readers/staghunt_reader.ts";
import { readBankView } from "./_prompt_readers/bank_run_reader.ts";

Deno.test("announcementLine() prints certified aggregates without the signers' or members' count", () => {
  assertEquals(
    announcementLine({
      from: "bank",
      kind: "aggregate_committed",
      content: { total: 5.604, signers: 6 },
    }),
    "from the institution: deposits committed under the protection agreement 5.604",
  );
  assertEquals(
    announcementLine({
      from: "coalition",
      kind: "coalition_total",
      content: { total: 3, members: 3 },
    }),
    "from the mutual statement group (after a member vote): group committed total 3.000",
  );
  assertEquals(
    debtLine({
      from: "borrower",
      kind: "aggregate_committed",
      content: { total: 4.1, signers: 4 },
    }),
    "- from the borrower: claims committed under the standstill agreement 4.100",
  );
  assertEquals(
    debtLine({ from: "coalition", kind: "coalition_total", content: { total: 2, members: 2 } }),
    "- from the creditor committee (after a member vote): committee total 2.000",
  );
  assertEquals(
    crowdLine({ from: "founder", kind: "aggregate_committed", content: { total: 7, signers: 7 } }),
    "- from the founder: pledges committed under the letter of intent 7.000",
  );
});

Deno.test("readMessage() reads a certified aggregate back as its total alone", () => {
  const words = {
    principal: { prefix: "from the institution", id: "bank" },
    outstanding: { marker: "total outstanding", kind: "outstanding_compensation", total: /(\d+)/ },
    terms: { marker: "accepted retention terms:", party: "depositor", each: /x/g },
    agreement: {
      marker: "committed under the protection agreement",
      total: /agreement (\d+(?:\.\d+)?)/,
    },
    coalition: {
      marker: "group committed total",
      kind: "coalition_total",
      total: /total (\d+(?:\.\d+)?)/,
    },
  };
  assertEquals(
    readMessage(
      "from the institution: deposits committed under the protection agreement 5.604",
      words,
    ),
    { from: "bank", kind: "aggregate_committed", content: { total: 5.604 } },
  );
  assertEquals(
    readMessage(
      "from the mutual statement group (after a member vote): group committed total 3.000",
      words,
    ),
    { from: "coalition", kind: "coalition_total", content: { total: 3 } },
  );
});

function twoRounds() {
  const params = stagHunt.parseParams({ N: 2, M: 2, T: 3, F: 0 });
  const s = initialStagHuntState(
    params,
    openStream({ seed: 1, round: 0, agent: "engine", purpose: "corrupted" }),
  );
  const turn = (agent: string, position: number, action: "Stag" | "Hare") => ({
    agent,
    position,
    corrupted: false,
    originalAction: action,
    publicAction: action,
    confidence: 0.9,
    originalJustification: "j",
    publicJustification: "j",
  });
  s.rounds.push({
    round: 1,
    turns: [turn("p01", 1, "Stag"), turn("p02", 2, "Stag")],
    outcome: { publicStag: 2, publicSuccess: true, preflipStag: 2, preflipSuccess: true },
  } as never);
  s.rounds.push({ round: 2, turns: [turn("p01", 1, "Hare")], outcome: null });
  s.round = 2;
  return s;
}

Deno.test("playerTurnPrompt prints announcements and reports only, and the server reads outcomes off the reports", () => {
  const view = playerView(twoRounds(), "p02");
  const [system, user] = playerTurnPrompt.render(view);
  assert(!user.content.includes("outcome") && !user.content.includes("coordination"), user.content);
  assert(
    user.content.includes(
      '[PUBLIC TRANSCRIPT]\nGame Master: round 1 begins.\n- p01 (speaker 1): Stag, confidence 0.9. "j"\n' +
        '- p02 (speaker 2): Stag, confidence 0.9. "j"\nGame Master: round 2 begins.\n' +
        '- p01 (speaker 1): Hare, confidence 0.9. "j"',
    ),
    user.content,
  );
  const read = readStagHuntView(system.content, user.content);
  assertEquals(read.transcript.map((r) => r.outcome), view.transcript.map((r) => r.outcome));
  assertEquals(read.transcript[0].outcome, { stag: 2, success: true });
});

Deno.test("the bank's prompts state the depositors' terms in the third person, and read back", () => {
  const s = initialBankRunState(
    parseBankRunParams({}),
    "M1",
    openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }),
  );
  s.round = 1;
  for (const template of [bankRetentionOfferPrompt, bankProtectionSolicitationPrompt]) {
    const [system, user] = template.render(bankView(s));
    const params = system.content.slice(system.content.indexOf("[GAME PARAMETERS]"));
    assert(!/\byour?\b/i.test(params.slice(0, params.indexOf("[MECHANISM RULES]"))), params);
    assert(params.includes("- A deposit kept until the end pays 1.114 per unit"), params);
    assert(params.includes("requests beyond that expire unprocessed (the deposit stays)."), params);
    assertEquals(readBankView(system.content, user.content).parameters, bankView(s).parameters);
  }
});

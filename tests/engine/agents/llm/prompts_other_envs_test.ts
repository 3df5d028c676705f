import { assert, assertEquals } from "../../../_assert.ts";
import { creditorRedeemOrRollPrompt } from "../../../../engine/games/debt_rollover/prompts/creditor_redeem_or_roll.ts";
import { creditorMechanismResponsePrompt } from "../../../../engine/games/debt_rollover/prompts/creditor_mechanism_response.ts";
import { backerPledgePrompt } from "../../../../engine/games/crowdfunding/prompts/backer_pledge.ts";
import { backerCoalitionResponsePrompt } from "../../../../engine/games/crowdfunding/prompts/backer_coalition_response.ts";
import { backerExitConfirmationPrompt } from "../../../../engine/games/crowdfunding/prompts/backer_exit_confirmation.ts";
import { founderLaunchDecisionPrompt } from "../../../../engine/games/crowdfunding/prompts/founder_launch_decision.ts";
import { playerTurnPrompt } from "../../../../engine/games/staghunt/prompts/player_turn.ts";
import { missingTemplates, promptSet } from "../../../../engine/agents/llm/prompts/registry.ts";
import { creditorView } from "../../../../engine/games/debt_rollover/views.ts";
import { initialDebtRolloverState } from "../../../../engine/games/debt_rollover/state.ts";
import {
  DEBT_ROLLOVER_REGIMES,
  parseDebtRolloverParams,
} from "../../../../engine/games/debt_rollover/params.ts";
import { debtRollover } from "../../../../engine/games/debt_rollover/environment.ts";
import {
  backerView,
  exitConfirmationView,
  founderView,
} from "../../../../engine/games/crowdfunding/views.ts";
import { initialCrowdfundingState } from "../../../../engine/games/crowdfunding/state.ts";
import { parseCrowdfundingParams } from "../../../../engine/games/crowdfunding/params.ts";
import { crowdfunding } from "../../../../engine/games/crowdfunding/environment.ts";
import { stagHunt } from "../../../../engine/games/staghunt/environment.ts";
import { bankRun } from "../../../../engine/games/bank_run/environment.ts";
import { playerView } from "../../../../engine/games/staghunt/views.ts";
import { initialStagHuntState } from "../../../../engine/games/staghunt/state.ts";
import { openStream } from "../../../../engine/core/rng.ts";
import { readBackerView } from "./_prompt_readers/crowdfunding_reader.ts";
import { here } from "./_helpers.ts";

const print = (messages: { content: string }[]) =>
  `===SYSTEM===\n${messages[0].content}\n\n===USER===\n${messages[1].content}\n`;

/** Blocks of a prompt whose blocks follow each other without blank lines. */
function blocks(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const chunk of text.split(/\n(?=\[[A-Z][A-Z -]+\])/)) {
    const header = chunk.match(/^\[([A-Z][A-Z -]+)\]/)?.[1];
    if (header) out.set(header, chunk.trim());
  }
  return out;
}

Deno.test("every environment's contracts have templates, for all three FRAIL games and the Stag Hunt", () => {
  const envs = {
    bank_run: bankRun,
    debt_rollover: debtRollover,
    crowdfunding,
    staghunt: stagHunt,
  };
  for (const [id, env] of Object.entries(envs)) {
    assertEquals(missingTemplates(env, promptSet(id)), [], id);
  }
});

Deno.test("creditorRedeemOrRollPrompt renders the complete G.2 debt-rollover M0 call character for character", async () => {
  const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M0");
  s.round = 1;
  const got = print(creditorRedeemOrRollPrompt.render(creditorView(s, "crd_01")));
  assertEquals(got, await Deno.readTextFile(here("fixtures/g2_debt_rollover_m0_creditor.txt")));
});

Deno.test("creditorRedeemOrRollPrompt states the regime's parameters", () => {
  const s = initialDebtRolloverState(
    parseDebtRolloverParams(DEBT_ROLLOVER_REGIMES.expansion),
    "M0",
  );
  s.round = 1;
  const [system, user] = creditorRedeemOrRollPrompt.render(creditorView(s, "crd_01"));
  assert(
    system.content.includes("- Cash earns 0.005 per round. Initial cash is 0.500."),
    system.content,
  );
  assert(user.content.includes("Cash L = 0.500."));
});

Deno.test("creditorMechanismResponsePrompt shows an M1 offer in the G.3 [OFFER] format", () => {
  const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M1");
  s.round = 1;
  s.m1!.offers.push({
    id: "m1_t1_crd_01",
    target: "crd_01",
    amount: 0.05,
    lockUntil: 4,
    round: 1,
    status: "pending",
  });
  s.m1!.offers.push({
    id: "m1_t1_crd_02",
    target: "crd_02",
    amount: 0.0777,
    lockUntil: 4,
    round: 1,
    status: "pending",
  });
  const user = creditorMechanismResponsePrompt.render(creditorView(s, "crd_01"))[1].content;
  assertEquals(blocks(user).get("OFFER"), "[OFFER]\n- m1_t1_crd_01: amount 0.050, lock_until 4");
  assert(
    !user.includes("0.078") && !user.includes("m1_t1_crd_02"),
    "another creditor's offer leaked",
  );
});

Deno.test("a creditor's prompt shows the disclosed books, not the live ones, and no committee to outsiders", () => {
  const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M3");
  s.round = 2;
  s.cash = 0.4242;
  s.m3!.members.push({ id: "crd_02", since: 1, amount: 1.0404 });
  const outsider = creditorRedeemOrRollPrompt.render(creditorView(s, "crd_01")).map((m) =>
    m.content
  ).join("\n");
  for (const hidden of ["0.424", "1.040", "crd_02."]) assert(!outsider.includes(hidden), hidden);
  assert(outsider.includes("[COMMITTEE]\nYou are not a member; you may join this round."));
  const member = creditorRedeemOrRollPrompt.render(creditorView(s, "crd_02"))[1].content;
  assert(member.includes("[COMMITTEE -- members only]\n- id=crd_02. claim="), member);
});

Deno.test("backerPledgePrompt renders the complete G.2 crowdfunding M0 call character for character", async () => {
  const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M0");
  s.round = 1;
  const got = print(backerPledgePrompt.render(backerView(s, "bkr_01")));
  assertEquals(got, await Deno.readTextFile(here("fixtures/g2_crowdfunding_m0_backer.txt")));
});

Deno.test("the withdrawal-capacity bullet states the engine's rule, and the local server reads it back", () => {
  for (const capacityRule of ["expire", "partial"] as const) {
    const s = initialCrowdfundingState(parseCrowdfundingParams({ capacityRule }), "M0");
    s.round = 1;
    const v = backerView(s, "bkr_01");
    const [system, user] = backerPledgePrompt.render(v);
    assertEquals(
      system.content.includes("excess requests stay pledged this\n  round."),
      capacityRule === "expire",
      capacityRule,
    );
    assertEquals(system.content.includes("withdrawn in part"), capacityRule === "partial");
    assertEquals(readBackerView(system.content, user.content).parameters, v.parameters);
  }
});

Deno.test("backerCoalitionResponsePrompt renders the G.3 crowdfunding M3 member excerpt", async () => {
  const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M3");
  s.round = 1;
  s.backers[0].pledged = 1;
  s.backers[0].bank = 0;
  s.m3!.members.push({ id: "bkr_01", since: 1, amount: 1 });
  const [system, user] = backerCoalitionResponsePrompt.render(backerView(s, "bkr_01"));
  const excerpt = await Deno.readTextFile(here("fixtures/g3_crowdfunding_m3_member.txt"));
  const bullet = excerpt.slice(excerpt.indexOf("- A backer"), excerpt.indexOf("\n\n===USER==="));
  assert(system.content.endsWith(bullet), system.content);
  const want = blocks(excerpt.slice(excerpt.indexOf("[YOUR POSITION]")));
  const got = blocks(user.content);
  assertEquals(got.get("COALITION -- members only"), want.get("COALITION -- members only"));
  assertEquals(got.get("OUTPUT"), want.get("OUTPUT"));
  // The printed position lines appear in order (the excerpt omits the balance, round and history).
  const lines = got.get("YOUR POSITION")!.split("\n");
  const printed = want.get("YOUR POSITION")!.split("\n").map((l) =>
    l.replace("Pledged: False", "Pledged: True") // the excerpt shows the state before the join's pledge
  );
  let at = -1;
  for (const l of printed) {
    const i = lines.indexOf(l, at + 1);
    assert(i > at, `"${l}" missing or out of order in:\n${lines.join("\n")}`);
    at = i;
  }
});

Deno.test("backerExitConfirmationPrompt names the hand, and founderLaunchDecisionPrompt the pool and the goal", () => {
  const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M3");
  s.round = 4;
  const user = backerExitConfirmationPrompt.render(exitConfirmationView(s, "bkr_03", 3))[1].content;
  assert(
    user.includes("This is confirmation hand 3 of 3.") &&
      user.includes('{"confirm": true or false'),
    user,
  );
  for (const b of s.backers) b.pledged = 1;
  const founder = founderLaunchDecisionPrompt.render(founderView(s))[1].content;
  assert(founder.includes("Pool P = 15.000 now. Launch allowed: True."), founder);
});

Deno.test("a backer's prompt shows the disclosed pool, not the live one, nor others' pledges", () => {
  const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M0");
  s.round = 2;
  s.backers[4].pledged = 1; // live pool 1, not yet disclosed
  s.backers[4].bank = 0;
  const text = backerPledgePrompt.render(backerView(s, "bkr_01")).map((m) => m.content).join("\n");
  assert(text.includes("P = 0.000.") && !text.includes("bkr_05"), text);
});

Deno.test("playerTurnPrompt renders the public transcript and never the original action of a corrupted report", () => {
  const params = stagHunt.parseParams({ N: 3, M: 2, T: 2, F: 1 });
  const s = initialStagHuntState(
    params,
    openStream({ seed: 1, round: 0, agent: "engine", purpose: "corrupted" }),
  );
  s.round = 1;
  s.rounds.push({ round: 1, turns: [], outcome: null });
  s.rounds[0].turns.push({
    agent: "p01",
    position: 1,
    corrupted: true,
    originalAction: "Stag",
    publicAction: "Hare",
    confidence: 0.8,
    originalJustification: "SECRET-ORIGINAL",
    publicJustification: "Hare is safer.",
  });
  const [system, user] = playerTurnPrompt.render(playerView(s, "p02"));
  assert(
    system.content.includes("at least M = 2 of the 3 public reports are Stag"),
    system.content,
  );
  assert(
    user.content.includes('- p01 (speaker 1): Hare, confidence 0.8. "Hare is safer."'),
    user.content,
  );
  assert(
    !user.content.includes("SECRET-ORIGINAL") && !user.content.includes("corrupt"),
    user.content,
  );
});

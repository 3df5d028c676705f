import { assert, assertEquals } from "../../../_assert.ts";
import { bankRunGame } from "../../../../engine/games/bank_run/descriptor.ts";
import { frailSetup } from "../../../../engine/frail/descriptor.ts";
import { depositorWithdrawalPrompt } from "../../../../engine/games/bank_run/prompts/depositor_withdrawal.ts";
import { depositorMechanismResponsePrompt } from "../../../../engine/games/bank_run/prompts/depositor_mechanism_response.ts";
import { bankRetentionOfferPrompt } from "../../../../engine/games/bank_run/prompts/bank_retention_offer.ts";
import { bankProtectionSolicitationPrompt } from "../../../../engine/games/bank_run/prompts/bank_protection_solicitation.ts";
import { findTemplate } from "../../../../engine/agents/llm/prompts/template.ts";
import { missingTemplates, promptSet } from "../../../../engine/agents/llm/prompts/registry.ts";
import { bankView, depositorView } from "../../../../engine/games/bank_run/views.ts";
import { type BankRunState, initialBankRunState } from "../../../../engine/games/bank_run/state.ts";
import { BANK_RUN_REGIMES, parseBankRunParams } from "../../../../engine/games/bank_run/params.ts";
import { bankRun } from "../../../../engine/games/bank_run/environment.ts";
import { openStream } from "../../../../engine/core/rng.ts";
import { playEpisode } from "../../../../engine/core/episode.ts";
import type { CallRequest } from "../../../../engine/core/environment.ts";
import { mockPopulation } from "../../../../engine/agents/mock/population.ts";
import { type MechanismId, MECHANISMS } from "../../../../engine/frail/types.ts";
import { readDepositorView } from "./_prompt_readers/bank_run_reader.ts";
import { here } from "./_helpers.ts";

function state(mechanism: MechanismId, params: object = {}): BankRunState {
  return initialBankRunState(
    parseBankRunParams(params),
    mechanism,
    openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }),
  );
}

const print = (messages: { content: string }[]) =>
  `===SYSTEM===\n${messages[0].content}\n\n===USER===\n${messages[1].content}\n`;

/** Blocks of a prompt by their [HEADER]. */
function blocks(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const chunk of text.split(/\n\n(?=\[)/)) {
    const header = chunk.match(/^\[([A-Z -]+)\]/)?.[1];
    if (header) out.set(header, chunk.trim());
  }
  return out;
}

Deno.test("depositorWithdrawalPrompt renders the complete G.2 bank-run M0 call character for character", async () => {
  const s = state("M0");
  s.depositors[0].balance = 0.902; // the paper's dep_01 (a heterogeneous split)
  const got = print(depositorWithdrawalPrompt.render(depositorView(s, "dep_01")));
  const want = await Deno.readTextFile(here("fixtures/g2_bank_run_m0_depositor.txt"));
  assertEquals(got, want);
});

Deno.test("depositorMechanismResponsePrompt renders the G.3 M3 member blocks as printed", async () => {
  const s = state("M3");
  s.round = 1;
  s.depositors[0].balance = 0.902;
  s.m3!.members.push({ id: "dep_01", since: 1, amount: 0.902 });
  s.m3!.ritual = { opened: 1, wave: 0, list: ["dep_01"] };
  const [system, user] = depositorMechanismResponsePrompt.render(depositorView(s, "dep_01"));
  const want = blocks(
    (await Deno.readTextFile(here("fixtures/g3_bank_run_m3_member.txt"))).replace(
      "===USER=== (excerpt)\n",
      "",
    ),
  );
  const sys = blocks(system.content);
  const usr = blocks(user.content);
  assertEquals(sys.get("COMMITMENT SEMANTICS"), want.get("COMMITMENT SEMANTICS"));
  assertEquals(sys.get("MECHANISM RULES"), want.get("MECHANISM RULES"));
  assertEquals(usr.get("THIS ROUND PROPOSALS"), want.get("THIS ROUND PROPOSALS"));
  assertEquals(usr.get("OUTPUT CONTRACT"), want.get("OUTPUT CONTRACT"));
  // The shared blocks are G.2's, in G.2's order, then the mechanism blocks.
  assertEquals([...sys.keys()], [
    "ROLE",
    "GAME PARAMETERS",
    "COMMITMENT SEMANTICS",
    "MECHANISM RULES",
  ]);
  assertEquals([...usr.keys()], [
    "PROFILE",
    "INSTITUTION STATE",
    "LAST ROUND ACTIVITY",
    "INTERPRETATION REMINDERS",
    "TASK",
    "THIS ROUND PROPOSALS",
    "OUTPUT CONTRACT",
  ]);
});

Deno.test("depositorWithdrawalPrompt adds the binding semantics and mechanism rules under M1-M3 only", () => {
  for (const m of MECHANISMS) {
    const [system, user] = depositorWithdrawalPrompt.render(depositorView(state(m), "dep_01"));
    const sys = blocks(system.content);
    assertEquals(sys.get("COMMITMENT SEMANTICS")!.includes("is binding"), m !== "M0", m);
    assertEquals(sys.has("MECHANISM RULES"), m !== "M0", m);
    assertEquals(blocks(user.content).has("THIS ROUND PROPOSALS"), m !== "M0", m);
    assert(
      !user.content.includes("awaiting your response"),
      "proposals are answered in the response call",
    );
  }
});

Deno.test("depositorWithdrawalPrompt states the regime's parameters and the disclosed balance sheet", () => {
  const s = state("M0", BANK_RUN_REGIMES.contraction);
  s.disclosed = {
    ...s.disclosed,
    cash: 0.25,
    assets: 12.5,
    depositsRemaining: 11,
    fractionRedeemed: 0.2,
  };
  const [system, user] = depositorWithdrawalPrompt.render(depositorView(s, "dep_02"));
  for (
    const line of ["return 1.080 per unit", "fetch only 0.750 per unit", "liquidated at 0.750"]
  ) {
    assert(system.content.includes(line), line);
  }
  for (
    const line of [
      "reserves (as of the end of last round): 0.250",
      "assets (as of the end of last round): 12.500",
      "remaining (as of the end of last round): 11.000",
      "redeemed last round: 0.200",
      "Depositor ID: dep_02",
    ]
  ) {
    assert(user.content.includes(line), line);
  }
});

Deno.test("a depositor's prompt holds what its view shows and nothing the view hides", () => {
  // Canaries: values present in the state but outside dep_01's view.
  const s = state("M3");
  s.round = 7;
  s.cash = 0.4242; // live cash; depositors see the end-of-last-round disclosure
  s.disclosed = { ...s.disclosed, cash: 0.9191 };
  s.depositors[1].balance = 0.777; // dep_02, a member
  s.m3!.members.push({ id: "dep_02", since: 2, amount: 0.777 });
  s.m3!.votes.push({
    id: "v_dep_02",
    proposer: "dep_02",
    announceTo: "all",
    round: 6,
    supporters: ["dep_02"],
    opponents: [],
    status: "open",
  });
  const outsider = depositorView(s, "dep_01");
  const member = depositorView(s, "dep_02");
  for (const t of [depositorWithdrawalPrompt, depositorMechanismResponsePrompt]) {
    const text = t.render(outsider).map((m) => m.content).join("\n");
    for (
      const hidden of ["0.424", "0.777", "dep_02", "v_dep_02", "round 7", "7 rounds", "12 rounds"]
    ) {
      assert(!text.includes(hidden), `${t.call}: "${hidden}" leaked into an outsider's prompt`);
    }
    assert(text.includes("0.919"), "the disclosed cash is shown");
    const own = t.render(member).map((m) => m.content).join("\n");
    assert(
      own.includes("dep_02=0.777") && own.includes("v_dep_02"),
      "members see member-only information",
    );
  }
});

Deno.test("a prompt depends on the view's data alone: a JSON copy of the view renders the same messages", () => {
  const s = state("M1");
  s.round = 3;
  s.m1!.offers.push({
    id: "m1_dep_02",
    target: "dep_02",
    amount: 0.0613,
    lockUntil: 9,
    round: 3,
    status: "pending",
  });
  const v1 = depositorView(s, "dep_01");
  const text = JSON.stringify(depositorMechanismResponsePrompt.render(v1));
  assert(
    !text.includes("0.061") && !text.includes("m1_dep_02"),
    "another depositor's offer leaked",
  );
  const roundTrip = JSON.parse(JSON.stringify(v1));
  assertEquals(
    depositorMechanismResponsePrompt.render(roundTrip),
    depositorMechanismResponsePrompt.render(v1),
  );
  const v2 = depositorView(s, "dep_02");
  const own = JSON.stringify(depositorMechanismResponsePrompt.render(v2));
  assert(
    own.includes(
      "m1_dep_02: paid retention offer, compensation 0.061; accepting locks you in for 7 rounds, this round included",
    ),
    own,
  );
});

Deno.test("bank prompts show the books, every active depositor and the commitments, locks as rounds left", () => {
  const s = state("M1");
  s.round = 4;
  s.m1!.offers.push({
    id: "m1_dep_03",
    target: "dep_03",
    amount: 0.03,
    lockUntil: 12,
    round: 2,
    status: "accepted",
  });
  const user = bankRetentionOfferPrompt.render(bankView(s))[1].content;
  for (
    const line of [
      "- dep_03: balance 1.000, committed",
      "- dep_04: balance 1.000, not committed",
      "- Outstanding promised compensation (now): 0.030",
      "- Accepted retention offers: dep_03 compensation 0.030, locked for 9 rounds including this one",
      '"lock_rounds": <rounds>',
    ]
  ) {
    assert(user.includes(line), line);
  }
  assert(!user.includes("[ROUND]") && !user.includes("round 4"), user);
  const s2 = state("M2");
  s2.round = 2;
  s2.m2!.signers.push({ id: "dep_05", since: 1, exitDeclared: 2 });
  const user2 = bankProtectionSolicitationPrompt.render(bankView(s2))[1].content;
  assert(
    user2.includes("- Signers: dep_05 (exit declared)") && user2.includes('"disclose_aggregate"'),
    user2,
  );
});

Deno.test("every call of M0-M3 mock episodes renders with its template, with no missing value in the text", async () => {
  assertEquals(missingTemplates(bankRun, promptSet("bank_run")), []);
  let rendered = 0;
  for (const mechanism of MECHANISMS) {
    await playEpisode(bankRun, {
      ...frailSetup(bankRunGame, { mechanism, regime: "stable" }),
      seed: 11,
      agents: (p) => {
        const mock = mockPopulation({ seed: 11 })(p);
        return {
          policy: mock.policy,
          decide(req: CallRequest) {
            const t = findTemplate(promptSet("bank_run"), req.role, req.call)!;
            const text = t.render(req.view as never).map((m) => m.content).join("\n");
            for (const bad of ["undefined", "NaN", "[object Object]", "null"]) {
              assert(!text.includes(bad), `${req.call} prompt contains "${bad}"`);
            }
            rendered++;
            return mock.decide(req);
          },
        };
      },
    });
  }
  assert(rendered > 500, `only ${rendered} prompts rendered`);
});

Deno.test("the capacity bullet states the engine's rule, and the local server reads the rule back", () => {
  for (const capacityRule of ["expire", "partial"] as const) {
    const [system, user] = depositorWithdrawalPrompt.render(
      depositorView(state("M0", { capacityRule }), "dep_01"),
    );
    const params = blocks(system.content).get("GAME PARAMETERS")!;
    assertEquals(
      params.includes("requests beyond that expire unprocessed (your deposit stays)."),
      capacityRule === "expire",
      capacityRule,
    );
    assertEquals(params.includes("is paid in part"), capacityRule === "partial", capacityRule);
    assertEquals(
      readDepositorView(system.content, user.content).parameters,
      depositorView(state("M0", { capacityRule }), "dep_01").parameters,
    );
  }
});

// Canary test of Appendix F: "bank-run agents are told neither the round number nor the
// horizon". Episodes with a 53-round horizon under M0-M3 exercise every bank-run call (offers
// made, accepted and disclosed with their locks; agreements signed and left; a coalition that
// votes, discloses and runs its exit ritual; requests that expire at capacity). Every call's view
// and prompt, the bank's and every depositor's, is checked for the integers 16-60: each round
// number from 16 on, the horizon 53 and any absolute lock end would be one of them, and nothing
// else in a bank-run prompt is (counts stay at or below 15, percentages are marked %, amounts
// have decimals). The bank has calls only under M1-M2; its view and both of its prompts are also
// rendered from every round's end state under M0-M3.
import { bankRunGame } from "../../../../engine/games/bank_run/descriptor.ts";
import { frailSetup } from "../../../../engine/frail/descriptor.ts";
import { assert, assertEquals } from "../../../_assert.ts";
import { playEpisode } from "../../../../engine/core/episode.ts";
import type { CallRequest } from "../../../../engine/core/environment.ts";
import { bankRun } from "../../../../engine/games/bank_run/environment.ts";
import type { BankRunState } from "../../../../engine/games/bank_run/state.ts";
import { bankView } from "../../../../engine/games/bank_run/views.ts";
import { findTemplate } from "../../../../engine/agents/llm/prompts/template.ts";
import { promptSet } from "../../../../engine/agents/llm/prompts/registry.ts";
import { MECHANISMS } from "../../../../engine/frail/types.ts";
import { idx, scripted } from "../../games/bank_run/_agents.ts";
import { watched } from "../../frail/_scripted.ts";

const HORIZON = 53;

/** Integers 16-60 standing alone (not part of a decimal, an id's digits or a percentage). */
function canaries(text: string): string[] {
  return [...text.matchAll(/(?<![\d.])(\d+)(?![\d%]|\.\d)/g)].map((m) => m[1])
    .filter((n) => Number(n) >= 16 && Number(n) <= 60);
}

/** A script that uses every mechanism feature over a long episode, without running the bank. */
function script(req: CallRequest): unknown {
  const i = idx(req.agent);
  const t = req.round;
  switch (req.call) {
    case "retention_offer": {
      const v = req.view as { depositors: { id: string; committed: boolean }[] };
      const open = v.depositors.filter((d) => !d.committed);
      return {
        offers: open.map((d) => ({ target: d.id, amount: 0.002, lock_rounds: 7 })),
        disclose_terms_to: "all",
      };
    }
    case "protection_solicitation":
      return { solicit: ["all"], disclose_aggregate: true };
    case "mechanism_response": {
      const v = req.view as { proposals: { id: string; kind: string }[] };
      const actions: unknown[] = v.proposals.map((p) => ({
        action: i % 2 === 1 ? (p.kind === "retention_offer" ? "accept" : "sign") : "decline",
        proposal_id: p.id,
      }));
      if (t === 30 && i === 3) actions.push({ action: "exit" }); // M2 exit, then re-signs
      if (t >= 17 && i <= 8) actions.push({ action: "join" }); // M3, refused once a member
      if (t === 20 && i === 1) {
        actions.push({ action: "propose_announcement_vote", announce_to: "all" });
      }
      if (t === 21 && i <= 8) actions.push({ action: "vote", vote_id: "v_dep_01", support: true });
      if (t === 25 && i === 5) actions.push({ action: "exit_request" });
      return { proposal_actions: actions };
    }
    case "withdrawal":
      // Five requests in round 18 (some expire at capacity); dep_05 leaves after its exit.
      return {
        withdraw_probability: (t === 18 && i >= 11) || (t === 31 && i === 5) ? 100 : 0,
      };
  }
  return undefined;
}

/** The script's reply with an empty reasoning, so no reply needs a correction. */
function withReasoning(req: CallRequest): unknown {
  const r = script(req);
  return r === undefined ? undefined : { reasoning: "", ...(r as object) };
}

Deno.test("no bank-run view or prompt, the bank's or a depositor's, under M0-M3 carries the round number or the horizon", async () => {
  const set = promptSet("bank_run");
  const bankTemplates = [
    findTemplate(set, "bank", "retention_offer")!,
    findTemplate(set, "bank", "protection_solicitation")!,
  ];
  const seen = new Map<string, number>();
  const leaks: string[] = [];
  for (const mechanism of MECHANISMS) {
    const played = await playEpisode(bankRun, {
      ...frailSetup(bankRunGame, { mechanism, regime: "stable", overrides: { horizon: HORIZON } }),
      seed: 5,
      hashes: true,
      agents: watched(scripted(withReasoning), (req) => {
        const json = JSON.stringify(req.view);
        const text = findTemplate(set, req.role, req.call)!.render(req.view as never)
          .map((m) => m.content).join("\n");
        const at = `${mechanism} round ${req.round} ${req.agent} ${req.call}`;
        // Collected, not thrown: the engine turns an agent's exception into a correction.
        if (/"(round|horizon|lockUntil)"/.test(json)) leaks.push(`${at}: view field in ${json}`);
        for (const n of canaries(json)) leaks.push(`${at}: ${n} in the view ${json}`);
        for (const n of canaries(text)) leaks.push(`${at}: ${n} in the prompt\n${text}`);
        const key = `${mechanism} ${req.role} ${req.call}`;
        seen.set(key, (seen.get(key) ?? 0) + (req.round >= 16 ? 1 : 0));
      }),
    });
    assertEquals(leaks, [], mechanism);
    assertEquals(
      played.events.filter((e) => e.type === "agent_error" || e.type === "correction"),
      [],
      `${mechanism}: every scripted reply was valid`,
    );
    assert(played.outcome.success, `${mechanism}: the bank survives all ${HORIZON} rounds`);
    assertEquals(played.outcome.rounds, HORIZON);
    for (const e of played.events) {
      if (e.type !== "checkpoint") continue;
      const v = bankView(e.state as BankRunState);
      assertEquals(canaries(JSON.stringify(v)), [], `${mechanism} round ${e.round}: bank view`);
      for (const t of bankTemplates) {
        const text = t.render(v).map((m) => m.content).join("\n");
        assertEquals(canaries(text), [], `${mechanism} round ${e.round}: ${t.call}\n${text}`);
      }
    }
    // The episode exercised what could leak a round: accepted and disclosed offers, signers and
    // exits, a passed vote announced to outsiders, an exit ritual, expired requests.
    const kinds = new Set(
      played.events.map((e) =>
        `${e.type}:${"kind" in e ? e.kind : ""}${"action" in e ? e.action : ""}`
      ),
    );
    const expected: Record<string, string[]> = {
      M0: ["transition:request_expired"],
      M1: ["mechanism:accept", "message:accepted_terms"],
      M2: ["mechanism:sign", "mechanism:exit_declared", "message:aggregate_committed"],
      M3: ["mechanism:vote_result", "message:coalition_total", "mechanism:exit_confirmed"],
    };
    for (const k of expected[mechanism]) assert(kinds.has(k), `${mechanism}: no ${k}`);
  }
  // Every call kind was asked at rounds 16 and later.
  for (
    const key of [
      "M0 depositor withdrawal",
      "M1 bank retention_offer",
      "M1 depositor mechanism_response",
      "M2 bank protection_solicitation",
      "M2 depositor mechanism_response",
      "M3 depositor mechanism_response",
      "M3 depositor withdrawal",
    ]
  ) {
    assert((seen.get(key) ?? 0) > 0, `${key} was never asked after round 15`);
  }
});

Deno.test("the canary scan finds round numbers the way a leak would print them", () => {
  assertEquals(canaries("This is round 37. lock_until 45; m1_t37_dep_01; 53 rounds"), [
    "37",
    "45",
    "37",
    "53",
  ]);
  assertEquals(canaries("15 depositors, 15.000, 0.370, 1.037, 50% support, reported 100"), []);
});

// Canary test of what the crowdfunding founder may see (§3.2). Under M0 agents "cannot observe
// other agents' individual actions"; under M3 membership and members' positions stay inside the
// coalition and only a total that the members vote to disclose reaches an outsider; under M1-M2
// the founder sees what its own agreements certify. In the episodes below, bkr_01-bkr_06 commit
// in round 1 (accept, sign or join; under M0 they simply pledge) and bkr_07-bkr_14 pledge, so the
// pool is 14.000 and the founder is asked to launch; it declines in rounds 1 and 2. Under M3 four
// of the six members vote in round 2 to tell everyone the locked total, 6.000.
import { crowdfundingGame } from "../../../../engine/games/crowdfunding/descriptor.ts";
import { frailSetup } from "../../../../engine/frail/descriptor.ts";
import { assert, assertEquals } from "../../../_assert.ts";
import { playEpisode } from "../../../../engine/core/episode.ts";
import type { CallRequest } from "../../../../engine/core/environment.ts";
import { crowdfunding } from "../../../../engine/games/crowdfunding/environment.ts";
import type { CrowdfundingState } from "../../../../engine/games/crowdfunding/state.ts";
import { type FounderView, founderView } from "../../../../engine/games/crowdfunding/views.ts";
import { findTemplate } from "../../../../engine/agents/llm/prompts/template.ts";
import { promptSet } from "../../../../engine/agents/llm/prompts/registry.ts";
import { MECHANISMS } from "../../../../engine/frail/types.ts";
import { idx, scripted } from "../../games/crowdfunding/_agents.ts";
import { watched } from "../../frail/_scripted.ts";

const FOUNDER_CALLS = ["launch_decision", "pledge_offer", "intent_solicitation"];
const mechanismCall: Record<string, string> = { M1: "pledge_offer", M2: "intent_solicitation" };

function script(req: CallRequest): unknown {
  const i = idx(req.agent);
  const reply = (r: Record<string, unknown>) => ({ reasoning: "", ...r });
  switch (req.call) {
    case "pledge":
      return reply({ pledge_probability: req.round === 1 && i <= 14 ? 100 : 0 });
    case "pledge_offer": {
      const v = req.view as FounderView;
      const targets = req.round === 1 ? v.backers : [];
      return reply({
        offers: targets.map((id) => ({ target: id, amount: 0.01, lock_until: 9 })),
        disclose_terms_to: "none",
      });
    }
    case "intent_solicitation":
      return reply({ solicit: req.round === 1 ? ["all"] : [], disclose_aggregate: false });
    case "mechanism_response": {
      const v = req.view as { proposals: { id: string; kind: string }[] };
      return reply({
        proposal_actions: v.proposals.map((p) => ({
          action: i <= 6 ? (p.kind === "paid_pledge" ? "accept" : "sign") : "decline",
          proposal_id: p.id,
        })),
      });
    }
    case "coalition_response":
      return reply({
        join: req.round === 1 && i <= 6,
        exit_request: false,
        vote: req.round === 2 && i <= 4 ? { announce_to: "all" } : null,
      });
    case "launch_decision":
      return reply({ launch: false });
  }
  return undefined;
}

/** The founder's rendered prompts for a view: every founder call's template. */
function founderPrompts(v: FounderView): string {
  const set = promptSet("crowdfunding");
  return FOUNDER_CALLS.map((call) =>
    findTemplate(set, "founder", call)!.render(v as never).map((m) => m.content).join("\n")
  ).join("\n");
}

Deno.test("no founder view or prompt under M0 or M3 names a backer, its position or its membership; M1-M2 show only what the agreements certify", async () => {
  for (const mechanism of MECHANISMS) {
    const views: { round: number; view: FounderView; call: string | null }[] = [];
    const played = await playEpisode(crowdfunding, {
      ...frailSetup(crowdfundingGame, { mechanism, regime: "stable" }),
      seed: 4,
      hashes: true,
      agents: watched(scripted(script), (req) => {
        if (req.role === "founder") {
          views.push({ round: req.round, view: req.view as FounderView, call: req.call });
        }
      }),
    });
    assertEquals(
      played.events.filter((e) => e.type === "agent_error" || e.type === "correction"),
      [],
      `${mechanism}: every scripted reply was valid`,
    );
    for (const e of played.events) {
      if (e.type === "checkpoint") {
        views.push({
          round: e.round,
          view: founderView(e.state as CrowdfundingState),
          call: null,
        });
      }
    }
    const launchCalls = views.filter((v) => v.call === "launch_decision");
    assert(launchCalls.length >= 2, `${mechanism}: the founder was asked to launch`);
    assertEquals(launchCalls[0].view.pool, 14, `${mechanism}: the pool is public`);
    for (const { round, view, call } of views) {
      const at = `${mechanism} round ${round} ${call ?? "end state"}`;
      const json = JSON.stringify(view);
      const text = founderPrompts(view);
      assert(!/"(pledged|committed|members?)"/.test(json), `${at}: per-backer field in ${json}`);
      assert(!/bkr_\d+\S*\s+(pledged|committed|not committed|member)/.test(text), `${at}: ${text}`);
      if (mechanism === "M0" || mechanism === "M3") {
        assert(!json.includes("bkr_"), `${at}: a backer id in the view ${json}`);
        assert(!text.includes("bkr_"), `${at}: a backer id in the prompt\n${text}`);
        assertEquals(view.committedTotal, null, at);
      }
      if (mechanism === "M3") {
        // The locked total (6.000 of the pool's 14.000) reaches the founder only by the round-2 vote.
        const told = round === 2; // the round-2 inbox, at the launch call and at the end of the round
        assertEquals(text.includes("6.000"), told, `${at}: the locked total\n${text}`);
        if (told) {
          assert(
            text.includes(
              "- from the backer coalition (after a member vote): coalition locked total 6.000",
            ),
            text,
          );
        }
      }
      if (
        (mechanism === "M1" || mechanism === "M2") && call !== mechanismCall[mechanism] && round < 9
      ) {
        // What the agreements certify (after the round-1 proposals were answered): who committed,
        // bkr_01-bkr_06, and the total committed (refunded at the end of round 9).
        assertEquals(view.committedTotal, 6, at);
        const parties = mechanism === "M1"
          ? view.acceptedOffers.map((o) => o.target)
          : view.signers.map((s) => s.id);
        assertEquals(parties, ["bkr_01", "bkr_02", "bkr_03", "bkr_04", "bkr_05", "bkr_06"], at);
      }
    }
  }
});

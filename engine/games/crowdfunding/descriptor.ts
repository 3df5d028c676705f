/**
 * Reward crowdfunding as a game: roles, mock policies, Table 5 presets, and
 * the quantities the analysis needs from resolved parameters.
 *
 * Derived quantities (logged in `episode_start.derived`):
 * - `bounds`: Appendix D.3 (15.450 / 22.802 in the stable regime);
 * - `funding`: the backers' total unit pledges n u, the denominator of shares;
 * - `central_best`: the founder's payoff in the best case, the margin share
 *   m / (v + m) of W_best;
 * - `goal`: the funding goal G;
 * - `reference`: the goal as Figure 4's horizontal line on the pledged pool.
 *
 * @module
 */
import { type FrailGame, frailGameDescriptor } from "../_frail_game.ts";
import { CROWDFUNDING_MEASURES } from "./measures.ts";
import { crowdfunding } from "./environment.ts";
import {
  BACKER_POLICIES,
  CROWDFUNDING_MOCK_POLICIES,
  CROWDFUNDING_MOCK_PRESETS,
  crowdfundingMockPopulation,
  FOUNDER_POLICIES,
} from "./mock.ts";
import { crowdfundingPrompts } from "./prompts/mod.ts";
import { CROWDFUNDING_REGIMES, crowdfundingBounds, type CrowdfundingParams } from "./params.ts";
import { FOUNDER_ID } from "./state.ts";

export { BACKER_POLICIES, FOUNDER_POLICIES };

/**
 * The crowdfunding descriptor.
 *
 * @example
 * ```ts
 * import { crowdfundingGame } from "./descriptor.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * const d = crowdfundingGame.derive(parseCrowdfundingParams({ ...crowdfundingGame.regimes.expansion }));
 * if (d.goal !== 12 || d.reference.value !== 12 || d.funding !== 15) throw new Error();
 * ```
 */
export const crowdfundingGame: FrailGame<CrowdfundingParams, "crowdfunding"> = frailGameDescriptor({
  id: "crowdfunding",
  label: "Reward crowdfunding",
  environment: crowdfunding,
  roles: {
    central: { id: "founder", label: "Founder", player: FOUNDER_ID },
    participant: { id: "backer", label: "Backer" },
  },
  mockPolicies: CROWDFUNDING_MOCK_POLICIES,
  mockPopulation: crowdfundingMockPopulation,
  mockPresets: CROWDFUNDING_MOCK_PRESETS,
  measures: CROWDFUNDING_MEASURES,
  regimes: CROWDFUNDING_REGIMES,
  metrics: {
    financial: { id: "pool", label: "Pledged pool" },
    exit: null,
    launch: "launched",
  },
  referenceLine: { axis: "y", metric: "pool", label: "goal" },
  prompts: crowdfundingPrompts,
  derive(p) {
    const bounds = crowdfundingBounds(p);
    return {
      bounds,
      funding: p.backers * p.unitPledge,
      central_best: bounds.best * p.margin / (p.reward + p.margin),
      goal: p.goal,
      reference: { ...crowdfundingGame.referenceLine, value: p.goal },
    };
  },
});

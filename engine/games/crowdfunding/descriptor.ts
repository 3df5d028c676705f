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
import { MECHANISMS } from "../../frail/types.ts";
import {
  BACKER_POLICIES,
  CROWDFUNDING_MOCK_PRESETS,
  crowdfundingMockPopulation,
  FOUNDER_POLICIES,
} from "./mock.ts";
import {
  FRAIL_CONDITION_KEYS,
  FRAIL_DERIVED_KEYS,
  type FrailGameDescriptor,
  frailMockAgents,
  frailView,
} from "../../frail/descriptor.ts";
import { crowdfunding } from "./environment.ts";
import { CROWDFUNDING_MEASURES } from "./measures.ts";
import { CROWDFUNDING_REGIMES, crowdfundingBounds, type CrowdfundingParams } from "./params.ts";
import { FOUNDER_ID } from "./state.ts";

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
export const crowdfundingGame: FrailGameDescriptor<CrowdfundingParams, "crowdfunding"> = {
  id: "crowdfunding",
  game: "frail",
  label: "Reward crowdfunding",
  environment: crowdfunding,
  roles: {
    central: { id: "founder", label: "Founder", player: FOUNDER_ID },
    participant: { id: "backer", label: "Backer" },
  },
  mockPolicies: [
    { role: "backer", option: "backers", policies: BACKER_POLICIES },
    { role: "founder", option: "founder", policies: FOUNDER_POLICIES },
  ],
  mockAgents: (options) => frailMockAgents(crowdfundingGame, crowdfundingMockPopulation, options),
  mockPresets: CROWDFUNDING_MOCK_PRESETS,
  conditionKeys: FRAIL_CONDITION_KEYS,
  derivedKeys: FRAIL_DERIVED_KEYS,
  regimes: CROWDFUNDING_REGIMES,
  mechanisms: MECHANISMS,
  metrics: {
    financial: { id: "pool", label: "Pledged pool" },
    exit: null,
    launch: "launched",
  },
  view: frailView("pool"),
  measures: CROWDFUNDING_MEASURES,
  referenceLine: { axis: "y", metric: "pool", label: "goal" },
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
};

/**
 * The Stag Hunt paper's grid ("Be Careful Who You Trust", §4.4 and Appendix D),
 * for `deno task reproduce staghunt` and `deno task grid --spec`.
 *
 * - Base condition (deterministic inversion, fixed speaking order, homogeneous
 *   groups h1): the seven models of §4.4, each on every base point of
 *   `stagHuntGrid()`. §4.4 says the realised support "primarily includes"
 *   N in {2, 3, 5}, T in {1, 2, 4}, M in 1..N and F per N (N = 2: {0, 1};
 *   N = 3: {1, 2}; N = 5: {1, 2, 3, 4}); this grid reads that as the full
 *   factorial, 30 (N, M, F) cells x 3 horizons = 90 base points. The paper
 *   does not list the points it ran, so a cell it missed (or one it ran
 *   outside this support) cannot be known.
 * - Ablations (Appendix D): b3 (random public actions), h2 (round-robin over
 *   a pool by player index) and h3 (strong and weak models split between the
 *   corrupted and honest roles), on the same seeded subset of 50 base points,
 *   with the three models the paper names: gpt-5-mini, gpt-5.2-2025-12-11 and
 *   llama-3.1-8b. b3 runs each of them as a homogeneous group; h2's pool is
 *   the three in that order; h3 takes gpt-5.2-2025-12-11 as the strong model
 *   and llama-3.1-8b as the weak one, the strong one playing the corrupted
 *   players (the paper names the ablation, not the pair or the direction).
 *
 * Not printed by the paper, so chosen here: the seed (the paper says only
 * "the fixed seed"), and one episode per point and model. One episode is what
 * Table 1's count suggests: the expected honest turns with a prior public
 * report, over the 90 points with one episode for each of seven models, is
 * 2,849, against the 2,852 eligible observations §5.3 reports.
 *
 * Payoffs are the paper's (4, 2, 0, 2), the default.
 *
 * @module
 */

const BASE_MODELS = [
  "deepseek-v3.2-think",
  "ernie-5.0-thinking-preview",
  "glm-5",
  "gpt-5-mini",
  "gpt-5.2-2025-12-11",
  "kimi-k2.5",
  "llama-3.1-8b",
];
const ABLATION_MODELS = ["gpt-5-mini", "gpt-5.2-2025-12-11", "llama-3.1-8b"];
const SUBSET = { seed: 2026, ablationPoints: 50 };

export default {
  name: "paper-staghunt",
  seed: 2026,
  episodes: 1,
  blocks: [
    {
      game: "staghunt",
      paper: { ...SUBSET, include: ["base"] },
      agents: BASE_MODELS.map((model) => ({ model })),
    },
    {
      game: "staghunt",
      paper: { ...SUBSET, include: ["b3"] },
      agents: ABLATION_MODELS.map((model) => ({ model })),
    },
    {
      game: "staghunt",
      paper: { ...SUBSET, include: ["h2"] },
      agents: [{ models: { kind: "h2", pool: ABLATION_MODELS } }],
    },
    {
      game: "staghunt",
      paper: { ...SUBSET, include: ["h3"] },
      agents: [{
        models: {
          kind: "h3",
          strong: "gpt-5.2-2025-12-11",
          weak: "llama-3.1-8b",
          corrupted: "strong",
        },
      }],
    },
  ],
};

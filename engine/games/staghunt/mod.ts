/**
 * The iterated N-player Stag Hunt under corrupted public reports: game,
 * corruption modes, heterogeneity, belief rules, q*, turn records, metrics,
 * grid and runner.
 *
 * @module
 */
export * from "./payoffs.ts";
export * from "./params.ts";
export * from "./players.ts";
export * from "./corruption.ts";
export * from "./heterogeneity.ts";
export * from "./q_star.ts";
export * from "./state.ts";
export * from "./views.ts";
export * from "./contracts.ts";
export * from "./environment.ts";
export * from "./turns.ts";
export * from "./history.ts";
export * from "./beliefs/mod.ts";
export * from "./metrics/rounds.ts";
export * from "./metrics/choices.ts";
export * from "./metrics/calibration.ts";
export * from "./metrics/transcript.ts";
export * from "./metrics/benchmarks.ts";
export * from "./metrics/ols.ts";
export * from "./metrics/regression.ts";
export * from "./grid.ts";
export * from "./run.ts";
export * from "./mock.ts";
export * from "./descriptor.ts";

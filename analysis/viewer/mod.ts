/**
 * The episode viewer: read what the agents saw, said and did, round by
 * round, in a notebook ({@linkcode showEpisode}) and as a static site for a
 * whole run ({@linkcode writeRunSite}, or `deno task view runs/<run>`).
 *
 * @module
 */

export * from "./show_episode.ts";
export * from "./run_site.ts";
export * from "./show_diff.ts";

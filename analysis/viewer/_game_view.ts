// What the viewer asks a game's descriptor: how to show its episodes (see
// `GameView` in engine/core/game.ts). The viewer's renderers (one per kind
// of chart, one round summary, one index) read this data; none names a game.
//
// Choices:
// - The view comes from the descriptor of the episode's game id
//   (`episode_start.env`) in the registry; a log of a game this build does
//   not list, or a descriptor without a view, is shown by
//   `DEFAULT_GAME_VIEW`'s rules: every numeric disclosure metric by round.
// - The family label (page header, run index) comes from the first
//   registered game of the family that has a view; a family no such game
//   belongs to is named by its id.
// - What the viewer reads of the registry is plain data (`ViewedGame`), so
//   the site writer hands a snapshot to its worker threads: a game
//   registered at run time is shown the same way whether or not workers
//   write its pages.

import { DEFAULT_GAME_VIEW, type GameView } from "../../engine/core/game.ts";
import { GAMES } from "../../engine/games/registry.ts";

/** What the viewer reads of a registered game. */
export interface ViewedGame {
  /** Game id (`episode_start.env`). */
  id: string;
  /** Family id (`episode_start.game`). */
  game: string;
  /** Fields of its condition that identify it. */
  conditionKeys: readonly string[];
  /** Its view, if its descriptor has one. */
  view?: GameView;
}

/** The registered games, as the viewer reads them (plain data, for worker threads). */
export function viewedGames(): ViewedGame[] {
  return GAMES.map(({ id, game, conditionKeys, view }) => ({
    id,
    game,
    conditionKeys,
    ...(view === undefined ? {} : { view }),
  }));
}

/** The view of game `env` (an `episode_start.env`), of family `family`. */
export function gameView(
  env: string | null,
  family: string | null,
  games: readonly ViewedGame[] = GAMES,
): GameView {
  const view = games.find((g) => g.id === env)?.view;
  if (view !== undefined) return view;
  return {
    ...DEFAULT_GAME_VIEW,
    familyLabel: family === null ? "episode" : familyLabel(family, games),
  };
}

/** The display name of a family of games (`episode_start.game`), or its id when no game says. */
export function familyLabel(family: string, games: readonly ViewedGame[] = GAMES): string {
  return games.find((g) => g.game === family && g.view !== undefined)?.view?.familyLabel ??
    family;
}

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

import { DEFAULT_GAME_VIEW, type GameView } from "../../engine/core/game.ts";
import { GAMES } from "../../engine/games/registry.ts";

/** The view of game `env` (an `episode_start.env`), of family `family`. */
export function gameView(env: string | null, family: string | null): GameView {
  const view = GAMES.find((g) => g.id === env)?.view;
  if (view !== undefined) return view;
  return { ...DEFAULT_GAME_VIEW, familyLabel: family === null ? "episode" : familyLabel(family) };
}

/** The display name of a family of games (`episode_start.game`), or its id when no game says. */
export function familyLabel(family: string): string {
  return GAMES.find((g) => g.game === family && g.view !== undefined)?.view?.familyLabel ?? family;
}

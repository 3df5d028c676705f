/**
 * Every game this build provides, one line each, and the games registered at
 * run time (`registerGame`). Runners, the replay, the grid and the analysis
 * find a game here by its id (`episode_start.env`), and read its display
 * labels, roles and condition keys from its descriptor.
 *
 * @module
 */
import type { Game } from "./game.ts";
import { bankRunGame } from "./bank_run/descriptor.ts";
import { debtRolloverGame } from "./debt_rollover/descriptor.ts";
import { crowdfundingGame } from "./crowdfunding/descriptor.ts";
import { stagHuntGame } from "./staghunt/descriptor.ts";
import { minEffortGame } from "./min_effort/descriptor.ts";

const BUILT_IN: readonly Game[] = [
  bankRunGame,
  debtRolloverGame,
  crowdfundingGame,
  stagHuntGame,
  minEffortGame,
] as unknown as readonly Game[];

const games: Game[] = [...BUILT_IN];

/**
 * All games: those of this build (the FRAIL environments in the paper's
 * order, then the Stag Hunt), then those registered with
 * {@linkcode registerGame}, in the order they were registered.
 *
 * @example
 * ```ts
 * import { GAMES } from "./registry.ts";
 * if (GAMES.slice(0, 4).map((g) => g.id).join() !== "bank_run,debt_rollover,crowdfunding,staghunt") throw new Error();
 * ```
 */
export const GAMES: readonly Game[] = games;

/** Options of {@linkcode registerGame}. */
export interface RegisterGameOptions {
  /** Replace the game already registered under this id (a test's variant of it). Default `false`. */
  replace?: boolean;
}

/**
 * Registers a game, so that `runEpisode({ game: id })`, the replay, the grid
 * (in this process; a grid's workers import the modules named in
 * `RunGridOptions.gameModules`) and the analysis play and read it. Its id
 * must be new unless `replace` is set; registering the same descriptor again
 * does nothing.
 *
 * @example
 * ```ts
 * import { gameDescriptor, registerGame } from "./registry.ts";
 * const bank = gameDescriptor("bank_run");
 * registerGame(bank); // the same descriptor again: nothing changes
 * try {
 *   registerGame({ ...bank });
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e as Error).message.startsWith('Game "bank_run" is already registered')) throw e;
 * }
 * ```
 * @throws {TypeError} For a descriptor without an id, `setup`, `mockAgents`, `episodeId` or prompt set.
 * @throws {RangeError} For an id already registered (without `replace`), or not a name.
 */
export function registerGame(game: Game, options: RegisterGameOptions = {}): void {
  for (const key of ["setup", "mockAgents", "episodeId", "derive"] as const) {
    if (typeof game?.[key] !== "function") {
      throw new TypeError(
        `Cannot register game "${game?.id}": its descriptor has no "${key}" function`,
      );
    }
  }
  if (!Array.isArray(game.prompts)) {
    throw new TypeError(`Cannot register game "${game.id}": its descriptor has no "prompts" list`);
  }
  if (typeof game.id !== "string" || !/^[a-z][a-z0-9_]*$/.test(game.id) || game.id === "branch") {
    throw new RangeError(
      `Cannot register game ${JSON.stringify(game.id)}: an id is lowercase letters, digits and ` +
        `underscores, starting with a letter (and not "branch")`,
    );
  }
  const at = games.findIndex((g) => g.id === game.id);
  if (at >= 0 && games[at] === game) return;
  if (at >= 0 && !options.replace) {
    throw new RangeError(
      `Game "${game.id}" is already registered: pick another id, or pass { replace: true }`,
    );
  }
  if (at >= 0) games[at] = game;
  else games.push(game);
}

/**
 * The descriptor of a game by id.
 *
 * @example
 * ```ts
 * import { gameDescriptor } from "./registry.ts";
 * if (gameDescriptor("staghunt").roles.central !== null) throw new Error();
 * ```
 * @throws {RangeError} For an unknown id, listing the known ones.
 */
export function gameDescriptor(id: string): Game {
  const game = games.find((g) => g.id === id);
  if (!game) {
    throw new RangeError(
      `Unknown game "${id}": this build provides ${games.map((g) => `"${g.id}"`).join(", ")}` +
        ` (a game of your own: registerGame)`,
    );
  }
  return game;
}

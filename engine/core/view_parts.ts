/**
 * Parts that many authorized views show alike, built once instead of once per
 * view: the game's parameters, the figures disclosed at the end of a round,
 * an empty list. Each is frozen, so no agent can change what another agent is
 * shown; and each is checked against its source every time it is handed out,
 * so a view never shows a stale value even when the state was edited in place
 * (a view built from a shared part is equal to one built from scratch).
 *
 * @module
 */

/**
 * A frozen empty list, for view fields with nothing to show. Its type is a
 * plain array, so it fits any list field of a view; pushing to it throws.
 *
 * @example
 * ```ts
 * import { EMPTY_LIST } from "./view_parts.ts";
 * if (EMPTY_LIST.length !== 0 || !Object.isFrozen(EMPTY_LIST)) throw new Error();
 * ```
 */
export const EMPTY_LIST: never[] = Object.freeze([]) as unknown as never[];

/**
 * A frozen part of a view made from a source object, kept for the next call:
 * it is handed out again while the source is the same object and `same`
 * says the part still shows its values, and made again otherwise. `make` and
 * `same` are written per part (rather than one loop over field names), so
 * each stays a fast, monomorphic function.
 *
 * @example
 * ```ts
 * import { SharedPart } from "./view_parts.ts";
 * type Books = { cash: number; assets: number; other: string };
 * const part = new SharedPart(
 *   (b: Books) => ({ cash: b.cash, assets: b.assets }),
 *   (p, b) => p.cash === b.cash && p.assets === b.assets,
 * );
 * const source = { cash: 1, assets: 2, other: "x" };
 * const a = part.of(source);
 * if (part.of(source) !== a || JSON.stringify(a) !== '{"cash":1,"assets":2}') throw new Error();
 * source.cash = 3;
 * if (part.of(source).cash !== 3 || !Object.isFrozen(a)) throw new Error();
 * ```
 */
export class SharedPart<S extends object, T extends object> {
  readonly #make: (source: S) => T;
  readonly #same: (part: T, source: S) => boolean;
  #source: S | undefined;
  #part: T | undefined;

  /**
   * @param make Builds the part from a source (a new object each time).
   * @param same Whether a part made earlier still shows what the source holds now.
   */
  constructor(make: (source: S) => T, same: (part: T, source: S) => boolean) {
    this.#make = make;
    this.#same = same;
  }

  /** The frozen part of `source`. */
  of(source: S): T {
    const part = this.#part;
    if (part !== undefined && this.#source === source && this.#same(part, source)) return part;
    const made = Object.freeze(this.#make(source));
    this.#source = source;
    this.#part = made;
    return made;
  }
}

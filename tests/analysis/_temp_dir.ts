// Test helper: temporary folders that are removed however the test ends.

import { makeTempDir } from "../_temp.ts";

/** Runs a test body in a temporary folder. */
export type TempDirRunner = (fn: (dir: string) => Promise<void>) => Promise<void>;

/** A runner that calls `fn` with a new temporary folder `<prefix>...`, then removes the folder. */
export function tempDirRunner(prefix: string): TempDirRunner {
  return async (fn) => {
    const dir = await makeTempDir({ prefix });
    try {
      await fn(dir);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  };
}

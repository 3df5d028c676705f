// Shared by the layout tests (block, delta, the Stag Hunt's checkpoints): the clock that wrote
// their fixtures, and the check that logs of two layouts load to the same frames.
import { assertEquals } from "../../_assert.ts";
import {
  type ChildFrameName,
  type LoadedFrames,
  loadRuns,
} from "../../../analysis/load/load_runs.ts";

/** A clock that moves 7 ms a read from 2026-12-01T12:00:00Z (the one that wrote the fixtures). */
export function perReadClock(): () => string {
  let n = 0;
  return () => new Date(Date.UTC(2026, 11, 1, 12) + 7 * n++).toISOString();
}

/**
 * Loads the folders `before` and `after` (strictly, the frames `frames`) and checks that every
 * frame asked has the same rows, and that the episodes frame differs only in hash columns (the
 * definition's id and hashes); returns what `after` loaded.
 */
export async function assertSameFrames<F extends ChildFrameName>(
  before: string,
  after: string,
  frames: readonly F[],
): Promise<LoadedFrames<F>> {
  const [a, b] = [
    await loadRuns(before, { frames: [...frames], strict: true }),
    await loadRuns(after, { frames: [...frames], strict: true }),
  ];
  for (const name of frames) assertEquals(b[name].toRecords(), a[name].toRecords(), name);
  const columns = a.episodes.columns.filter((c) => c !== "file");
  const differ = columns.filter((c) =>
    JSON.stringify(a.episodes.getColumn(c).toArray()) !==
      JSON.stringify(b.episodes.getColumn(c).toArray())
  );
  assertEquals(differ, differ.filter((c) => /hash/.test(c)));
  return b;
}

// The grid's and reproduce's watch on their launcher (engine/cli/_launcher_watch.ts): which
// processes watch, and when the watch fires. launcher_kill_long_test.ts kills a real launcher.
import { assertEquals, assertThrows } from "../../_assert.ts";
import {
  LAUNCHER_VARIABLE,
  launcherPid,
  watchLauncher,
} from "../../../engine/cli/_launcher_watch.ts";

const env = (value: string | undefined) => ({
  get: (name: string) => name === LAUNCHER_VARIABLE ? value : undefined,
});

Deno.test("launcherPid reads the launcher's pid; no variable, or no permission to read it, is no launcher", () => {
  assertEquals(launcherPid(env("4242")), 4242);
  assertEquals(launcherPid(env(undefined)), null);
  const denied = {
    get(): string {
      throw new Deno.errors.NotCapable(`Requires env access to "${LAUNCHER_VARIABLE}"`);
    },
  };
  assertEquals(launcherPid(denied), null);
  for (const bad of ["", "0", "-3", "12a", "1.5", " 12"]) {
    assertThrows(
      () => launcherPid(env(bad)),
      RangeError,
      `${LAUNCHER_VARIABLE} must be the launcher's pid`,
    );
  }
});

Deno.test("watchLauncher fires once, when the parent is no longer the launcher, and not after it is stopped", async () => {
  let parent = 100;
  const gone: number[] = [];
  const stop = watchLauncher((pid) => gone.push(pid), {
    pid: 100,
    parent: () => parent,
    everyMs: 5,
  });
  await new Promise((r) => setTimeout(r, 30));
  assertEquals(gone, [], "the launcher is still the parent");
  parent = 1; // handed to init: the launcher has ended
  await new Promise((r) => setTimeout(r, 30));
  parent = 7;
  await new Promise((r) => setTimeout(r, 30));
  assertEquals(gone, [100]);
  stop();

  // Stopped before the launcher ends: nothing fires.
  parent = 100;
  const none: number[] = [];
  const stop2 = watchLauncher((pid) => none.push(pid), {
    pid: 100,
    parent: () => parent,
    everyMs: 5,
  });
  stop2();
  parent = 1;
  await new Promise((r) => setTimeout(r, 30));
  assertEquals(none, []);

  // Not started by a launcher: no watch at all.
  const never: number[] = [];
  watchLauncher((pid) => never.push(pid), { pid: null, parent: () => 1 })();
  assertEquals(never, []);
});

Deno.test("watchLauncher fires at once when the launcher ended before the watch began", () => {
  const gone: number[] = [];
  const stop = watchLauncher((pid) => gone.push(pid), { pid: 100, parent: () => 1 });
  assertEquals(gone, [100]);
  stop();
});

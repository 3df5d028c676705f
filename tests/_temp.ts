// Test helper: the temporary folders and files of the tests.
//
// Each lies under one folder per test process (`coordlab-tests-...` in the
// system's temporary folder), which is removed when the process ends: deno
// test fires `unload` after the last test of a worker, failed or not, and so
// does `deno run` on a normal exit or `Deno.exit()`. Tests used to call
// Deno.makeTempDir() and leave about 90 folders (80 MB) behind on every
// `deno task test`; tests/temp_test.ts keeps them to this module.

let root: string | undefined;

/** The folder of this process's temporary folders, made on first use and removed at `unload`. */
export function testTempRoot(): string {
  if (root === undefined) {
    const made = Deno.makeTempDirSync({ prefix: "coordlab-tests-" });
    // Others may pass through, not list: a test that opens its own folder to
    // another user (slurm_long_test.ts's munge daemon) must be reachable.
    Deno.chmodSync(made, 0o711);
    globalThis.addEventListener("unload", () => {
      try {
        Deno.removeSync(made, { recursive: true });
      } catch (error) {
        console.error(`tests/_temp.ts: could not remove ${made}: ${error}`);
      }
    });
    root = made;
  }
  return root;
}

/** `Deno.makeTempDir()` under {@link testTempRoot} unless `options.dir` says where. */
export function makeTempDir(options: Deno.MakeTempOptions = {}): Promise<string> {
  return Deno.makeTempDir({ dir: testTempRoot(), ...options });
}

/** `Deno.makeTempFile()` under {@link testTempRoot} unless `options.dir` says where. */
export function makeTempFile(options: Deno.MakeTempOptions = {}): Promise<string> {
  return Deno.makeTempFile({ dir: testTempRoot(), ...options });
}

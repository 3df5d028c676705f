// What a command needs of Deno's permissions, checked before it starts: when
// something is missing, the command prints the exact narrow `deno run` line
// that grants it, instead of failing half-way or prompting.
import { relative } from "node:path";

/**
 * Where nodejs-polars' native addon lies: the toolkit's `node_modules`
 * (deno.json sets `nodeModulesDir`), relative to the working folder.
 */
export function addonFolder(): string {
  const path = new URL("../../node_modules", import.meta.url).pathname;
  return relative(Deno.cwd(), path) || path;
}

/** Permissions a command needs beyond reading. */
export interface Needs {
  /** Folders written (and created). */
  write: string[];
  /** Hosts reached (`host` or `host:port`). */
  net: string[];
  /** Environment variables read. */
  env: string[];
  /** `Deno.systemInfo` kinds (e.g. `"hostname"`). */
  sys: string[];
  /** The folder native addons are loaded from (nodejs-polars'), or `null` for none. */
  ffi: string | null;
}

/** The needs not granted, each as a few words. */
export function missingPermissions(needs: Needs): string[] {
  const q = (d: Deno.PermissionDescriptor) => Deno.permissions.querySync(d).state === "granted";
  return [
    ...needs.write.filter((path) => !q({ name: "write", path })).map((p) => `write to "${p}"`),
    ...needs.net.filter((host) => !q({ name: "net", host })).map((h) => `network access to ${h}`),
    ...needs.env.filter((variable) => !q({ name: "env", variable })).map((v) => `variable ${v}`),
    ...needs.sys.filter((kind) => !q({ name: "sys", kind: kind as "hostname" })).map((k) =>
      `system information "${k}"`
    ),
    ...(needs.ffi !== null && !q({ name: "ffi", path: needs.ffi })
      ? [`loading native addons from "${needs.ffi}" (ffi)`]
      : []),
  ];
}

/** The narrowest `deno run` flags that meet the needs (reading stays open). */
export function narrowFlags(needs: Needs): string[] {
  const list = (items: string[]) => [...new Set(items)].join(",");
  return [
    "--no-prompt",
    "--allow-read",
    ...(needs.write.length ? [`--allow-write=${list(needs.write)}`] : []),
    ...(needs.net.length ? [`--allow-net=${list(needs.net)}`] : []),
    ...(needs.env.length ? [`--allow-env=${list(needs.env)}`] : []),
    ...(needs.sys.length ? [`--allow-sys=${list(needs.sys)}`] : []),
    ...(needs.ffi !== null ? [`--allow-ffi=${needs.ffi}`] : []),
  ];
}

/** An argument as a POSIX shell reads it back: as is when safe, else single-quoted. */
export const quote = (a: string): string =>
  /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;

/**
 * Prints what is missing and the command to run instead, and returns
 * `false`, when a need is not granted; returns `true` otherwise.
 */
export function checkPermissions(needs: Needs, script: URL, args: readonly string[]): boolean {
  const missing = missingPermissions(needs);
  if (missing.length === 0) return true;
  const path = relative(Deno.cwd(), script.pathname) || script.pathname;
  console.error(
    `This command needs permissions it was not given: ${missing.join(", ")}. ` +
      `Run it with exactly what it needs:\n\n  deno run ${
        [...narrowFlags(needs), path, ...args].map(quote).join(" ")
      }\n`,
  );
  return false;
}

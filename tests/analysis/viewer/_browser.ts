// Headless Debian chromium for the viewer's browser tests (puppeteer-core, the
// system executable: no browser download), with the flags this closed
// network needs and a fresh profile per launch.
import puppeteer, { type Browser } from "npm:puppeteer-core@25.16.0";
import { makeTempDir } from "../../_temp.ts";

/** The browser's path: `COORDLAB_CHROMIUM`, else Debian's. */
export const CHROMIUM = Deno.env.get("COORDLAB_CHROMIUM") ?? "/usr/bin/chromium";

/** Whether the browser is installed (the tests are skipped, saying so, where it is not). */
export const hasBrowser = await Deno.stat(CHROMIUM).then((s) => s.isFile, () => false);

/**
 * How long a launch may take before it fails, in ms. A quiet machine starts
 * chromium in 0.2-0.4 s, but one launch in CI took 35 s, while the long group's
 * other tests were writing a 512 MiB log: the new profile's first writes
 * waited on the disk. Puppeteer's default of 30 s failed that run.
 */
export const LAUNCH_TIMEOUT_MS = 180_000;

/** Runs `fn` with a fresh headless browser, closed and its profile removed after. */
export async function withBrowser(fn: (browser: Browser) => Promise<void>): Promise<void> {
  const profile = await makeTempDir({ prefix: "viewer_chromium_" });
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    timeout: LAUNCH_TIMEOUT_MS,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${profile}`,
    ],
  });
  try {
    await fn(browser);
  } finally {
    await browser.close();
    await Deno.remove(profile, { recursive: true });
  }
}

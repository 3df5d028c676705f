// The diff page in a real browser (Debian's chromium via puppeteer-core, as
// browser_long_test.ts): a branch's page links to its parent and to the diff; the
// diff shows both episodes aligned by round, the first divergence open and
// anchored, hostile replies as text. Screenshot: screenshots/viewer/diff.png.

import { CHROMIUM, hasBrowser, withBrowser } from "./_browser.ts";
import { mockPopulation } from "../../../engine/agents/mock/population.ts";
import { branchEpisode } from "../../../engine/branch_episode.ts";
import { runEpisode } from "../../../engine/run_episode.ts";
import { writeRunSite } from "../../../analysis/viewer/run_site.ts";
import { writeDiffPage } from "../../../analysis/viewer/show_diff.ts";
import { assertEquals } from "../../_assert.ts";
import { tempDirRunner } from "../_temp_dir.ts";
import { HOSTILE, hostileFrail, hostileFrailEpisode, PARTICIPANTS } from "./_fixtures.ts";

if (!hasBrowser) {
  console.warn(`Skipping the diff page's browser test: no browser at ${CHROMIUM}`);
}
const SHOTS = new URL("../../../screenshots/viewer/", import.meta.url).pathname;
const inTempDir = tempDirRunner("viewer_diff_");
const clock = () => "2026-01-01T00:00:00.000Z";

Deno.test({
  name:
    "the diff page works in a real browser: branch and parent linked, first divergence, hostile text",
  ignore: !hasBrowser,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await inTempDir(async (dir) => {
      const run = "cf";
      const parent = await hostileFrailEpisode("bank_run", "M0", 0, { run, outDir: dir });
      const [insists, garbles] = PARTICIPANTS.bank_run;
      const branch = await branchEpisode(parent.events, {
        atRound: 3,
        change: { mechanism: "M3" },
        agents: hostileFrail(mockPopulation({ seed: 0 }), { insists, garbles }),
        clock,
        outDir: dir,
      });
      // A branch whose parent's log is not in the folder.
      const other = await runEpisode({ env: "bank_run", seed: 5, ndjson: true, clock });
      await branchEpisode(other.events, {
        atRound: 2,
        change: { mechanism: "M1" },
        agents: {},
        clock,
        outDir: dir,
        run,
      });
      const site = await writeRunSite(`${dir}/${run}`, { charts: false });
      assertEquals([site.episodes, site.diffs], [3, 2]);
      const first = (await import("../../../engine/core/episode_diff.ts")).diffEpisodes(
        parent.events,
        branch.events,
      ).firstRound!;
      await Deno.mkdir(SHOTS, { recursive: true });
      await withBrowser(async (browser) => {
        const page = await browser.newPage();
        await page.setViewport({ width: 1280, height: 900 });
        const trouble: string[] = [];
        page.on("dialog", async (d) => {
          trouble.push(`dialog: ${d.message()}`);
          await d.dismiss();
        });
        page.on("pageerror", (e) => trouble.push(`page error: ${e}`));
        page.on("console", (m) => {
          if (m.type() === "error") trouble.push(`console error: ${m.text()}`);
        });
        // The index names the parent of each branch.
        await page.goto(`file://${site.index}`);
        await page.waitForSelector("body[data-ready]");
        const cells = await page.$$eval(
          "#episodes tbody td",
          (tds) => tds.map((t) => t.textContent),
        );
        assertEquals(cells.includes("bank_run_M0_stable_s0 @3"), true);
        assertEquals(cells.includes("bank_run_M0_stable_s5 @2"), true);
        // The branch's page links to its parent and to the diff.
        await page.goto(`file://${site.out}/episodes/${run}/${branch.events[0].episode}.html`);
        const links = await page.$$eval("nav.crumbs a", (as) => as.map((a) => a.textContent));
        assertEquals(links, [
          "← run index",
          "↑ parent bank_run_M0_stable_s0",
          "diff with the parent (round 3)",
        ]);
        await Promise.all([page.waitForNavigation(), page.click("nav.crumbs a:nth-child(3)")]);
        assertEquals(
          await page.$eval("[data-first]", (e) => e.getAttribute("data-first")),
          String(first),
        );
        assertEquals(first, 3);
        // Rounds before the branch round are the same (closed); the first divergence is open.
        assertEquals(await page.$$eval("details.round.same", (d) => d.length), 2);
        assertEquals(
          await page.$eval(
            "#first-divergence",
            (d) => [d.getAttribute("data-round"), (d as unknown as { open: boolean }).open],
          ),
          ["3", true],
        );
        await page.screenshot({ path: `${SHOTS}diff.png`, fullPage: false });
        await page.click(`a[href="#first-divergence"]`);
        assertEquals(await page.evaluate(() => location.hash), "#first-divergence");
        // Hostile replies are text, never markup.
        const text = await page.$eval("main", (m) => m.textContent ?? "");
        assertEquals(text.includes(HOSTILE.slice(0, HOSTILE.indexOf(`"`))), true);
        assertEquals(await page.$$eval("main script, main img", (x) => x.length), 0);
        // The left side is the parent, linked to its page.
        assertEquals(
          await page.$eval("[data-side=a]", (d) => d.textContent?.startsWith("left (parent)")),
          true,
        );
        await Promise.all([page.waitForNavigation(), page.click("[data-side=a] a")]);
        assertEquals(
          await page.$eval("h1", (h) => h.textContent?.startsWith("bank_run_M0_stable_s0")),
          true,
        );
        // The orphan's diff page says why there is no diff.
        await page.goto(`file://${site.out}/diffs/${run}/bank_run_M0_stable_s5_b2_M1.html`);
        assertEquals(
          await page.$eval(".banner.warn", (b) => b.textContent),
          'The parent episode "adhoc/bank_run_M0_stable_s5" is not in this run folder.',
        );
        // A page written for a notebook opens the same way.
        const path = await writeDiffPage(parent, branch, `${dir}/diff.html`);
        await page.goto(`file://${path}`);
        assertEquals(await page.$$eval("details.round", (d) => d.length), 12);
        assertEquals(trouble, []);
      });
    });
  },
});

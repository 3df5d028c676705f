// The viewer in a real browser: Debian's chromium driven by puppeteer-core
// (nothing is downloaded; the browser is the system one). The site is opened
// from disk, as a user would. Screenshots go to screenshots/viewer/ (git-ignored).
//
// Skipped, with a message, only where no browser is installed; set
// COORDLAB_CHROMIUM to use a browser elsewhere than /usr/bin/chromium.

import type { Browser, Page } from "npm:puppeteer-core@25.16.0";
import { CHROMIUM, hasBrowser, withBrowser } from "./_browser.ts";
import { episodeBundle } from "../../../analysis/viewer/show_episode.ts";
import { writeRunSite } from "../../../analysis/viewer/run_site.ts";
import { runEpisode } from "../../../engine/run_episode.ts";
import { carryoverRule } from "../../../engine/games/staghunt/beliefs/carryover.ts";
import { runStagHuntEpisode } from "../../../engine/run_staghunt_episode.ts";
import { assertEquals } from "../../_assert.ts";
import { tempDirRunner } from "../_temp_dir.ts";
import type { UsageTotals } from "../../../engine/agents/llm/accounting.ts";
import {
  HOSTILE,
  hostileFrailEpisode,
  hostileStagHuntEpisode,
  llmGridRun,
  XSS_REPLY,
  xssReplyEpisode,
} from "./_fixtures.ts";
import { llmEpisode } from "../_llm_episode.ts";

if (!hasBrowser) {
  console.warn(
    `Skipping the viewer's browser tests: no browser at ${CHROMIUM} (install Debian's chromium, or set COORDLAB_CHROMIUM)`,
  );
}
const SHOTS = new URL("../../../screenshots/viewer/", import.meta.url).pathname;
const inTempDir = tempDirRunner("viewer_browser_");
/** Episodes photographed, and the file names of their screenshots. */
const SHOTS_OF: Record<string, string> = {
  bank_run_M3_stable_s0: "episode_bank_run_hostile",
  staghunt_N5_M3_T4_F2_b3_h1_s3: "episode_staghunt_hostile",
  staghunt_N5_M3_T4_F2_b3_h1_s7: "episode_staghunt",
  debt_rollover_M0_stable_s1: "episode_debt_rollover",
};

/** A page that records dialogs, console errors, page errors and requests leaving the disk. */
async function watchedPage(browser: Browser) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const trouble: string[] = [];
  page.on("dialog", async (dialog) => {
    trouble.push(`dialog: ${dialog.message()}`);
    await dialog.dismiss();
  });
  page.on("console", (message) => {
    if (message.type() === "error") trouble.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => trouble.push(`page error: ${error}`));
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith("file:") && !url.startsWith("data:") && !url.startsWith("about:")) {
      trouble.push(`network request: ${url}`);
    }
  });
  return { page, trouble };
}

const textOf = (page: Page, selector: string) =>
  page.$eval(selector, (element) => element.textContent ?? "");

async function siteWorks(browser: Browser): Promise<void> {
  await inTempDir(async (dir) => {
    const run = "browser";
    const results: (Result & { turns?: { originalAction: string; publicAction: string }[] })[] = [];
    for (const env of ["bank_run", "debt_rollover", "crowdfunding"] as const) {
      results.push(await hostileFrailEpisode(env, "M3", 0, { run, outDir: dir }));
      results.push(await runEpisode({ env, mechanism: "M0", seed: 1, run, outDir: dir }));
    }
    results.push(await hostileStagHuntEpisode("b3", 3, { run, outDir: dir }));
    for (const [corruption, seed] of [["b3", 7], ["base", 5]] as const) {
      const threshold = { rule: carryoverRule(), noise: 0.1 };
      const agents = { players: "threshold" as const, threshold, seed };
      results.push(
        await runStagHuntEpisode({ F: 2, corruption, seed, agents, run, outDir: dir }),
      );
    }
    const site = await writeRunSite(`${dir}/${run}`);
    assertEquals(site.episodes, 9);
    await Deno.mkdir(SHOTS, { recursive: true });

    // ---- the index
    const { page, trouble } = await watchedPage(browser);
    await page.goto(`file://${site.index}`);
    await page.waitForSelector("body[data-ready]");
    assertEquals(await textOf(page, "#summary"), summaryOf(results, () => true));
    assertEquals(await page.$$eval("#episodes tbody tr", (rows) => rows.length), 9);
    // Both games' columns and the model-call columns fit 1,280 px: nothing scrolls sideways.
    assertEquals(
      await page.evaluate(`[document.documentElement.scrollWidth,
        document.querySelector(".scroll").scrollWidth - document.querySelector(".scroll").clientWidth]`),
      [1280, 0],
    );
    await page.screenshot({ path: `${SHOTS}index.png`, fullPage: true });

    await page.type("#q", "mechanism:M3");
    assertEquals(await textOf(page, "#summary"), summaryOf(results, (r) => isFrail(r, "M3")));
    await page.click("#clear");
    await page.type("#q", "W~<0.5");
    assertEquals(
      await textOf(page, "#summary"),
      summaryOf(results, (r) => r.outcome.welfareRealization < 0.5),
    );
    await page.click("#clear");
    await page.select(`select[data-col="env"]`, "debt_rollover");
    assertEquals(await page.$$eval("#episodes tbody tr", (rows) => rows.length), 2);
    await page.click("#clear");

    // Sort by W~: ascending, then descending; episodes without W~ go last either way.
    const realizations = results.map((r) => r.outcome.welfareRealization).sort((a, b) => a - b);
    const column = await page.$$eval(
      "#episodes th",
      (ths) => ths.map((th) => th.textContent).indexOf("W~"),
    );
    const firstW = () =>
      page.$eval(
        `#episodes tbody tr td:nth-child(${column + 1})`,
        (td) => Number(td.textContent),
      );
    await page.click(`#episodes th[data-key="w~"]`);
    assertEquals(await firstW(), Number(realizations[0].toFixed(3)));
    assertEquals(
      await page.$eval(`th[data-key="w~"]`, (th) => th.getAttribute("aria-sort")),
      "ascending",
    );
    await page.click(`#episodes th[data-key="w~"]`);
    assertEquals(await firstW(), Number(realizations[realizations.length - 1].toFixed(3)));
    // The sort is kept in the address, so coming back from an episode restores it.
    assertEquals(new URL(page.url()).hash, "#sort=w%7E&desc=1");
    assertEquals(trouble, []);

    // ---- every episode page, reached from the index
    const links = await page.$$eval(
      "#episodes tbody a",
      (as) => as.map((a) => a.getAttribute("href")),
    );
    assertEquals(links.length, 9);
    const base = page.url();
    // One tab for every episode page (a tab costs a renderer process to start).
    const { page: episode, trouble: problems } = await watchedPage(browser);
    for (const result of results) {
      const id = result.events[0].episode;
      const link = new URL(links.find((href) => href!.endsWith(`/${id}.html`))!, base).href;
      await episode.goto(link);
      const facts = await episode.evaluate(`({
        rounds: [...document.querySelectorAll("details.round > summary strong")].map((s) => s.textContent),
        scripts: document.scripts.length,
        images: document.querySelectorAll("img").length,
        charts: document.querySelectorAll("figure.chart svg").length,
        calls: document.querySelectorAll("table.calls > tbody > tr, table.turns > tbody > tr").length,
        marks: document.querySelectorAll("mark").length,
        text: document.body.textContent,
      })`) as PageFacts;
      const rounds = result.outcome.rounds;
      assertEquals(
        facts.rounds.filter((r) => r?.startsWith("Round ")),
        Array.from({ length: rounds }, (_, i) => `Round ${i + 1}`),
      );
      assertEquals([facts.scripts, facts.images, facts.charts], [0, 0, 1]);
      assertEquals(facts.calls > 0, true);
      const hostile = result.events.some((e) => e.type === "llm_call");
      assertEquals(facts.text.includes(`alert("xss-script")`), hostile, id);
      if (result.turns !== undefined) {
        const flips = result.turns.filter((t) => t.originalAction !== t.publicAction).length;
        assertEquals(facts.marks, flips);
        assertEquals(facts.calls, 20);
      }
      // Open every reasoning block: the hostile text inside stays text.
      await episode.$$eval(
        "details",
        (all) => all.forEach((d) => d.setAttribute("open", "")),
      );
      assertEquals(await episode.$$eval("img, script, iframe", (found) => found.length), 0);
      const shot = SHOTS_OF[id];
      if (shot !== undefined) {
        await episode.$$eval(
          "details.why",
          (all) => all.forEach((d) => d.removeAttribute("open")),
        );
        await episode.$$eval(
          "details.round",
          (all) =>
            all.forEach((d, i) => i === 0 ? d.setAttribute("open", "") : d.removeAttribute("open")),
        );
        await episode.screenshot({ path: `${SHOTS}${shot}.png` });
      }
      assertEquals(problems.splice(0), [], id);
    }
    await episode.close();

    // ---- the notebook HTML of an episode, as a front end would insert it
    const { page: cell, trouble: cellTrouble } = await watchedPage(browser);
    const bundle = await episodeBundle(results[6] as { events: unknown[] });
    await cell.setContent(
      `<!doctype html><meta charset="utf-8"><body>${bundle["text/html"]}</body>`,
    );
    const inserted = await cell.evaluate(`({
      images: [...document.images].map((img) => img.src.slice(0, 22)),
      rounds: document.querySelectorAll("details.round").length,
      hostile: document.body.textContent.includes(\`<img src=x onerror="alert('xss-img')">\`),
    })`);
    assertEquals(inserted, { images: ["data:image/png;base64,"], rounds: 5, hostile: true });
    await cell.screenshot({ path: `${SHOTS}notebook_staghunt.png` });
    assertEquals(cellTrouble, []);
    assertEquals(HOSTILE.includes("</details>"), true);
  });
}

async function llmPrompts(browser: Browser): Promise<void> {
  await inTempDir(async (dir) => {
    const { result, rendered } = await llmEpisode(dir, { run: "llm", appendToUser: HOSTILE });
    const site = await writeRunSite(`${dir}/llm`);
    const { page, trouble } = await watchedPage(browser);
    await page.goto(`file://${site.index}`);
    await page.waitForSelector("body[data-ready]");
    await page.click("#episodes tbody a");
    await page.waitForSelector("details.prompt");
    const closed = await page.$$eval(
      "details.prompt",
      (all) => all.map((d) => d.hasAttribute("open")),
    );
    assertEquals(closed, new Array(48).fill(false));
    // Open round 2, the first call in it, then its messages.
    await page.$eval("#round-2", (d) => d.setAttribute("open", ""));
    await page.click("#round-2 details.why > summary");
    await page.click("#round-2 details.prompt > summary");
    const shown = await page.$eval(
      "#round-2 details.prompt",
      (d) =>
        [...d.querySelectorAll("pre")].map((pre) => ({
          text: pre.textContent,
          visible: pre.getBoundingClientRect().height > 0,
        })),
    );
    const first = result.events.find((e) => e.type === "report" && e.round === 2)!;
    const sent = rendered.get(`2/${(first as { agent: string }).agent}/withdrawal`)!;
    assertEquals(shown, sent.map((m) => ({ text: m.content, visible: true })));
    assertEquals(await page.$$eval("img, script, iframe", (found) => found.length), 0);
    await page.$eval("#round-2 details.prompt", (d) => d.scrollIntoView());
    await Deno.mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}episode_llm_prompt.png` });
    assertEquals(trouble, []);
  });
}

interface PageFacts {
  rounds: (string | null)[];
  scripts: number;
  images: number;
  charts: number;
  calls: number;
  marks: number;
  text: string;
}

type Result = {
  events: { type: string; episode: string }[];
  outcome: { success: boolean; welfareRealization: number; rounds: number };
};

function isFrail(result: Result, mechanism: string): boolean {
  const id = result.events[0].episode;
  return !id.startsWith("staghunt") && id.includes(`_${mechanism}_`);
}

/** The index summary line for the episodes that pass `keep`. */
function summaryOf(results: readonly Result[], keep: (r: Result) => boolean): string {
  const kept = results.filter(keep);
  const success = (100 * kept.filter((r) => r.outcome.success).length / kept.length).toFixed(1);
  const mean = kept.reduce((sum, r) => sum + r.outcome.welfareRealization, 0) / kept.length;
  return `${kept.length} of ${results.length} episodes · success ${success}% · mean W~ ${
    mean.toFixed(3)
  }`;
}

async function llmIndex(browser: Browser): Promise<void> {
  await inTempDir(async (dir) => {
    const run = await llmGridRun(`${dir}/llm`);
    const xss = await xssReplyEpisode({ run: "xss", outDir: run.out });
    const site = await writeRunSite(run.out, { workers: 1 });
    assertEquals(site.episodes, 6);
    await Deno.mkdir(SHOTS, { recursive: true });
    const calls = [...run.events, ...xss.events as unknown as Record<string, unknown>[]]
      .filter((e) => e.type === "llm_call");
    const { page, trouble } = await watchedPage(browser);
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(`file://${site.index}`);
    await page.waitForSelector("body[data-ready]");
    // ---- no horizontal overflow at 1,280 px, neither of the page nor of the table
    const widths = await page.evaluate(`[document.documentElement.scrollWidth,
      document.querySelector(".scroll").scrollWidth, document.querySelector(".scroll").clientWidth]`) as number[];
    assertEquals(widths[0] <= 1280 && widths[1] <= widths[2], true, `widths ${widths}`);
    await page.screenshot({ path: `${SHOTS}index_llm.png` });

    // ---- per episode: model calls, tokens in and out, cost as summed from the log
    const table = await page.evaluate(`(() => {
      const keys = [...document.querySelectorAll("#episodes th")].map((th) => th.dataset.key);
      return [...document.querySelectorAll("#episodes tbody tr")].map((tr) => {
        const cell = (key) => tr.cells[keys.indexOf(key)].textContent;
        return [cell("episode"), cell("calls"), cell("tokens_in"), cell("tokens_out"), cell("cost")];
      });
    })()`) as string[][];
    const n = (v: number) => v.toLocaleString("en-US");
    const expected = [...new Set(calls.map((e) => e.episode as string))].map((episode) => {
      const mine = calls.filter((e) => e.episode === episode);
      const sum = (field: string) => mine.reduce((s, e) => s + (e[field] as number), 0);
      const priced = mine.every((e) => typeof e.cost === "number");
      const cost = priced ? `$${Number(sum("cost").toFixed(4))}` : "no price";
      return [episode, n(mine.length), n(sum("tokens_in")), n(sum("tokens_out")), cost];
    });
    assertEquals(table, expected);
    // The debt-rollover episode's 3 mock calls: 3 × (420 in, 57 out, $0.0015).
    assertEquals(table[5], ["debt_rollover_M0_stable_s2", "3", "1,260", "171", "$0.0045"]);

    // ---- the run's totals and per-model summary
    const usage = await page.$$eval(
      "#usage tbody tr",
      (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)),
    );
    const row = (label: string, u: UsageTotals, cost: string) => [
      label,
      ...[u.calls, u.cacheHits, u.failedCalls, u.tokensIn, u.tokensOut, u.tokensReasoning]
        .map(n),
      cost,
    ];
    const priced = run.models.get("priced")!;
    assertEquals(usage, [
      row("free", run.models.get("free")!, "no price"),
      row("priced", priced, `$${Number(priced.cost.toFixed(4))}`),
      ["test-model", "3", "0", "0", "1,260", "171", "36", "$0.0045"],
      [
        "all models",
        ...[run.total.calls + 3, 0, 0, run.total.tokensIn + 1_260].map(n),
        ...[run.total.tokensOut + 171, run.total.tokensReasoning + 36].map(n),
        `$${Number((priced.cost + 0.0045).toFixed(4))} + 90 unpriced`,
      ],
    ]);

    // ---- the search finds a reply text and links to the call on its episode page
    const target = calls.find((e) =>
      e.model === "free" && String(e.content).includes("I always stay")
    )!;
    const term = "I ALWAYS stay";
    const matching = calls.filter((e) =>
      [e.content, e.reasoning].some((t) => String(t).toLowerCase().includes("i always stay"))
    );
    const episodes = new Set(matching.map((e) => e.episode));
    assertEquals([matching.length, episodes.size], [60, 2]);
    await page.type("#tq", term);
    await page.waitForSelector(`body[data-searched="${term}"]`);
    assertEquals(
      await textOf(page, "#hitcount"),
      `60 model calls in 2 episodes mention “${term}” (first 50 listed)`,
    );
    assertEquals(await page.$$eval("#episodes tbody tr", (rows) => rows.length), 2);
    assertEquals(await page.$$eval("#hits li", (li) => li.length), 50);
    const hit = await page.$eval("#hits li", (li) => ({
      href: li.querySelector("a")!.getAttribute("href"),
      text: li.textContent,
    }));
    const page0 = `episodes/llm/${target.episode}.html#call-${target.seq}`;
    assertEquals(hit.href, page0);
    assertEquals(
      hit.text,
      `${target.episode} round 1 · ${target.agent} · withdrawal · reply ${target.content}`,
    );
    assertEquals(new URL(page.url()).hash, `#s=I+ALWAYS+stay`);
    await page.screenshot({ path: `${SHOTS}index_llm_search.png` });
    await Promise.all([page.waitForNavigation(), page.click("#hits li a")]);
    const landed = await page.evaluate(`(() => {
      const target = document.getElementById(location.hash.slice(1));
      const open = [];
      for (let d = target.closest("details"); d; d = d.parentElement.closest("details")) open.push(d.open);
      const box = target.getBoundingClientRect();
      return { open, visible: box.bottom > 0 && box.top < innerHeight,
        reply: target.parentElement.textContent.includes(${JSON.stringify(target.content)}) };
    })()`);
    assertEquals(landed, { open: [true, true], visible: true, reply: true });
    await page.screenshot({ path: `${SHOTS}episode_llm_call.png` });

    // ---- a hostile reply shows as text in the search results and runs nothing
    await page.goBack();
    await page.waitForSelector("body[data-ready]");
    await page.click("#clear");
    await page.type("#tq", "onerror");
    await page.waitForSelector(`body[data-searched="onerror"]`);
    assertEquals(
      await textOf(page, "#hitcount"),
      `3 model calls in 1 episode mention “onerror”`,
    );
    const snippets = await page.$$eval("#hits .snip", (s) => s.map((e) => e.textContent));
    assertEquals(snippets.length, 3);
    assertEquals(snippets.every((s) => s!.startsWith(XSS_REPLY)), true);
    assertEquals(
      await page.$$eval("#hits mark", (m) => m.map((e) => e.textContent)),
      ["onerror", "onerror", "onerror"],
    );
    assertEquals(await page.$$eval("img, iframe, #hits script", (found) => found.length), 0);
    // The search is literal: regular-expression characters match themselves.
    await page.click("#clear");
    await page.type("#tq", "ALERT(1)>");
    await page.waitForSelector(`body[data-searched="ALERT(1)>"]`);
    assertEquals(
      await textOf(page, "#hitcount"),
      `3 model calls in 1 episode mention “ALERT(1)>”`,
    );
    assertEquals(await page.$eval("#hits mark", (m) => m.textContent), "alert(1)>");
    assertEquals(trouble, []);
  });
}

// One browser for the file's checks, each its own step: a launch costs
// about 0.75 s of CPU and 1 s of wall time.
Deno.test({
  name: "the viewer in a real browser",
  ignore: !hasBrowser,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    await withBrowser(async (browser) => {
      await t.step(
        "the run site works in a real browser: index filter and sort, episode pages, hostile text",
        () => siteWorks(browser),
      );
      await t.step(
        "an LLM episode's page shows each call's messages collapsed, as text, exactly as sent",
        () => llmPrompts(browser),
      );
      await t.step(
        "the index of an LLM run shows calls, tokens and cost, searches transcripts, fits 1,280 px",
        () => llmIndex(browser),
      );
    });
  },
});

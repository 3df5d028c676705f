import { writeRunSite } from "../../../analysis/viewer/run_site.ts";
import { safeName } from "../../../analysis/viewer/_site_pages.ts";
import type { IndexData } from "../../../analysis/viewer/_index_html.ts";
import { runEpisode } from "../../../engine/run_episode.ts";
import { runStagHuntEpisode } from "../../../engine/run_staghunt_episode.ts";
import { assertEquals } from "../../_assert.ts";
import { tempDirRunner } from "../_temp_dir.ts";
import type { UsageTotals } from "../../../engine/agents/llm/accounting.ts";
import { llmGridRun, xssReplyEpisode } from "./_fixtures.ts";

const inTempDir = tempDirRunner("viewer_site_");
const CLOCK = () => "2026-01-01T00:00:00.000Z";
const ndjson = (events: readonly object[]) =>
  events.map((e) => JSON.stringify(e)).join("\n") + "\n";
const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

/** The rows embedded in an index page, read back as JSON. */
function embedded(html: string): IndexData {
  const match = /<script type="application\/json" id="index-data">([^]*?)<\/script>/.exec(html);
  if (match === null) throw new Error("no embedded index data");
  return JSON.parse(match[1]);
}

Deno.test("writeRunSite() pages per-episode logs and segment files, numbering repeated episodes", async () => {
  await inTempDir(async (dir) => {
    const run = `${dir}/mixed`;
    await runEpisode({
      env: "bank_run",
      mechanism: "M1",
      seed: 1,
      run: "mixed",
      outDir: dir,
      clock: CLOCK,
    });
    await runEpisode({
      env: "crowdfunding",
      mechanism: "M3",
      seed: 1,
      run: "mixed",
      outDir: dir,
      clock: CLOCK,
    });
    const a = await runStagHuntEpisode({ F: 1, seed: 1, run: "mixed", clock: CLOCK });
    const b = await runStagHuntEpisode({
      F: 2,
      corruption: "b3",
      seed: 2,
      run: "mixed",
      clock: CLOCK,
    });
    // A segment holding two episodes, the second played twice, and a torn last line.
    await Deno.mkdir(`${run}/segments`);
    await Deno.writeTextFile(
      `${run}/segments/w0-0001.ndjson`,
      ndjson([...a.events, ...b.events, ...b.events]) + `{"schema":1,"run":"mixed"`,
    );
    const site = await writeRunSite(run, { workers: 1 });
    assertEquals([site.episodes, site.files, site.repeated], [5, 3, 1]);
    assertEquals(site.malformed.map((m) => [m.file, m.line]), [[
      `${run}/segments/w0-0001.ndjson`,
      a.events.length + 2 * b.events.length + 1,
    ]]);
    const index = await Deno.readTextFile(`${run}/view/index.html`);
    const data = embedded(index);
    const episodes = data.rows.map((row) =>
      row[data.columns.findIndex((c) => c.key === "episode") + 1]
    );
    assertEquals(episodes, [
      "bank_run_M1_stable_s1",
      "crowdfunding_M3_stable_s1",
      "staghunt_N5_M3_T4_F1_base_h1_s1",
      "staghunt_N5_M3_T4_F2_b3_h1_s2",
      "staghunt_N5_M3_T4_F2_b3_h1_s2",
    ]);
    const pages = data.rows.map((row) => row[0]);
    assertEquals(pages.slice(3), [
      "episodes/mixed/staghunt_N5_M3_T4_F2_b3_h1_s2~1.html",
      "episodes/mixed/staghunt_N5_M3_T4_F2_b3_h1_s2~2.html",
    ]);
    for (const page of pages) assertEquals(await exists(`${run}/view/${page}`), true);
    assertEquals(
      await exists(`${run}/view/episodes/mixed/staghunt_N5_M3_T4_F2_b3_h1_s2.html`),
      false,
    );
    // Condition columns of both games, side by side; the log column names the segment block.
    assertEquals(
      data.columns.map((c) => c.key),
      [
        ...["episode", "env", "mechanism", "F", "corruption", "model", "seed", "success"],
        ...["rounds", "w", "w~", "flips", "log"],
      ],
    );
    // Values the same in every episode of one game are listed once, naming the game; so are
    // values the same in every episode (the status, no corrections).
    assertEquals(data.constants, [
      ["run", "mixed"],
      ["regime (FRAIL)", "stable"],
      ["parameters (FRAIL)", "defaults"],
      ["N (Stag Hunt)", "5"],
      ["M (Stag Hunt)", "3"],
      ["T (Stag Hunt)", "4"],
      ["heterogeneity (Stag Hunt)", "h1"],
      ["payoffs (Stag Hunt)", "RS 4, HS 2, RF 0, HF 2"],
      ["status", "ok"],
      ["corrections", "0"],
    ]);
    assertEquals(index.includes(`<span class="pill ok">5 ok</span>`), true);
    // No model calls: no usage table, no search box, no search files.
    assertEquals([index.includes(`id="usage"`), index.includes(`id="tq"`)], [false, false]);
    assertEquals([data.search, await exists(`${run}/view/search`)], [[], false]);
    const log = data.columns.findIndex((c) => c.key === "log") + 1;
    assertEquals(data.rows[4][log], "segments/w0-0001.ndjson #2");
    assertEquals(
      index.includes("1 malformed line</b>") || index.includes("1 malformed line skipped"),
      true,
    );
    const second = await Deno.readTextFile(`${run}/view/${pages[4]}`);
    assertEquals(second.includes("holds 2 blocks of this episode"), true);
    assertEquals(second.includes(`<a href="../../index.html">← run index</a>`), true);
    assertEquals(/<script/i.test(second), false);
    assertEquals(second.includes("<svg"), true);
  });
});

Deno.test("writeRunSite() embeds hostile ids so that they cannot close the data element", async () => {
  await inTempDir(async (dir) => {
    const result = await runStagHuntEpisode({ F: 2, seed: 4, run: "x", clock: CLOCK });
    const evil = `</script><script>alert(1)</script>/../<b>`;
    const events = result.events.map((e) => ({ ...e, episode: evil }));
    await Deno.mkdir(`${dir}/x`);
    await Deno.writeTextFile(`${dir}/x/one.ndjson`, ndjson(events));
    const site = await writeRunSite(`${dir}/x`);
    const index = await Deno.readTextFile(site.index);
    assertEquals(index.includes("<script>alert(1)"), false);
    assertEquals(index.split("<script").length - 1, 2); // the data element and the viewer's script
    const data = embedded(index);
    const page = `episodes/x/${safeName(evil)}.html`;
    assertEquals(data.rows[0][0], page);
    assertEquals(data.rows[0][1], evil);
    const text = await Deno.readTextFile(`${dir}/x/view/${page}`);
    assertEquals(
      text.includes(`<h1>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;/../&lt;b&gt;`),
      true,
    );
  });
});

Deno.test("safeName() keeps safe ids and encodes the rest injectively", () => {
  assertEquals(safeName("bank_run_M0_stable_s1"), "bank_run_M0_stable_s1");
  assertEquals(safeName("a/b"), "a~2Fb");
  assertEquals(safeName("a~2Fb"), "a~7E2Fb");
  assertEquals(safeName(".."), "~2E.");
  assertEquals(safeName("é"), "~C3~A9");
  assertEquals(safeName(""), "~");
  const long = safeName("x".repeat(400));
  assertEquals([long.length, long.startsWith("x".repeat(140) + "~~")], [150, true]);
  assertEquals(safeName("x".repeat(400)) === safeName("x".repeat(401)), false);
});

Deno.test("writeRunSite() rebuilds its own folder, skips it when reading, and refuses a foreign one", async () => {
  await inTempDir(async (dir) => {
    const first = await runStagHuntEpisode({ F: 1, seed: 1, run: "r", outDir: dir, clock: CLOCK });
    const second = await runStagHuntEpisode({ F: 2, seed: 2, run: "r", outDir: dir, clock: CLOCK });
    await writeRunSite(`${dir}/r`);
    // A log copied into the site folder is not part of the run.
    await Deno.copyFile(first.logPath!, `${dir}/r/view/stray.ndjson`);
    await Deno.remove(second.logPath!);
    const site = await writeRunSite(`${dir}/r`);
    assertEquals([site.episodes, site.files], [1, 1]);
    const pages = [];
    for await (const entry of Deno.readDir(`${dir}/r/view/episodes/r`)) pages.push(entry.name);
    assertEquals(pages, ["staghunt_N5_M3_T4_F1_base_h1_s1.html"]);
    await Deno.mkdir(`${dir}/mine`);
    await Deno.writeTextFile(`${dir}/mine/notes.txt`, "keep me");
    try {
      await writeRunSite(`${dir}/r`, { out: `${dir}/mine` });
      throw new Error("expected a refusal");
    } catch (err) {
      assertEquals(err instanceof Deno.errors.AlreadyExists, true);
      assertEquals(
        (err as Error).message,
        `Refusing to write the site into "${dir}/mine": the folder is not empty and was not made by the viewer`,
      );
    }
    assertEquals(await Deno.readTextFile(`${dir}/mine/notes.txt`), "keep me");
    try {
      await writeRunSite(`${dir}/none`);
      throw new Error("expected NotFound");
    } catch (err) {
      assertEquals((err as Error).message, `Run folder "${dir}/none" does not exist`);
    }
  });
});

Deno.test("writeRunSite() writes the same site with worker threads as without", async () => {
  await inTempDir(async (dir) => {
    for (let seed = 0; seed < 18; seed++) {
      await runStagHuntEpisode({
        F: seed % 4,
        corruption: seed % 2 ? "b3" : "base",
        seed,
        run: "w",
        outDir: dir,
        clock: CLOCK,
      });
    }
    const one = await writeRunSite(`${dir}/w`, { out: `${dir}/one`, workers: 1 });
    // Without a progress callback (this build never finished when the pool counted
    // finished files only while reporting progress).
    const two = await writeRunSite(`${dir}/w`, { out: `${dir}/two`, workers: 2 });
    assertEquals(await Deno.readTextFile(one.index), await Deno.readTextFile(two.index));
    const page = "episodes/w/staghunt_N5_M3_T4_F3_b3_h1_s7.html";
    assertEquals(
      await Deno.readTextFile(`${dir}/one/${page}`),
      await Deno.readTextFile(`${dir}/two/${page}`),
    );
    assertEquals(embedded(await Deno.readTextFile(one.index)).rows.length, 18);
  });
});

Deno.test("writeRunSite() lists each episode's model calls, tokens and cost, and the run's totals per model", async () => {
  await inTempDir(async (dir) => {
    const run = await llmGridRun(`${dir}/llm`);
    const site = await writeRunSite(run.out, { workers: 1 });
    assertEquals(site.episodes, 5);
    const index = await Deno.readTextFile(site.index);
    const data = embedded(index);
    const col = (key: string) => data.columns.findIndex((c) => c.key === key) + 1;
    assertEquals(
      ["calls", "tokens_in", "tokens_out", "cost"].map((key) => data.columns[col(key) - 1].label),
      ["model calls", "tokens in", "tokens out", "cost"],
    );
    assertEquals(col("tokens"), 0);
    // Per episode: the sums over its llm_call events; an unpriced model's cost is "no price".
    const calls = run.events.filter((e) => e.type === "llm_call");
    const rows = data.rows.map((row) => [
      row[col("episode")],
      row[col("calls")],
      row[col("tokens_in")],
      row[col("tokens_out")],
      row[col("cost")],
    ]);
    const expected = [...new Set(calls.map((e) => e.episode as string))].map((episode) => {
      const mine = calls.filter((e) => e.episode === episode);
      const sum = (field: string) => mine.reduce((n, e) => n + (e[field] as number), 0);
      const priced = mine.every((e) => typeof e.cost === "number");
      return [
        episode,
        mine.length,
        sum("tokens_in"),
        sum("tokens_out"),
        priced ? sum("cost") : "no price",
      ];
    });
    assertEquals(rows, expected);
    assertEquals(rows.map((r) => r[4] === "no price"), [false, true, false, true, false]);
    // The run's totals and each model's: the runtime's own ledger, to the call and token.
    const table = /<table class="usage" id="usage">([^]*?)<\/table>/.exec(index)![1]
      .replace(/ title="[^"]*"/g, "");
    const n = (v: number) => v.toLocaleString("en-US");
    const line = (label: string, u: UsageTotals, cost: string, total = false) =>
      `<tr${total ? ` class="total"` : ""}><th>${label}</th>${
        [u.calls, u.cacheHits, u.failedCalls, u.tokensIn, u.tokensOut, u.tokensReasoning]
          .map((v) => `<td class="n">${n(v)}</td>`).join("")
      }<td class="n"><span>${cost}</span></td></tr>`;
    const free = run.models.get("free")!;
    const priced = run.models.get("priced")!;
    assertEquals([free.calls, free.unpricedCalls, priced.unpricedCalls], [90, 90, 0]);
    assertEquals(
      table,
      `<thead><tr>${
        ["model", "calls", "cache hits", "failed calls", "tokens in", "tokens out"]
          .map((h) => `<th>${h}</th>`).join("")
      }<th>reasoning tokens</th><th>cost</th></tr></thead><tbody>${line("free", free, "no price")}${
        line("priced", priced, `$${Number(priced.cost.toFixed(4))}`)
      }${
        line("all models", run.total, `$${Number(run.total.cost.toFixed(4))} + 90 unpriced`, true)
      }</tbody>`,
    );
    // The exact sum is in the tooltip (summed in another order than the ledger's: equal to 1e-12).
    const title = /<th>priced<\/th>.*?<span title="([^"]+)">/.exec(index)![1];
    assertEquals(Math.abs(Number(title) - priced.cost) < 1e-12, true);
    // The transcript search: one shard for the one log file, every reply and reasoning in it.
    assertEquals(data.search, [{ shard: 0, first: 0, src: "search/0.js" }]);
    const shard = await Deno.readTextFile(`${site.out}/search/0.js`);
    const match = /^coordlabSearch\(0,([^]*)\);\n$/.exec(shard)!;
    const texts = JSON.parse(match[1]) as [
      number,
      number,
      number,
      string,
      string,
      string,
      string,
    ][];
    assertEquals(texts.length, calls.length * 2);
    const first = calls[0];
    assertEquals(texts[0], [
      0,
      first.seq,
      first.round,
      first.agent,
      first.call,
      "reply",
      first.content,
    ]);
    assertEquals(texts[1].slice(5), ["reasoning", first.reasoning]);
    assertEquals(index.includes(`placeholder="search transcripts: replies, reasoning"`), true);
  });
});

Deno.test("writeRunSite() shows costs in the currency the run manifest records, bare where none is, unsummed where they differ", async () => {
  await inTempDir(async (dir) => {
    const run = await llmGridRun(`${dir}/cny`, "CNY");
    const manifest = JSON.parse(await Deno.readTextFile(`${run.out}/manifest.json`));
    assertEquals(manifest.spend.currency, "CNY");
    const priced = run.models.get("priced")!;
    const cost = Number(priced.cost.toFixed(4));
    const site = await writeRunSite(run.out, { workers: 1 });
    const index = await Deno.readTextFile(site.index);
    assertEquals(embedded(index).currency, "CNY");
    assertEquals(index.includes(`<th>priced</th>`), true);
    assertEquals(index.includes(`>${cost} CNY</span></td></tr>`), true);
    assertEquals(
      /<table class="usage" id="usage">([^]*?)<\/table>/.exec(index)![1].includes("$"),
      false,
    );
    const ledger = /<p class="sub" id="ledger">([^]*?)<\/p>/.exec(index)![1];
    assertEquals(
      ledger.includes(`, ${Number(run.total.cost.toFixed(4))} CNY + 90 unpriced requests`),
      true,
    );
    const pages = embedded(index).rows.map((r) => r[0] as string);
    const page = await Deno.readTextFile(`${site.out}/${pages[0]}`);
    assertEquals(/<small>cost<\/small><b>[0-9.]+ CNY<\/b>/.test(page), true);
    assertEquals(page.includes(`id="currency"`), false);

    // A manifest written before the currency was recorded: bare numbers, and why.
    delete manifest.spend.currency;
    await Deno.writeTextFile(`${run.out}/manifest.json`, JSON.stringify(manifest));
    const bare = await Deno.readTextFile((await writeRunSite(run.out, { workers: 1 })).index);
    assertEquals(embedded(bare).currency, null);
    assertEquals(bare.includes(`>${cost}</span></td></tr>`), true);
    assertEquals(bare.includes("The costs&#39; currency is not recorded here"), true);

    // Two folders whose prices are in different currencies: costs are not added up.
    manifest.spend.currency = "CNY";
    await Deno.writeTextFile(`${run.out}/manifest.json`, JSON.stringify(manifest));
    await llmGridRun(`${dir}/cny/usd`, "USD");
    const mixed = await Deno.readTextFile((await writeRunSite(run.out, { workers: 1 })).index);
    assertEquals(embedded(mixed).currency, null);
    assertEquals(mixed.includes(`<span>mixed currencies</span>`), true);
    assertEquals(mixed.includes("cost not summed (the folders&#39; prices are in CNY, USD)"), true);
    assertEquals(mixed.includes("prices are in different currencies (CNY, USD)"), true);
  });
});

Deno.test("writeRunSite() makes the messages sent searchable when asked, each system prompt once", async () => {
  await inTempDir(async (dir) => {
    const { events } = await xssReplyEpisode({ run: "p" });
    // The messages as an llm_call logs them: a system prompt written once per
    // episode, then named by its hash; a user message with every call.
    let n = 0;
    const logged = events.map((e) => {
      if (e.type !== "llm_call") return e;
      n++;
      const system = n === 1
        ? { role: "system", content: "You are a creditor." }
        : { role: "system", content_sha256: "ab".repeat(32) };
      return { ...e, messages: [system, { role: "user", content: `Round ${e.round}, call ${n}` }] };
    });
    await Deno.mkdir(`${dir}/p`);
    await Deno.writeTextFile(`${dir}/p/episode.ndjson`, ndjson(logged));
    const shardTexts = async (searchPrompts: boolean) => {
      const site = await writeRunSite(`${dir}/p`, { workers: 1, searchPrompts });
      const shard = await Deno.readTextFile(`${site.out}/search/0.js`);
      const index = await Deno.readTextFile(site.index);
      const texts = JSON.parse(/^coordlabSearch\(0,([^]*)\);\n$/.exec(shard)![1]) as unknown[][];
      return { kinds: texts.map((t) => [t[1], t[5], t[6]]), index };
    };
    const calls = logged.filter((e) => e.type === "llm_call") as (typeof logged[0] & {
      seq: number;
      content: string;
    })[];
    assertEquals(calls.length, 3);
    const plain = await shardTexts(false);
    assertEquals(plain.kinds, calls.map((c) => [c.seq, "reply", c.content]));
    assertEquals(
      plain.index.includes(`placeholder="search transcripts: replies, reasoning"`),
      true,
    );
    const withPrompts = await shardTexts(true);
    assertEquals(withPrompts.kinds, [
      [calls[0].seq, "prompt system", "You are a creditor."],
      [calls[0].seq, "prompt user", "Round 1, call 1"],
      [calls[0].seq, "reply", calls[0].content],
      [calls[1].seq, "prompt user", `Round ${calls[1].round}, call 2`],
      [calls[1].seq, "reply", calls[1].content],
      [calls[2].seq, "prompt user", `Round ${calls[2].round}, call 3`],
      [calls[2].seq, "reply", calls[2].content],
    ]);
    assertEquals(
      withPrompts.index.includes(`placeholder="search transcripts: replies, reasoning, prompts"`),
      true,
    );
  });
});

Deno.test("writeRunSite() points each search text at its own occurrence of a repeated episode", async () => {
  await inTempDir(async (dir) => {
    const { events } = await xssReplyEpisode({ run: "r" });
    await Deno.mkdir(`${dir}/r`);
    // One segment holding the same episode twice (played again): two pages, ~1 and ~2.
    await Deno.writeTextFile(`${dir}/r/segment.ndjson`, ndjson([...events, ...events]));
    const site = await writeRunSite(`${dir}/r`, { workers: 1 });
    assertEquals([site.episodes, site.repeated], [2, 1]);
    const data = embedded(await Deno.readTextFile(site.index));
    assertEquals(data.search, [{ shard: 0, first: 0, src: "search/0.js" }]);
    const shard = await Deno.readTextFile(`${site.out}/search/0.js`);
    const texts = JSON.parse(/^coordlabSearch\(0,([^]*)\);\n$/.exec(shard)![1]) as unknown[][];
    const pages = texts.map((t) => data.rows[data.search[0].first + (t[0] as number)][0]);
    assertEquals(pages, [
      ...Array(3).fill("episodes/r/debt_rollover_M0_stable_s2~1.html"),
      ...Array(3).fill("episodes/r/debt_rollover_M0_stable_s2~2.html"),
    ]);
  });
});

Deno.test("writeRunSite() keeps a column whose values differ within one game", async () => {
  await inTempDir(async (dir) => {
    // Two FRAIL episodes of two mock models: the model is a column, not a constant of FRAIL.
    for (const env of ["bank_run", "crowdfunding"] as const) {
      await runEpisode({ env, mechanism: "M0", seed: 1, run: "one", outDir: dir, clock: CLOCK });
    }
    await writeRunSite(`${dir}/one`, { workers: 1 });
    const data = embedded(await Deno.readTextFile(`${dir}/one/view/index.html`));
    const model = data.columns.findIndex((c) => c.key === "model") + 1;
    assertEquals(data.rows.map((row) => row[model]), ["mock:defensive", "mock:hesitant"]);
    assertEquals(data.constants.some(([label]) => label.startsWith("model")), false);
  });
});

Deno.test("writeRunSite() states what the spend ledger says was billed, every session, beside the logged calls", async () => {
  await inTempDir(async (dir) => {
    const run = await llmGridRun(`${dir}/llm`);
    const site = await writeRunSite(run.out, { workers: 1 });
    const index = await Deno.readTextFile(site.index);
    const line = /<p class="sub" id="ledger">(.*?)<\/p>/.exec(index)![1];
    const n = (v: number) => v.toLocaleString("en-US");
    // No cache and no preflight: every logged call was one billed request.
    assertEquals(run.total.cacheHits, 0);
    assertEquals(
      line.split(". This counts")[0],
      `<b>Billed, every session</b> (the spend ledger): ${n(run.total.calls)} requests, ${
        n(run.total.billedTokens)
      } tokens, $${Number(run.total.cost.toFixed(4))} + ${
        n(run.total.unpricedCalls)
      } unpriced requests`,
    );
    // A folder without a ledger (a mock run) says nothing of billing.
    await runEpisode({ env: "bank_run", mechanism: "M0", seed: 1, run: "mock", outDir: dir });
    const mock = await writeRunSite(`${dir}/mock`, { workers: 1 });
    assertEquals((await Deno.readTextFile(mock.index)).includes(`id="ledger"`), false);
  });
});

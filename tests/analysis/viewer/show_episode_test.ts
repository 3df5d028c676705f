import pl from "npm:nodejs-polars@0.25.2";
import { escapeHtml } from "../../../analysis/_html.ts";
import { loadRuns } from "../../../analysis/load/load_runs.ts";
import { episodeBundle, showEpisode } from "../../../analysis/viewer/show_episode.ts";
import { episodeHeader } from "../../../analysis/viewer/_condition.ts";
import { episodeModel } from "../../../analysis/viewer/_episode_model.ts";
import { chartSvg } from "../../../analysis/viewer/_chart_svg.ts";
import { episodeChart } from "../../../analysis/viewer/_chart.ts";
import { fmtNumber } from "../../../analysis/viewer/_format.ts";
import type { LogEvent } from "../../../analysis/viewer/_log_source.ts";
import { renderSvg } from "../../../analysis/charts/render.ts";
import { stateTrajectoryChart } from "../../../analysis/charts/state_trajectory.ts";
import type { EngineEvent } from "../../../engine/core/events.ts";
import { runEpisode } from "../../../engine/run_episode.ts";
import { runStagHuntEpisode } from "../../../engine/run_staghunt_episode.ts";
import { MECHANISMS } from "../../../engine/frail/types.ts";
import { assertEquals } from "../../_assert.ts";
import { tempDirRunner } from "../_temp_dir.ts";
import { HOSTILE, hostileFrailEpisode, hostileStagHuntEpisode, ofType } from "./_fixtures.ts";
import { episodeTranscript } from "../../../analysis/transcript.ts";
import { llmEpisode } from "../_llm_episode.ts";

const inTempDir = tempDirRunner("viewer_");
const CLOCK = () => "2026-01-01T00:00:00.000Z";
const html = async (source: Parameters<typeof episodeBundle>[0], options = {}) =>
  (await episodeBundle(source, { chart: false, ...options }))["text/html"];
const count = (text: string, needle: string) => text.split(needle).length - 1;
const ndjson = (events: readonly object[]) =>
  events.map((e) => JSON.stringify(e)).join("\n") + "\n";

async function rejects(
  promise: Promise<unknown>,
  type: new (...args: never[]) => Error,
  pattern: RegExp,
) {
  try {
    await promise;
  } catch (err) {
    assertEquals(err instanceof type, true, `expected ${type.name}, got ${err}`);
    assertEquals(pattern.test((err as Error).message), true, (err as Error).message);
    return;
  }
  throw new Error(`expected a ${type.name}`);
}

Deno.test("episodeBundle() renders every FRAIL environment under M0-M3, the same from a result and from its log", async () => {
  await inTempDir(async (dir) => {
    for (const env of ["bank_run", "debt_rollover", "crowdfunding"] as const) {
      for (const mechanism of MECHANISMS) {
        const result = await runEpisode({
          env,
          mechanism,
          seed: 2,
          run: "t",
          outDir: dir,
          clock: CLOCK,
        });
        const fromResult = await html(result);
        assertEquals(fromResult, await html(result.logPath!));
        const rounds = result.outcome.rounds;
        assertEquals(count(fromResult, `<details class="round" id="round-`), rounds);
        assertEquals(fromResult.includes(`<strong>Round ${rounds}</strong>`), true);
        assertEquals(fromResult.includes(`<b>mechanism</b>${mechanism}</span>`), true);
        assertEquals(fromResult.includes(`<b>env</b>${env}</span>`), true);
        assertEquals(
          fromResult.includes(
            `<small>W~ (realization)</small><b>${
              numberHtml(result.outcome.welfareRealization)
            }</b>`,
          ),
          true,
        );
        assertEquals(/<script/i.test(fromResult), false);
        const decisions = ofType(result.events, "decision").length;
        assertEquals(count(fromResult, `<span class="f"><i>draw</i>`), decisions);
      }
    }
  });
});

function numberHtml(value: number): string {
  const shown = fmtNumber(value);
  return shown === String(value) ? shown : `<span title="${value}">${shown}</span>`;
}

Deno.test("episodeBundle() escapes hostile agent text in reports, reasoning and model calls", async () => {
  for (
    const result of [
      await hostileFrailEpisode("bank_run", "M3", 0),
      await hostileFrailEpisode("debt_rollover", "M2", 0),
      await hostileFrailEpisode("crowdfunding", "M1", 0),
      await hostileStagHuntEpisode("b3", 3),
    ]
  ) {
    const text = await html(result);
    assertEquals(text.includes(HOSTILE), false);
    assertEquals(text.includes(escapeHtml(HOSTILE)), true);
    assertEquals(/<script|<img|<b>bold/i.test(text), false);
    // The hostile </details> is text: every <details> still has its own closing tag.
    assertEquals(count(text, "<details"), count(text, "</details>"));
    assertEquals(count(text, "<table"), count(text, "</table>"));
  }
});

Deno.test("episodeBundle() shows overrides, corrections, draws and model calls as logged", async () => {
  // Seed 1: the insisting depositor joins the coalition, so each round overrides it.
  const result = await hostileFrailEpisode("bank_run", "M3", 1);
  const text = await html(result);
  const overrides = ofType(result.events, "override");
  const corrections = ofType(result.events, "correction");
  const calls = ofType(result.events, "llm_call");
  assertEquals([overrides.length, corrections.length, calls.length], [12, 1, 360]);
  assertEquals(text.includes(`<small>overrides</small><b>12</b>`), true);
  assertEquals(text.includes(`<small>corrections</small><b>1</b>`), true);
  assertEquals(text.includes(`<small>model calls</small><b>360</b>`), true);
  assertEquals(text.includes(`<small>tokens</small><b>171,720</b>`), true); // 360 × (420 + 57)
  // 360 × 0.0015, in no stated currency: a bare number, and the page says why.
  assertEquals(text.includes(`<small>cost</small><b>0.54</b>`), true);
  assertEquals(
    text.includes(`<p class="sub" id="currency">The costs&#39; currency is not recorded`),
    true,
  );
  const usd = await html(result, { currency: "USD" });
  assertEquals(usd.includes(`<small>cost</small><b>$0.54</b>`), true);
  assertEquals(usd.includes(`id="currency"`), false);
  assertEquals((await html(result, { currency: "CNY" })).includes(`<b>0.54 CNY</b>`), true);
  await rejects(html(result, { currency: "yuan" }), RangeError, /the options' "currency"/);
  assertEquals(
    count(text, `<span class="note warn">override <b>withdraw probability</b> 80% → 0%`),
    12,
  );
  assertEquals(
    text.includes(`corrected <b>withdraw probability</b>: raw &quot;lots&quot; → 0`),
    true,
  );
  const first = ofType(result.events, "decision")[0] as EngineEvent & { draw: number };
  assertEquals(
    text.includes(`<i>draw</i> <span title="${first.draw}">${fmtNumber(first.draw)}</span>`),
    true,
  );
  // Model-call statistics and the failed attempt sit under each report.
  assertEquals(count(text, `<tr><th>latency ms</th><td>812</td></tr>`), 360);
  assertEquals(count(text, `<td>rate_limit</td><td>429</td>`), 360);
});

Deno.test("episodeBundle() lays out Stag Hunt turns with both action layers and highlights flips", async () => {
  for (const [corruption, seed] of [["b3", 3], ["base", 5]] as const) {
    const result = await hostileStagHuntEpisode(corruption, seed);
    const text = await html(result);
    const flips = result.turns.filter((t) => t.originalAction !== t.publicAction);
    assertEquals(count(text, "<mark>"), flips.length);
    assertEquals(count(text, `<tr class="flip">`), flips.length);
    assertEquals(text.includes(`<small>flips</small><b>${flips.length}</b>`), true);
    assertEquals(count(text, "<h3>Speaking order</h3>"), 4);
    assertEquals(count(text, `<span class="pill warn">corrupted</span>`), 4 * 2);
    for (const flip of flips) {
      assertEquals(text.includes(`<del>${flip.originalAction}</del>`), true);
      assertEquals(text.includes(escapeHtml(flip.publicJustification)), true);
    }
    assertEquals(text.includes(`<b>corruption</b>${corruption}</span>`), true);
    assertEquals(text.includes(`<b>heterogeneity</b>h1</span>`), true);
  }
  const text = await html(await hostileStagHuntEpisode("b3", 3));
  assertEquals(flipsOf(text) > 0, true);
});

function flipsOf(text: string): number {
  return count(text, `<span class="pill flip">flipped</span>`);
}

Deno.test("episodeBundle() draws the chart as a PNG data URI", async () => {
  const result = await runStagHuntEpisode({ F: 2, corruption: "b3", seed: 3, clock: CLOCK });
  const bundle = await episodeBundle(result);
  assertEquals(/<img src="data:image\/png;base64,iVBORw0KGgo/.test(bundle["text/html"]), true);
  assertEquals(bundle["text/html"].includes("threshold M = 3"), false); // drawn, not written
  assertEquals(
    bundle["text/plain"].startsWith("Episode staghunt_N5_M3_T4_F2_b3_h1_s3 of run adhoc: ok"),
    true,
  );
});

// Before, an episode played without hashes (runEpisode's default) showed
// "state hash undefined · events hash undefined" under every round.
Deno.test("episodeBundle() writes no hash line for an episode played without hashes, and both with them", async () => {
  const plain = await episodeBundle(
    await runEpisode({ game: "min_effort", seed: 1, clock: CLOCK }),
  );
  assertEquals(plain["text/html"].includes("undefined"), false);
  assertEquals(plain["text/html"].includes('<div class="hash">'), false);
  const hashed = await runEpisode({ game: "min_effort", seed: 1, clock: CLOCK, hashes: true });
  const html = (await episodeBundle(hashed))["text/html"];
  assertEquals(
    html.match(/<div class="hash">state hash [0-9a-f]{64} · events hash [0-9a-f]{64}<\/div>/g)
      ?.length,
    10,
  );
});

Deno.test("showEpisode() finds a row's log: frame.row(i), a record with its file, a one-row frame", async () => {
  await inTempDir(async (dir) => {
    const results = [];
    for (const seed of [1, 2]) {
      results.push(
        await runEpisode({
          env: "crowdfunding",
          mechanism: "M2",
          seed,
          run: "cf",
          outDir: dir,
          clock: CLOCK,
        }),
      );
    }
    const { episodes } = await loadRuns(dir, { frames: [] });
    const i = episodes.getColumn("episode").toArray().indexOf("crowdfunding_M2_stable_s2");
    const expected = await html(results[1].logPath!);
    assertEquals(await html(episodes.row(i), { dir }), expected);
    assertEquals(await html(episodes.toRecords()[i] as { run: string; episode: string }), expected);
    assertEquals(await html(episodes.slice(i, 1)), expected);
    const bundle = await showEpisode(episodes.slice(i, 1), { chart: false });
    assertEquals(bundle?.["text/html"], expected); // outside Jupyter the bundle comes back
    await rejects(
      html(episodes.row(i)),
      Deno.errors.NotFound,
      /^Cannot look for episode "crowdfunding_M2_stable_s2": folder "runs\/cf" does not exist/,
    );
    await rejects(html(episodes), RangeError, /exactly one row .* it has 2/);
    await rejects(
      html({ run: "cf", episode: "nope" }, { dir }),
      Deno.errors.NotFound,
      /No log under ".*" holds episode "nope" of run "cf" \(searched 2 \.ndjson files\)/,
    );
  });
});

Deno.test("episodeBundle() reads a segment file of many episodes, and names skipped lines", async () => {
  await inTempDir(async (dir) => {
    const a = await runStagHuntEpisode({ F: 1, seed: 1, run: "seg", clock: CLOCK });
    const b = await runStagHuntEpisode({
      F: 3,
      corruption: "b3",
      seed: 2,
      run: "seg",
      clock: CLOCK,
    });
    const c = await runEpisode({ env: "bank_run", seed: 3, run: "seg", clock: CLOCK });
    const path = `${dir}/segment-0001.ndjson`;
    await Deno.writeTextFile(path, ndjson([...a.events, ...b.events, ...c.events]) + "{not json\n");
    await rejects(
      html(path),
      RangeError,
      /holds 3 episodes \(staghunt_N5_M3_T4_F1_base_h1_s1, .*\): pick one with options\.episode/,
    );
    const text = await html(path, { episode: b.events[0].episode });
    assertEquals(text.includes(`<b>F</b>3</span>`), true);
    assertEquals(
      text.includes(
        `1 malformed line skipped in ${dir}/segment-0001.ndjson (line ${
          a.events.length + b.events.length + c.events.length + 1
        }: not JSON`,
      ),
      true,
    );
    const alone = await html(b.events as unknown as object[]);
    const [withoutNote] = [
      text.replace(/<div class="banner warn">1 malformed line[^<]*<\/div>/, ""),
    ];
    assertEquals(withoutNote, alone);
    await rejects(html(path, { episode: "other" }), RangeError, /holds no episode "other"/);
  });
});

Deno.test("episodeBundle() shows the condition key by key with its derived quantities", async () => {
  const run = await runStagHuntEpisode({ F: 2, corruption: "b3", seed: 3, clock: CLOCK });
  const events = run.events as unknown as Record<string, unknown>[];
  const text = await html(events);
  assertEquals(text.includes(`<b>condition</b>staghunt_N5_M3_T4_F2_b3_h1</span>`), true);
  assertEquals(
    text.includes(`<b>q*</b><span title="0.3857275681323895">0.386</span></span>`),
    true,
  );
  assertEquals(text.includes(`<b>payoffs</b>RS 4, HS 2, RF 0, HF 2</span>`), true);
  assertEquals(text.includes(`<b>corruption</b>b3</span>`), true);
  assertEquals(text.includes(`model <b>mock:threshold(naive)</b>`), true);
  // The events' schema, named so (a block log's layout has its own, in its header line).
  assertEquals(text.includes(" · event schema 2 · "), true);
  assertEquals(text.includes("<h3>Speaking order</h3>"), true);
  const header = episodeHeader(events[0] as unknown as LogEvent);
  assertEquals([header.game, header.env, header.condition.heterogeneity], [
    "staghunt",
    "staghunt",
    "h1",
  ]);
  const { condition: _c, ...noCondition } = events[0];
  await rejects(html([noCondition, ...events.slice(1)]), TypeError, /has no "condition" object/);
  // A log of schema 1 is refused by name, as every reader of logs does.
  const old = events.map((e) => ({ ...e, schema: 1 }));
  await rejects(html(old), RangeError, /event schema 1 is not supported/);
});

Deno.test("episodeBundle() shows degraded, error and incomplete episodes prominently", async () => {
  // Hashed, as a written log: the banner leaves out episode_end's events_hash.
  const result = await runEpisode({
    env: "debt_rollover",
    mechanism: "M1",
    seed: 1,
    clock: CLOCK,
    hashes: true,
  });
  const events = result.events as unknown as Record<string, unknown>[];
  const last = events[events.length - 1];
  const degraded = [...events.slice(0, -1), {
    ...last,
    status: "degraded",
    degraded: "3 calls used the neutral default",
  }];
  const text = await html(degraded);
  assertEquals(
    text.includes(`<span class="pill warn" data-status="degraded">degraded</span>`),
    true,
  );
  assertEquals(
    text.includes(
      `<div class="banner warn">Status: degraded<pre>degraded: 3 calls used the neutral default</pre></div>`,
    ),
    true,
  );
  const failed = [...events.slice(0, -1), {
    ...last,
    status: "error",
    outcome: undefined,
    error: "<boom>",
  }];
  assertEquals(
    (await html(failed)).includes(
      `<div class="banner bad">Status: error<pre>error: &lt;boom&gt;</pre></div>`,
    ),
    true,
  );
  const cut = await html(events.slice(0, 40));
  assertEquals(cut.includes(`data-status="incomplete"`), true);
  assertEquals(cut.includes("Incomplete: the log has no episode_end"), true);
});

Deno.test("episodeModel() attaches every decision, override, correction and model call to its report", async () => {
  const result = await hostileFrailEpisode("bank_run", "M3", 1);
  const model = episodeModel(result.events as unknown as LogEvent[]);
  const calls = model.rounds.flatMap((r) => r.calls);
  assertEquals(calls.length, ofType(result.events, "report").length);
  assertEquals(
    calls.filter((c) => c.decision !== null).length,
    ofType(result.events, "decision").length,
  );
  assertEquals(
    calls.filter((c) => c.override !== null).map((c) => c.agent),
    Array(12).fill("dep_01"),
  );
  assertEquals(calls.flatMap((c) => c.corrections).length, 1);
  assertEquals(calls.every((c) => c.llmCalls.length === 1), true);
  assertEquals(model.rounds.flatMap((r) => r.other), []);
  for (const call of calls) {
    if (call.decision !== null) {
      assertEquals([call.decision.agent, call.decision.call], [call.agent, call.call]);
    }
  }
  assertEquals(
    model.counts.realized,
    ofType(result.events, "decision").filter((d) => (d as { realized: boolean }).realized).length,
  );
});

Deno.test("episodeBundle() rejects sources it cannot read, naming what is wrong", async () => {
  await rejects(html(42 as never), TypeError, /Cannot show an episode from this source/);
  await rejects(html([]), TypeError, /empty array/);
  await rejects(
    html([{ type: "round_start", run: "r", episode: "e", schema: 9 }]),
    TypeError,
    /events\[0\]: event schema 9 is not one of 1, 2/,
  );
  await rejects(
    html(pl.DataFrame({ run: ["a"], episode: ["b"] }), { dir: "/nonexistent-dir-for-test" }),
    Deno.errors.NotFound,
    /nonexistent/,
  );
});

Deno.test("chartSvg() escapes the text it draws", async () => {
  const spec = stateTrajectoryChart([{ round: 1, series: "<script>alert(1)</script>", value: 2 }]);
  const svg = await chartSvg(spec);
  assertEquals(svg.includes("<script"), false);
  assertEquals(svg.includes("&lt;script&gt;alert(1)&lt;/script&gt;"), true);
  // A second chart of the same shape reuses the view and shows the new data.
  const again = await chartSvg(stateTrajectoryChart([{ round: 1, series: "cash & co", value: 2 }]));
  assertEquals(again.includes("cash &amp; co"), true);
  assertEquals(again.includes("alert"), false);
});

Deno.test("chartSvg() sizes a chart the same whatever it drew before with the view", async () => {
  // Views are reused per chart shape; a view kept the size of its last
  // chart, so site pages built by workers depended on the order they drew.
  const spec = async (mechanism: "M1" | "M2") => {
    const r = await runEpisode({ env: "crowdfunding", mechanism, seed: 0 });
    return episodeChart(episodeModel(r.events as unknown as LogEvent[]))!.spec;
  };
  const width = (svg: string) => svg.match(/width="(\d+)"/)?.[1];
  const m1 = await spec("M1");
  await chartSvg(await spec("M2"));
  assertEquals(width(await chartSvg(m1)), width(await renderSvg(m1)));
});

Deno.test("the episode chart draws the logged boundary of the episode's regime, not the paper's stable one", async () => {
  const svgOf = async (regime: "contraction" | "stable", env: "bank_run" | "crowdfunding") => {
    const r = await runEpisode({ env, regime, seed: 3 });
    return await chartSvg(episodeChart(episodeModel(r.events as unknown as LogEvent[]))!.spec);
  };
  assertEquals((await svgOf("contraction", "bank_run")).includes("insolvency boundary 3.65"), true);
  assertEquals((await svgOf("stable", "bank_run")).includes("insolvency boundary 8.48"), true);
  assertEquals((await svgOf("contraction", "crowdfunding")).includes("goal 15"), true);
});

Deno.test("episodeBundle() shows each model call's messages collapsed and escaped, beside its reply and reasoning", async () => {
  await inTempDir(async (dir) => {
    const { file, rendered } = await llmEpisode(dir, { appendToUser: HOSTILE });
    const text = await html(file);
    const calls = await episodeTranscript(file);
    assertEquals(calls.length, 48);
    // One collapsed block per call, right before the call's reasoning and reply.
    assertEquals(count(text, `<details class="prompt">`), 48);
    assertEquals(count(text, `<details class="prompt"`), 48);
    assertEquals(count(text, `</details><div class="sub">model reasoning</div>`), 48);
    for (const c of calls) {
      const [system, user] = rendered.get(`${c.round}/${c.agent}/${c.call}`)!;
      assertEquals(user.content.endsWith(HOSTILE), true);
      const summary = `<summary>messages sent · system ${
        system.content.length.toLocaleString("en-US")
      } chars, user ${user.content.length.toLocaleString("en-US")} chars</summary>`;
      assertEquals(
        text.includes(
          `${summary}<div class="sub">[system]</div><pre>${
            escapeHtml(system.content)
          }</pre><div class="sub">[user]</div><pre>${escapeHtml(user.content)}</pre></details>`,
        ),
        true,
        c.agent,
      );
    }
    assertEquals(text.includes(HOSTILE), false);
    assertEquals(/<script|<img|<b>bold/i.test(text), false);
    assertEquals(count(text, "<details"), count(text, "</details>"));
    assertEquals(text.includes("messages not verified"), false);
  });
  // A reply holding a <script> is text; a log without messages says so per call.
  const hostile = await hostileFrailEpisode("bank_run", "M0", 1);
  const text = await html(hostile);
  const [call] = ofType(hostile.events, "llm_call") as (EngineEvent & { content: string })[];
  assertEquals(call.content.includes(`<script>alert(\\"xss-script\\")</script>`), true);
  assertEquals(
    text.includes(`<div class="sub">reply</div><pre>${escapeHtml(call.content)}</pre>`),
    true,
  );
  assertEquals(
    count(
      text,
      `<div class="sub">messages sent: The log holds no messages for this call (its llm_call event has no messages field)</div>`,
    ),
    ofType(hostile.events, "llm_call").length,
  );
  assertEquals(text.includes("messages not verified"), false);
});

Deno.test("episodeBundle() shows a call whose logged messages were edited, in its report and in a banner", async () => {
  await inTempDir(async (dir) => {
    const { result } = await llmEpisode(dir);
    const events = result.events.map((e) => structuredClone(e));
    const target = events.find((e) =>
      e.type === "llm_call" && e.round === 3 && e.agent === "dep_04"
    )!;
    if (target.type !== "llm_call") throw new Error();
    const user = target.messages![1] as { role: string; content: string };
    user.content = user.content.replace("dep_04", "dep_05");
    const text = await html(events);
    const [problem] = (await episodeTranscript(events)).filter((c) => !c.verified);
    assertEquals(problem.problem!.startsWith("The logged messages do not match"), true);
    assertEquals(
      text.includes(
        `<div class="banner bad">1 model call: the logged messages are incomplete or do not match what was sent (prompt_hash); see the calls marked "messages not verified".</div>`,
      ),
      true,
    );
    // Beside the report (visible without opening anything) and under the call.
    assertEquals(
      count(
        text,
        `<span class="note bad">messages not verified: ${escapeHtml(problem.problem!)}</span>`,
      ),
      2,
    );
    assertEquals(count(text, `<details class="prompt" data-unverified="">`), 1);
    assertEquals(
      text.includes(`, user ${user.content.length} chars · not verified</summary>`),
      true,
    );
    // Its round opens by itself; the others (but round 1) stay closed.
    assertEquals(text.includes(`<details class="round" id="round-3" open>`), true);
    assertEquals(text.includes(`<details class="round" id="round-2">`), true);
  });
});

Deno.test("episodeBundle() labels parameters and internals in words and probabilities in percent", async () => {
  const plain = await runEpisode({ env: "bank_run", mechanism: "M1", seed: 1, clock: CLOCK });
  const text = await html(plain);
  // No overrides: no empty chip, no id; the chart's reference line reads as a sentence.
  assertEquals(text.includes(`<b>overrides</b>`), false);
  assertEquals(text.includes(`<b>changed parameters</b>`), false);
  assertEquals(text.includes("overrides_id"), false);
  assertEquals(text.includes("axis: y"), false);
  const start = plain.events[0] as unknown as { derived: { insolvency_boundary: number } };
  const boundary = start.derived.insolvency_boundary;
  assertEquals(
    text.includes(
      `<b>reference line</b>insolvency boundary at <span title="${boundary}">${
        fmtNumber(boundary)
      }</span> of cumulative withdrawn</span>`,
    ),
    true,
  );
  assertEquals(text.includes(`<b>insolvency boundary</b>`), true);
  // With the chart drawn, the line is on the chart and not repeated.
  const charted = (await episodeBundle(plain))["text/html"];
  assertEquals(charted.includes(`<b>reference line</b>`), false);
  // A reported probability (0-100) and the probability drawn with (0-1) are both percentages.
  const decision = ofType(plain.events, "decision")[0] as EngineEvent & {
    reported: number;
    probability: number;
  };
  assertEquals(decision.probability * 100 === decision.reported, true);
  assertEquals(text.includes(`<i>withdraw probability</i> ${decision.reported}%</span>`), true);
  assertEquals(text.includes(`<i>probability</i> ${decision.reported}%</span>`), true);
  assertEquals(/<i>p<\/i>|withdraw_probability<\/i>/.test(text), false);
  // No field of any event (mechanism details, transitions) is labelled with a raw snake_case key.
  assertEquals(text.match(/<i>[a-z]+_[a-z_]+<\/i>/g), null);
  // camelCase keys of the disclosure read as words.
  assertEquals(text.includes(`<th>deposits remaining</th>`), true);
  assertEquals(text.includes("depositsRemaining"), false);

  const changed = await runEpisode({
    env: "bank_run",
    mechanism: "M0",
    seed: 1,
    params: { earlySalePrice: 0.8, horizon: 3 },
    clock: CLOCK,
  });
  assertEquals(
    (await html(changed)).includes(
      `<b>changed parameters</b>early sale price 0.8, horizon 3</span>`,
    ),
    true,
  );
});

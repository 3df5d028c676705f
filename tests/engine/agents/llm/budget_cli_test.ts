// Money-safe runs through the command line (issue 18): a budget bounds the
// run as a whole, across a SIGKILL and resumes, against a provider double
// that bills every request it receives at the worst case.
import { assert, assertEquals } from "../../../_assert.ts";
import { readSpendLedger } from "../../../../engine/agents/llm/spend_ledger.ts";
import { readManifest } from "../../../../engine/grid/manifest.ts";
import { billingDouble, localModel, PRICE } from "./_billing_double.ts";
import { DENO_COMMAND } from "../../../../engine/cli/_permissions.ts";
import { makeTempDir } from "../../../_temp.ts";

const ROOT = new URL("../../../../", import.meta.url).pathname;
const CLI = new URL("../../../../engine/cli/grid.ts", import.meta.url).pathname;

/** 20 bank-run episodes of three depositors for one round: 3 calls each. */
const SPEC = {
  name: "billed",
  episodes: 20,
  blocks: [{
    game: "frail",
    envs: ["bank_run"],
    mechanisms: ["M0"],
    params: [{ depositors: 3, totalDeposits: 3, horizon: 1 }],
    agents: [{ model: "local" }],
  }],
};

async function setup(url: string, price: unknown = PRICE) {
  const tmp = await makeTempDir({ prefix: "coordlab-budget-" });
  await Deno.writeTextFile(`${tmp}/spec.json`, JSON.stringify(SPEC));
  await Deno.writeTextFile(
    `${tmp}/models.json`,
    JSON.stringify({ currency: "EUR", models: [localModel(url, price)] }),
  );
  return tmp;
}

function grid(tmp: string, ...extra: string[]) {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      CLI,
      "--spec",
      `${tmp}/spec.json`,
      "--models",
      `${tmp}/models.json`,
      "--out",
      `${tmp}/run`,
      "--concurrency",
      "4",
      "--no-progress",
      ...extra,
    ],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  });
}

Deno.test("grid CLI killed mid-run and resumed twice with the same --max-cost: the provider never bills past it", async () => {
  const double = billingDouble(PRICE, 40);
  try {
    const tmp = await setup(double.url);
    const child = grid(tmp, "--max-cost", "2").spawn();
    let exited = false;
    child.status.then(() => (exited = true));
    // Killed with requests in flight, once it has billed 0.8.
    while (!exited && double.billed().cost < 0.8) await new Promise((r) => setTimeout(r, 5));
    assert(!exited, "the grid ended before it could be killed");
    child.kill("SIGKILL");
    assertEquals((await child.output()).signal, "SIGKILL");
    const atKill = double.billed();

    // What the ledger says was spent is never below what was billed: requests
    // in flight at the kill count at their reservation.
    await new Promise((r) => setTimeout(r, 100)); // the double finishes billing what it received
    const afterKill = readSpendLedger(`${tmp}/run/spend.jsonl`);
    const killed = double.billed();
    assert(killed.requests >= atKill.requests);
    assert(afterKill.spend.total.cost >= killed.cost - 1e-12);
    assert(afterKill.spend.total.tokens >= killed.tokens);
    assert(afterKill.unsettled > 0, "the kill must catch requests in flight");
    // What a kill mid-write leaves, planted for certain: a torn settle line of
    // a request in flight. It is cut, and its request still counts at its reservation.
    const text = await Deno.readTextFile(`${tmp}/run/spend.jsonl`);
    const open = text.split("\n").filter(Boolean).map((l) => JSON.parse(l))
      .filter((l, _, all) =>
        l.type === "reserve" && !all.some((m) => m.id === l.id && m.type === "settle")
      );
    const torn = `{"type":"settle","id":"${open[0].id}","model":"local","usage":"rep`;
    await Deno.writeTextFile(`${tmp}/run/spend.jsonl`, torn, { append: true });

    const first = await grid(tmp, "--max-cost", "2").output();
    const firstOut = new TextDecoder().decode(first.stdout);
    assertEquals(first.code, 4, firstOut + new TextDecoder().decode(first.stderr));
    assert(double.billed().cost <= 2 + 1e-12, `billed ${double.billed().cost} past 2`);
    assert(firstOut.includes("Stopped: Cost budget reached: "), firstOut);
    // Without --cache, the resume pays again for the unfinished episodes' calls, and says so.
    assert(
      firstOut.includes(
        "\nWithout --cache, a model reply is kept only in the log of an episode that finished: a " +
          "resume plays the unfinished episodes from the start and pays again for any calls they " +
          "had made. Add --cache DIR to both commands to replay those replies instead.\n",
      ),
      firstOut,
    );
    assert(
      firstOut.includes(
        `The spend ledger ${tmp}/run/spend.jsonl ended in a torn line (a kill mid-write), cut: ` +
          `${torn.length} bytes (${JSON.stringify(torn)}); its request counts at its reservation.`,
      ),
      firstOut,
    );
    assert(
      firstOut.includes(
        `${afterKill.unsettled} requests of an earlier session never settled (killed in flight): ` +
          "counted at their reservation.",
      ),
      firstOut,
    );

    const second = await grid(tmp, "--max-cost", "2").output();
    const secondOut = new TextDecoder().decode(second.stdout);
    assertEquals(second.code, 4, secondOut);
    const billed = double.billed();
    assert(billed.cost <= 2 + 1e-12, `billed ${billed.cost} past 2`);
    // The double bills the worst case, as reserved: after the kill, the
    // resumes' ledger lines match it to the request and the token.
    const ledger = readSpendLedger(`${tmp}/run/spend.jsonl`);
    assertEquals(ledger.unsettled, afterKill.unsettled);
    assertEquals(
      ledger.spend.total.requests - afterKill.spend.total.requests,
      billed.requests - killed.requests,
    );
    assertEquals(
      ledger.spend.total.tokens - afterKill.spend.total.tokens,
      billed.tokens - killed.tokens,
    );

    // The manifest's spend and the resume line: the limit, what is left, and
    // that the same limit bounds the whole run.
    const manifest = (await readManifest(`${tmp}/run`))!;
    const spend = manifest.spend!;
    assertEquals([spend.ledger, spend.limit], ["spend.jsonl", { maxCost: 2 }]);
    // The models file's currency, recorded for the viewer.
    assertEquals(spend.currency, "EUR");
    assertEquals(spend.spent, ledger.spend.total);
    assertEquals(spend.remaining, { tokens: null, cost: Math.max(0, 2 - spend.spent.cost) });
    assertEquals(spend.by_model.local, ledger.spend.total);
    assertEquals(manifest.sessions.length, 3);
    assertEquals(manifest.sessions[2].limit, { maxCost: 2 });
    // The killed session's manifest says what it spent by its start (preflight's request).
    assertEquals(manifest.sessions[0].spent!.requests, 1);
    assertEquals(
      manifest.sessions.slice(1).reduce((n, s) => n + s.spent!.requests, 0) +
        afterKill.spend.total.requests,
      ledger.spend.total.requests,
    );
    const left = spend.remaining.cost!.toFixed(4);
    assert(
      secondOut.includes(
        `The limit bounds the whole run, every session, not each command: ${left} of ` +
          "--max-cost 2 left, so resuming with the same limit ",
      ),
      secondOut,
    );
    assert(
      secondOut.includes(
        `Spent: ${spend.spent.tokens} tokens, estimated cost ${
          spend.spent.cost.toFixed(4)
        }, ${ledger.spend.total.requests} requests, every session`,
      ),
      secondOut,
    );
    assert(secondOut.includes(`Resume with: ${DENO_COMMAND} task grid `), secondOut);
  } finally {
    await double.close();
  }
});

Deno.test("grid CLI refuses a models file with a price of 1e308, naming the field", async () => {
  const double = billingDouble(PRICE);
  try {
    const tmp = await makeTempDir({ prefix: "coordlab-budget-" });
    await Deno.writeTextFile(`${tmp}/spec.json`, JSON.stringify(SPEC));
    // Written as text: 1e308 survives JSON, and times any token count it overflows to a NaN cost.
    await Deno.writeTextFile(
      `${tmp}/models.json`,
      `{"models":[{"id":"local","baseURL":"${double.url}","model":"coordlab-stay","testDouble":true,` +
        `"price":{"inputPerMillion":1e308,"outputPerMillion":1}}]}`,
    );
    const r = await grid(tmp, "--max-cost", "0.01").output();
    const err = new TextDecoder().decode(r.stderr);
    assertEquals(r.code, 2, err);
    assert(
      err.startsWith(
        `${tmp}/models.json: Model config 0 ("local"): Invalid model config parameter "price.inputPerMillion": Too big: ` +
          "expected number to be <=10000 (got 1e+308)",
      ),
      err,
    );
    assertEquals(double.billed().requests, 0);
  } finally {
    await double.close();
  }
});

/**
 * CI check: every executed notebook under notebooks/ has no error output, no
 * per-cell timing metadata (which would change on every execution), and
 * every code cell that declares `metadata.coordlab.expect` (a list of MIME
 * types; `text/plain` is also met by stream output) has those outputs. A cell
 * that silently lost its output therefore fails CI.
 *
 * Usage: deno run --allow-read .ci/check_notebooks.ts [notebooks/*.ipynb]
 */
interface Output {
  output_type: string;
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
}
interface Cell {
  cell_type: string;
  source: string | string[];
  outputs?: Output[];
  metadata?: { coordlab?: { expect?: string[] }; execution?: unknown };
}

const files = Deno.args.length
  ? Deno.args
  : [...Deno.readDirSync("notebooks")].filter((e) => e.name.endsWith(".ipynb")).map((e) =>
    `notebooks/${e.name}`
  ).sort();
let problems = 0;
for (const file of files) {
  const nb = JSON.parse(Deno.readTextFileSync(file)) as { cells: Cell[] };
  let checked = 0;
  nb.cells.forEach((cell, i) => {
    if (cell.cell_type !== "code") return;
    const outputs = cell.outputs ?? [];
    if (cell.metadata?.execution !== undefined) {
      console.error(`${file}: cell ${i} carries execution timing (run .ci/notebooks.sh)`);
      problems++;
    }
    for (const o of outputs) {
      if (o.output_type === "error") {
        console.error(`${file}: cell ${i} raised ${o.ename}: ${o.evalue}`);
        problems++;
      }
    }
    const expect = cell.metadata?.coordlab?.expect ?? [];
    const have = new Set(outputs.flatMap((o) => [
      ...Object.keys(o.data ?? {}),
      ...(o.output_type === "stream" ? ["text/plain"] : []),
    ]));
    for (const mime of expect) {
      if (!have.has(mime)) {
        console.error(`${file}: cell ${i} is missing its ${mime} output`);
        problems++;
      }
    }
    if (expect.length) checked++;
  });
  console.log(`${file}: ${checked} cells with expected outputs checked`);
  if (checked === 0) {
    console.error(`${file}: no cell declares expected outputs`);
    problems++;
  }
}
if (problems) {
  console.error(`${problems} notebook problem(s)`);
  Deno.exit(1);
}

// docs/grids.md holds the spec reference generated from the zod schemas:
// a schema changed without `deno task docs:spec` fails here.
import { assert, assertEquals, assertThrows } from "../../_assert.ts";
import {
  REFERENCE_END,
  REFERENCE_START,
  specReference,
  withReference,
} from "../../../engine/grid/_spec_reference.ts";

const DOC = new URL("../../../docs/grids.md", import.meta.url);

Deno.test("docs/grids.md holds the spec reference the schemas generate (run `deno task docs:spec`)", async () => {
  const text = await Deno.readTextFile(DOC);
  const a = text.indexOf(REFERENCE_START);
  const b = text.indexOf(REFERENCE_END);
  assert(a >= 0 && b > a, "docs/grids.md lost its spec reference markers");
  assertEquals(
    text.slice(a, b + REFERENCE_END.length),
    specReference(),
    "docs/grids.md and the spec's schemas differ: run `deno task docs:spec`",
  );
});

Deno.test("specReference() documents every field of every block and each rule's parameters", () => {
  const text = specReference().replace(/ +/g, " ");
  for (
    const row of [
      "| `blocks` (required) | non-empty list of FRAIL, Stag Hunt, branch and registered games' blocks (below) |",
      "| `params` | non-empty list of { name?, parameters... } |",
      "| `payoffs` | { RS, HS, RF, HF }; or [number, number, number, number]; or non-empty list of " +
      "({ RS, HS, RF, HF }; or [number, number, number, number]) |",
      "| `rule` | a rule (belief rules, below), or a non-empty list of rules |",
      "| | `lambda` | number in [0, 1] | Carryover strength lambda in [0, 1]. Default 0.5. |",
      "| `from` (required) | text |",
    ]
  ) assert(text.includes(row), `missing: ${row}`);
});

Deno.test("withReference() refuses a document without the markers", () => {
  assertThrows(
    () => withReference("# no markers\n", specReference()),
    RangeError,
    "The document has no spec reference section",
  );
});

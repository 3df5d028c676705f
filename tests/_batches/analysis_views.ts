// A batch of the default test task: tests/_batches.ts says which files, and why.
import { importBatch } from "../_batches.ts";

await importBatch(import.meta.url);

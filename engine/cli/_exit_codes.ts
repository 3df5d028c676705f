/**
 * The exit codes the commands share beyond 0, 1 and 2 (each command's doc
 * lists all of its own).
 *
 * @module
 */

/** A file of the run folder, the response cache or the spend ledger could not be written (EX_IOERR). */
export const EXIT_WRITE = 74;

/**
 * Stopped by the budget (`--max-cost`, `--max-tokens`): the folder resumes,
 * and resuming with the same limit starts nothing, so a raised limit is what
 * goes on. Not 130, which a shell reads as a Ctrl-C: a loop that resumes an
 * interrupted run would resume this one and stop again at once.
 */
export const EXIT_BUDGET = 4;

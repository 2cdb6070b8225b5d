package io.whale.bench.paper;

/**
 * One run of a {@link PaperSweep} (Figs. 11–12): its system of the application at the highest P, repeat
 * {@code result.repeat()}, with the swept key at {@code value}.
 */
record PaperSweepRun(PaperSweep sweep, long value, PaperResult result) {
}

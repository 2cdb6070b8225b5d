package io.whale.bench.paper;

import io.whale.bench.RateStepRun;

/**
 * One rate-step run of Figs. 23–24: a system of the application at P through the offered rate's steps, repeat
 * {@code repeat}; the steps are shares of {@code baseRatePerSecond}, which {@code baseFrom} says how it was set: 4/3 of
 * the sequential structure's sustainable rate at that P (median over the rounds), so that the steps cross what it
 * carries, or, when the sequential structure did not run, the non-blocking tree's own (null in runs before 2026-11-30,
 * which all stepped from the tree's).
 */
record PaperStepRun(String app, String system, int matchers, int repeat, double baseRatePerSecond, String baseFrom, RateStepRun run) {
}

package io.whale.bench.paper;

import io.whale.bench.RateStepRun;

/**
 * One rate-step run of Figs. 23–24: a system of the application at P through the offered rate's steps, repeat
 * {@code repeat}; the steps are shares of {@code baseRatePerSecond}, the non-blocking tree's sustainable rate at that P
 * (median over the rounds), so that the highest step is what that tree just carries.
 */
record PaperStepRun(String app, String system, int matchers, int repeat, double baseRatePerSecond, RateStepRun run) {
}

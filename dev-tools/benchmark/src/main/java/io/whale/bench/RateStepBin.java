package io.whale.bench;

/**
 * One 100-ms bin of a rate-step run, from the application's reporter: its start, in seconds after the schedule began;
 * the results that arrived in it, per second; their mean end-to-end latency (NaN for none). Finer than the one-second
 * samples, so that a step answered within a second shows.
 */
public record RateStepBin(double atSeconds, double resultsPerSecond, double meanLatencyMillis) {
}

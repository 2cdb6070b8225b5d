package io.whale.bench.paper;

/**
 * What one run measured. {@code capacityPerSecond}: the records the topology drained per second from a standing
 * backlog (its consumer group's committed offsets); over that window the machine's busy cores, the broadcast source's
 * host's link (Mbit/s sent) and its bytes sent per 10,000 records drained at that rate. {@code own}: a Poisson phase at the
 * load share of that capacity; {@code common}: one at the rate common to every system of the same application and P
 * (null when none was run). {@code dataPasses}: how often the feed read its data file (more than 1: records repeat).
 */
record PaperResult(String app, String system, int matchers, int workers, int repeat, String started, double capacityPerSecond,
                   double machineCoresBusy, double sourceLinkMbit, double sourceBytesPer10kRecords, int sourceHost,
                   PhaseResult own, PhaseResult common, long dataPasses) {
}

package io.whale.bench.paper;

import io.whale.bench.BenchSystem;

/** One run: an application with P matchers over W workers on one system, repeat number {@code repeat} (from 1). */
record PaperPoint(PaperApp app, BenchSystem system, int matchers, int workers, int repeat) {
    /** The topology's name, which is also its topic's and (for stock) its consumer group's. */
    String name() {
        return "paper-" + app.option() + "-" + system.option() + "-p" + matchers + "-r" + repeat;
    }
}

package io.whale.examples.gen;

import java.io.Closeable;

/** Where generated records go: a CSV file or a Kafka topic. {@link #close()} flushes and reports any write failure. */
public interface RecordSink extends Closeable {
    void write(String key, String csvLine);
}

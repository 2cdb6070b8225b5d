package io.whale.examples.gen;

/** A generated record: one CSV line, and the key it is partitioned by when produced into Kafka. */
public interface CsvRecord {
    String key();

    String toCsv();
}

package io.whale.examples.gen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/** Streams generated records into a sink, with a progress bar on stderr for large runs. */
public final class GeneratorRun {
    /** Runs at least this long get a progress bar unless it is switched off. */
    public static final long PROGRESS_THRESHOLD = 100_000;

    private GeneratorRun() {
    }

    /**
     * Writes every record of {@code records} to {@code sink} and closes the sink.
     *
     * @param expected how many records the iterator will yield (for the progress bar)
     * @return how many records were written
     */
    public static long writeAll(Iterator<? extends CsvRecord> records, long expected, RecordSink sink,
                                String label, boolean progress) {
        long written = 0;
        try (RecordSink out = sink; ProgressBar bar = progress && expected >= PROGRESS_THRESHOLD ? bar(label, expected) : null) {
            while (records.hasNext()) {
                CsvRecord record = records.next();
                out.write(record.key(), record.toCsv());
                written++;
                if (bar != null && (written & 0xFFF) == 0) {
                    bar.stepTo(written);
                }
            }
            if (bar != null) {
                bar.stepTo(written);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return written;
    }

    private static ProgressBar bar(String label, long expected) {
        return new ProgressBarBuilder()
                .setTaskName(label)
                .setInitialMax(expected)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(500)
                .setConsumer(new ConsoleProgressBarConsumer(System.err, 100))
                .showSpeed()
                .build();
    }
}

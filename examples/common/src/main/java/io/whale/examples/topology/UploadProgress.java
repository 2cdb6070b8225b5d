package io.whale.examples.topology;

import java.io.Console;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.util.Map;
import org.apache.storm.StormSubmitter;
import org.apache.storm.StormSubmitter.ProgressListener;
import org.apache.storm.generated.AlreadyAliveException;
import org.apache.storm.generated.AuthorizationException;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.StormTopology;

/**
 * Submits a topology as {@code StormSubmitter.submitTopologyWithProgressBar} does, with Storm's bar redrawn in place
 * on a terminal, but with a single summary line when the output goes to a file or a pipe, where every redraw of the
 * bar would land as a line of its own (about 90 for a 27 MB jar): what the example applications and their demos
 * submit with ({@link TopologyLauncher}), on Whale and on stock Storm alike (it is shaded into their jars).
 */
public final class UploadProgress {
    private UploadProgress() {
    }

    /** Submits {@code topology}: Storm's bar on a terminal, else one line on standard output once the jar is uploaded. */
    public static void submit(String name, Map<String, Object> conf, StormTopology topology)
        throws AlreadyAliveException, InvalidTopologyException, AuthorizationException {
        if (standardStreamsAreTerminal()) {
            StormSubmitter.submitTopologyWithProgressBar(name, conf, topology);
        } else {
            StormSubmitter.submitTopology(name, conf, topology, null, new SummaryLine(System.out));
        }
    }

    /**
     * Up to Java 21 a console exists only when the JVM runs on a terminal; from Java 22 it exists for redirected
     * streams too, and {@code Console.isTerminal()} (absent before 22, hence reflection) tells the two apart.
     */
    static boolean standardStreamsAreTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (NoSuchMethodException beforeJava22) {
            return true;
        } catch (IllegalAccessException | InvocationTargetException e) {
            return false;
        }
    }

    /** Says nothing while the jar uploads, and one line when it is done. */
    static final class SummaryLine implements ProgressListener {
        private final PrintStream out;

        SummaryLine(PrintStream out) {
            this.out = out;
        }

        @Override
        public void onStart(String srcFile, String targetFile, long totalBytes) {
        }

        @Override
        public void onProgress(String srcFile, String targetFile, long bytesUploaded, long totalBytes) {
        }

        @Override
        public void onCompleted(String srcFile, String targetFile, long totalBytes) {
            out.printf("File '%s' uploaded to '%s' (%d bytes)%n", srcFile, targetFile, totalBytes);
        }
    }
}

package io.whale.submit;

import java.io.Console;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import org.apache.storm.StormSubmitter.ProgressListener;

/**
 * Chooses how {@code StormSubmitter.submitTopologyWithProgressBar} shows the jar upload: Storm's bar, redrawn in
 * place, on a terminal; a single summary line when the output goes to a file or a pipe, where every redraw of the
 * bar would land as a line of its own (about 90 for a 27 MB jar).
 */
public final class UploadProgress {
    private UploadProgress() {
    }

    /** {@code terminalBar} when standard output is a terminal, else one line on standard output once the jar is uploaded. */
    public static ProgressListener onStandardOutput(ProgressListener terminalBar) {
        return choose(standardStreamsAreTerminal(), terminalBar, System.out);
    }

    static ProgressListener choose(boolean terminal, ProgressListener terminalBar, PrintStream out) {
        return terminal ? terminalBar : new SummaryLine(out);
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

package io.whale.submit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.storm.StormSubmitter.ProgressListener;
import org.junit.jupiter.api.Test;

class UploadProgressTest {
    private static final long CHUNK = 307_200;
    private static final long JAR = 90 * CHUNK;

    @Test
    void shouldPrintOneSummaryLineWhenTheOutputIsNotATerminal() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RecordingBar bar = new RecordingBar();

        upload(UploadProgress.choose(false, bar, new PrintStream(bytes, true, StandardCharsets.UTF_8)));

        assertEquals(List.of("File 'topology.jar' uploaded to '/nimbus/inbox/stormjar-1.jar' (" + JAR + " bytes)"),
            bytes.toString(StandardCharsets.UTF_8).lines().toList());
        assertEquals(List.of(), bar.calls, "Storm's bar draws nothing");
    }

    @Test
    void shouldDrawStormsBarOnATerminal() {
        RecordingBar bar = new RecordingBar();
        assertSame(bar, UploadProgress.choose(true, bar, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
    }

    @Test
    void shouldSeeNoTerminalWhenStandardOutputIsAPipe() {
        // Surefire runs the tests in a forked JVM whose standard streams are pipes.
        assertFalse(UploadProgress.standardStreamsAreTerminal());
    }

    /** What StormSubmitter.submitJarAs calls while uploading a 90-chunk jar: progress after each chunk and the empty last read. */
    private static void upload(ProgressListener listener) {
        String src = "topology.jar";
        String target = "/nimbus/inbox/stormjar-1.jar";
        listener.onStart(src, target, JAR);
        for (long sent = CHUNK; sent <= JAR; sent += CHUNK) {
            listener.onProgress(src, target, sent, JAR);
        }
        listener.onProgress(src, target, JAR, JAR);
        listener.onCompleted(src, target, JAR);
    }

    private static final class RecordingBar implements ProgressListener {
        final List<String> calls = new ArrayList<>();

        @Override
        public void onStart(String srcFile, String targetFile, long totalBytes) {
            calls.add("start");
        }

        @Override
        public void onProgress(String srcFile, String targetFile, long bytesUploaded, long totalBytes) {
            calls.add("progress " + bytesUploaded);
        }

        @Override
        public void onCompleted(String srcFile, String targetFile, long totalBytes) {
            calls.add("completed");
        }
    }
}

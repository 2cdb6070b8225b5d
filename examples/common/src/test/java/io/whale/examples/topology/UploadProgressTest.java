package io.whale.examples.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.storm.StormSubmitter.ProgressListener;
import org.junit.jupiter.api.Test;

class UploadProgressTest {
    private static final long CHUNK = 307_200;
    private static final long JAR = 90 * CHUNK;

    @Test
    void shouldPrintOneSummaryLineWhenTheOutputIsNotATerminal() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        upload(new UploadProgress.SummaryLine(new PrintStream(bytes, true, StandardCharsets.UTF_8)));

        assertEquals(List.of("File 'topology.jar' uploaded to '/nimbus/inbox/stormjar-1.jar' (" + JAR + " bytes)"),
            bytes.toString(StandardCharsets.UTF_8).lines().toList());
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
}

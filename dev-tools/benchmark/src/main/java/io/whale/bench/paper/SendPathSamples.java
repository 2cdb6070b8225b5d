package io.whale.bench.paper;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Figs. 25–26: where the broadcast source's worker spent its CPU sending, from the JDK Flight Recorder's execution
 * samples of the capacity window (every {@code period} a running thread's Java stack; threads in native code, as in a
 * socket write, are not sampled, so this is the Java side of sending). A sample is of the **send path** when it is on
 * the source component's executor inside Storm's emit transfer ({@code ExecutorTransfer}) or inside Whale's batch of an
 * emit's remote copies ({@code WocEmitBatcher}: the collector closes it after the transfer, and the close serializes the
 * values once and frames them per worker), or on the threads that only
 * send: Storm's {@code Worker-Transfer} thread and its Netty client's I/O threads ({@code client-worker-*}), or the
 * RDMA transport's threads but its receivers; of it, **serialization** when a Kryo serializer of Storm's is on the stack
 * (stock Storm serializes each destination task's copy there, Whale once per emit). Pure but for {@link #read}.
 */
record SendPathSamples(long samples, long send, long serialize, double periodMillis) {
    enum Kind { OTHER, SEND, SERIALIZE }

    /** The classes of the source executor's emit path: Storm's transfer, and Whale's batch of an emit's copies. */
    private static final List<String> EMIT_PATH = List.of("org.apache.storm.executor.ExecutorTransfer", "io.whale.send.WocEmitBatcher");
    private static final String SERIALIZER = "org.apache.storm.serialization.Kryo";

    /** What a sample of {@code thread} with this stack (frames as {@code class.method}, innermost first) is. */
    static Kind classify(String thread, String sourceComponent, List<String> frames) {
        boolean sending;
        if (thread.contains("-" + sourceComponent + "-executor[")) {
            sending = frames.stream().map(SendPathSamples::frameClass)
                .anyMatch(c -> EMIT_PATH.stream().anyMatch(e -> c.equals(e) || c.startsWith(e + "$")));
        } else {
            sending = thread.equals("Worker-Transfer") || thread.startsWith("client-worker")
                || thread.startsWith("whale-rdma-") && !thread.startsWith("whale-rdma-receive-") && !thread.startsWith("whale-rdma-ucx-accept");
        }
        if (!sending) {
            return Kind.OTHER;
        }
        boolean serializing = frames.stream().anyMatch(f -> f.startsWith(SERIALIZER) && f.substring(f.lastIndexOf('.') + 1).startsWith("serialize"));
        return serializing ? Kind.SERIALIZE : Kind.SEND;
    }

    /** The class of a frame named {@code class.method} (a nested class keeps its {@code $}). */
    private static String frameClass(String frame) {
        return frame.substring(0, Math.max(0, frame.lastIndexOf('.')));
    }

    /**
     * The execution samples taken from {@code fromMillis} to {@code toMillis} (epoch) in the recordings (one per worker
     * of the source's host), classified.
     */
    static SendPathSamples read(List<Path> recordings, String sourceComponent, Duration period, long fromMillis, long toMillis)
        throws IOException {
        long all = 0;
        long send = 0;
        long serialize = 0;
        for (Path recording : recordings) {
            try (RecordingFile file = new RecordingFile(recording)) {
                while (file.hasMoreEvents()) {
                    RecordedEvent e = file.readEvent();
                    long at = e.getStartTime().toEpochMilli();
                    if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null || at < fromMillis
                        || at > toMillis) {
                        continue;
                    }
                    all++;
                    RecordedThread thread = e.getThread("sampledThread");
                    List<String> frames = e.getStackTrace().getFrames().stream().map(SendPathSamples::name).toList();
                    Kind kind = classify(thread == null || thread.getJavaName() == null ? "" : thread.getJavaName(), sourceComponent, frames);
                    send += kind == Kind.OTHER ? 0 : 1;
                    serialize += kind == Kind.SERIALIZE ? 1 : 0;
                }
            }
        }
        return new SendPathSamples(all, send, serialize, period.toNanos() / 1e6);
    }

    private static String name(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    /** CPU time on the send path, milliseconds (samples × period). */
    double sendMillis() {
        return send * periodMillis;
    }

    /** Serialization's share of the send path's samples, percent (NaN without one). */
    double serializationPercent() {
        return send == 0 ? Double.NaN : 100.0 * serialize / send;
    }
}

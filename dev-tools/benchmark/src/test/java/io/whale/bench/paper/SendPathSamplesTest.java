package io.whale.bench.paper;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SendPathSamplesTest {
    private static final String SERIALIZE = "org.apache.storm.serialization.KryoValuesSerializer.serializeInto";
    private static final String EMIT = "org.apache.storm.executor.ExecutorTransfer.tryTransfer";
    private static final int SAMPLES = 5;

    @Test
    void shouldCountTheSourceExecutorOnlyInsideTheEmitTransferOrTheWocBatchAndTheSendingThreadsWhole() {
        String source = "Thread-17-orders-executor[9, 9]";
        assertEquals(SendPathSamples.Kind.SERIALIZE, SendPathSamples.classify(source, "orders", List.of(
            "com.esotericsoftware.kryo.Kryo.writeObject", SERIALIZE, EMIT, "org.apache.storm.kafka.spout.KafkaSpout.nextTuple")));
        assertEquals(SendPathSamples.Kind.SEND, SendPathSamples.classify(source, "orders", List.of("io.whale.send.WocEmitBatcher.endEmit", EMIT)));
        assertEquals(SendPathSamples.Kind.SERIALIZE, SendPathSamples.classify(source, "orders", List.of(SERIALIZE,
            "io.whale.send.WocEmitBatcher.sendByWorker", "io.whale.send.WocEmitBatcher$2.close",
            "org.apache.storm.executor.spout.SpoutOutputCollectorImpl.sendSpoutMsg")),
            "WOC serializes an emit's values once when the collector closes the emit's batch, after the transfer");
        assertEquals(SendPathSamples.Kind.SEND, SendPathSamples.classify(source, "orders", List.of("io.whale.send.WocEmitBatcher$2.close")));
        assertEquals(SendPathSamples.Kind.OTHER, SendPathSamples.classify(source, "orders",
            List.of("org.apache.kafka.clients.consumer.KafkaConsumer.poll")), "the spout's own work is not sending");
        assertEquals(SendPathSamples.Kind.OTHER, SendPathSamples.classify("Thread-18-matcher-executor[4, 4]", "orders", List.of(EMIT)),
            "another component's emits are not the broadcast's");
        assertEquals(SendPathSamples.Kind.SEND, SendPathSamples.classify("Worker-Transfer", "orders", List.of("java.util.ArrayList.add")));
        assertEquals(SendPathSamples.Kind.SERIALIZE, SendPathSamples.classify("Worker-Transfer", "orders",
            List.of("org.apache.storm.serialization.KryoTupleSerializer.serialize")));
        assertEquals(SendPathSamples.Kind.SEND, SendPathSamples.classify("client-worker-1", "orders", List.of("io.netty.channel.X.flush")));
        assertEquals(SendPathSamples.Kind.SEND, SendPathSamples.classify("whale-rdma-ucx-progress", "orders", List.of("x.Y.z")));
        assertEquals(SendPathSamples.Kind.OTHER, SendPathSamples.classify("whale-rdma-receive-6700-1", "orders", List.of("x.Y.z")));
        assertEquals(SendPathSamples.Kind.OTHER, SendPathSamples.classify("Netty-server-localhost-6700-worker-1", "orders",
            List.of("org.apache.storm.serialization.KryoTupleDeserializer.deserialize")), "receiving is not sending");
    }

    @Test
    void shouldReadTheExecutionSamplesOfARecording(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("source.jfr");
        java.util.Date started = new java.util.Date();
        CountDownLatch running = new CountDownLatch(1);
        Thread transfer = new Thread(() -> {
            running.countDown();
            long x = 0;
            while (!Thread.currentThread().isInterrupted()) {
                x += Long.numberOfTrailingZeros(x + System.nanoTime());
            }
        }, "Worker-Transfer");
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            recording.start();
            transfer.start();
            running.await();
            try {
                // A sample needs the sampled thread on a core to answer the sampler's suspend: on a machine busy with other
                // builds few of them succeed, so the test asks for a few, polls sparingly (each poll dumps the recording)
                // and allows minutes.
                await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                    .until(() -> transferSamples(recording, dir) >= SAMPLES);
            } finally {
                transfer.interrupt();
                transfer.join();
            }
            recording.stop();
            recording.dump(file);
        }

        SendPathSamples samples = SendPathSamples.read(List.of(file), "orders", Duration.ofMillis(10), 0, Long.MAX_VALUE);
        SendPathSamples before = SendPathSamples.read(List.of(file), "orders", Duration.ofMillis(10), 0, started.getTime() - 1);

        assertTrue(samples.send() >= SAMPLES, samples.toString());
        assertTrue(samples.samples() >= samples.send());
        assertEquals(0, samples.serialize());
        assertEquals(samples.send() * 10.0, samples.sendMillis(), 1e-9);
        assertEquals(0, before.samples(), "none taken before the window");
    }

    private static long transferSamples(Recording recording, Path dir) throws Exception {
        Path snapshot = dir.resolve("snapshot.jfr");
        recording.dump(snapshot);
        return SendPathSamples.read(List.of(snapshot), "orders", Duration.ofMillis(10), 0, Long.MAX_VALUE).send();
    }
}

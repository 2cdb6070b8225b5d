package io.whale.rdma.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.messaging.IContext;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.messaging.TransportFactory;

/**
 * Receiving worker of {@link TransportBenchmark}: binds a Storm messaging context (the transport named by the
 * first argument) and, per run, counts messages and bytes and records one-way latency. Each message starts with
 * the sender's {@code System.nanoTime()} (one clock for the processes of a Linux host) and a run id; a negative
 * run id ends the run and makes this process print {@code RESULT {json}}.
 */
public final class TransportBenchReceiver {
    private final ObjectMapper json = new ObjectMapper();
    private final Histogram latency = new Histogram(60_000_000_000L, 3);
    private long messages;
    private long bytes;
    private long firstSent = -1;
    private long lastArrival;

    private TransportBenchReceiver() {
    }

    public static void main(String[] args) throws Exception {
        IContext context = TransportFactory.makeContext(TransportBenchmark.conf(args[0]), null);
        TransportBenchReceiver receiver = new TransportBenchReceiver();
        IConnection server = context.bind(TransportBenchmark.TOPOLOGY, 0, receiver::onBatch, null);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            context.term();
        }));
        System.out.println("LISTENING " + server.getPort());
        Thread.currentThread().join();
    }

    /** Netty calls this on several IO threads, the RDMA transport on its progress thread. */
    private synchronized void onBatch(List<TaskMessage> batch) {
        long now = System.nanoTime();
        for (TaskMessage message : batch) {
            ByteBuffer header = ByteBuffer.wrap(message.message());
            long sent = header.getLong();
            int run = header.getInt();
            if (run < 0) {
                report(-run - 1);
                continue;
            }
            if (firstSent < 0) {
                firstSent = sent;
            }
            latency.recordValue(Math.max(0, now - sent));
            lastArrival = now;
            messages++;
            bytes += message.message().length;
        }
    }

    private void report(int run) {
        double seconds = (lastArrival - firstSent) / 1e9;
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("run", run);
        result.put("messages", messages);
        result.put("bytes", bytes);
        result.put("seconds", seconds);
        result.put("latencyP50Micros", latency.getValueAtPercentile(50) / 1000.0);
        result.put("latencyP99Micros", latency.getValueAtPercentile(99) / 1000.0);
        try {
            System.out.println("RESULT " + json.writeValueAsString(result));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        latency.reset();
        messages = 0;
        bytes = 0;
        firstSent = -1;
    }
}

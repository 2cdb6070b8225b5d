package io.whale.rdma.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.whale.rdma.RdmaConfig;
import io.whale.rdma.channel.ChannelServer;
import io.whale.rdma.channel.RdmaTransport;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Receiving process of {@link ChannelBenchmark}. Every message starts with the sender's {@code System.nanoTime()}
 * (one clock for all processes of a Linux host) and a run id; a negative run id ends a run and makes this process
 * print {@code RESULT {json}} with the run's one-way latency percentiles. Args: secret.
 */
public final class BenchReceiver {
    private BenchReceiver() {
    }

    public static void main(String[] args) throws Exception {
        ObjectMapper json = new ObjectMapper();
        Histogram latency = new Histogram(60_000_000_000L, 3);
        long[] counts = new long[2]; // messages, bytes
        RdmaTransport transport = RdmaTransport.start(RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, args[0])));
        ChannelServer server = transport.bind(new InetSocketAddress("127.0.0.1", 0), batch -> {
            long now = System.nanoTime();
            batch.forEachMessage(message -> {
                long sent = message.getLong(message.position());
                int run = message.getInt(message.position() + Long.BYTES);
                if (run < 0) {
                    Map<String, Object> result = new LinkedHashMap<>();
                    result.put("run", -run - 1);
                    result.put("messages", counts[0]);
                    result.put("bytes", counts[1]);
                    result.put("latencyP50Micros", latency.getValueAtPercentile(50) / 1000.0);
                    result.put("latencyP99Micros", latency.getValueAtPercentile(99) / 1000.0);
                    result.put("latencyMaxMicros", latency.getMaxValue() / 1000.0);
                    result.put("latencyMeanMicros", latency.getMean() / 1000.0);
                    try {
                        System.out.println("RESULT " + json.writeValueAsString(result));
                    } catch (java.io.IOException e) {
                        throw new IllegalStateException(e);
                    }
                    latency.reset();
                    counts[0] = 0;
                    counts[1] = 0;
                    return;
                }
                latency.recordValue(Math.max(0, now - sent));
                counts[0]++;
                counts[1] += message.remaining();
            });
            batch.release();
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            transport.close();
        }));
        System.out.println("LISTENING " + server.address().getPort());
        Thread.currentThread().join();
    }
}

package io.whale.rdma.channel;

import io.whale.rdma.RdmaConfig;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Child-process receiver for the two-process tests. Checks every byte and the order of {@link TestMessages}
 * and prints {@code LISTENING port}, then {@code DELIVERED first last} for every batch (before releasing it),
 * {@code ERROR ...} on a wrong byte or a gap, and {@code LOST reason} when a sender's connection ends.
 * Args: port secret seed maxLength holdMillis (a slow consumer keeps each batch that long before releasing it)
 * [host to bind, default 127.0.0.1].
 */
public final class ReceiverProcess {
    private ReceiverProcess() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String secret = args[1];
        long seed = Long.parseLong(args[2]);
        int maxLength = Integer.parseInt(args[3]);
        long holdMillis = Long.parseLong(args[4]);
        String host = args.length > 5 ? args[5] : "127.0.0.1";
        ScheduledExecutorService releaser = Executors.newSingleThreadScheduledExecutor();
        long[] expected = {-1};
        RdmaTransport transport = RdmaTransport.start(RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, secret)));
        ChannelServer server = transport.bind(new InetSocketAddress(host, port), batch -> {
            long[] range = {-1, -1};
            try {
                batch.forEachMessage(message -> {
                    long index = TestMessages.check(seed, message, maxLength);
                    if (expected[0] >= 0 && index != expected[0]) {
                        throw new AssertionError("gap or reorder: got " + index + ", expected " + expected[0]);
                    }
                    if (range[0] < 0) {
                        range[0] = index;
                    }
                    range[1] = index;
                    expected[0] = index + 1;
                });
            } catch (AssertionError e) {
                System.out.println("ERROR " + e.getMessage());
            }
            System.out.println("DELIVERED " + range[0] + " " + range[1]);
            if (holdMillis > 0) {
                releaser.schedule(batch::release, holdMillis, TimeUnit.MILLISECONDS);
            } else {
                batch.release();
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            transport.close();
        }));
        System.out.println("LISTENING " + server.address().getPort());
        Thread.currentThread().join();
    }
}

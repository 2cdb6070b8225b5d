package io.whale.rdma.channel;

import io.whale.rdma.RdmaConfig;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Child-process sender for the two-process tests: sends {@code count} {@link TestMessages}, flushing at random
 * points so work requests have random sizes, waits until the receiver consumed everything and prints
 * {@code DRAINED sent batches}. Args: port secret seed maxLength count ringBytes mmsBytes [host, default 127.0.0.1].
 */
public final class SenderProcess {
    private SenderProcess() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        long seed = Long.parseLong(args[2]);
        int maxLength = Integer.parseInt(args[3]);
        int count = Integer.parseInt(args[4]);
        RdmaConfig config = RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, args[1],
                RdmaConfig.RING_BYTES, args[5], RdmaConfig.MMS_BYTES, args[6]));
        String host = args.length > 7 ? args[7] : "127.0.0.1";
        SplittableRandom random = new SplittableRandom(seed);
        try (RdmaTransport transport = RdmaTransport.start(config);
             ChannelSender sender = transport.connect(new InetSocketAddress(host, port),
                     ChannelListener.NONE)) {
            for (int i = 0; i < count; i++) {
                sender.send(TestMessages.message(seed, i, maxLength), Duration.ofSeconds(30));
                if (random.nextInt(50) == 0) {
                    sender.flush();
                }
            }
            if (!sender.awaitDrained(Duration.ofSeconds(60))) {
                System.out.println("NOT-DRAINED " + sender.pendingBytes());
                System.exit(2);
            }
            System.out.println("DRAINED " + sender.messagesSent() + " " + sender.batchesSent());
        }
    }
}

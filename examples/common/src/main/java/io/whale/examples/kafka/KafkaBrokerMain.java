package io.whale.examples.kafka;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs a {@link KraftBroker} in the foreground until the process is terminated (SIGTERM / Ctrl-C
 * shut it down cleanly). {@link KafkaBrokerControl} starts this class as a background process.
 */
@Command(name = "kafka-broker", mixinStandardHelpOptions = true,
        description = "Runs a single-node KRaft Kafka broker in the foreground.")
public final class KafkaBrokerMain implements Callable<Integer> {
    @Option(names = "--dir", required = true, description = "folder holding all broker data")
    Path dir;

    @Option(names = "--host", defaultValue = KafkaBrokerControl.DEFAULT_HOST,
            description = "address the client listener binds and advertises (default: ${DEFAULT-VALUE})")
    String host;

    @Option(names = "--port", defaultValue = "9092", description = "client port (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--controller-port", defaultValue = "0",
            description = "KRaft controller port; 0 picks a free one (default: ${DEFAULT-VALUE})")
    int controllerPort;

    public static void main(String[] args) {
        System.exit(new CommandLine(new KafkaBrokerMain()).execute(args));
    }

    @Override
    public Integer call() {
        int clientPort = port == 0 ? LoopbackPorts.free() : port;
        int quorumPort = controllerPort == 0 ? LoopbackPorts.free() : controllerPort;
        KraftBroker broker = KraftBroker.start(dir, host, clientPort, quorumPort);
        Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "kafka-broker-shutdown"));
        System.out.println("Kafka broker ready at " + broker.bootstrapServers() + ", data in " + dir.toAbsolutePath());
        broker.awaitShutdown();
        return 0;
    }
}

package io.whale.examples.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;

/**
 * A single-node Kafka broker in KRaft mode (one process plays broker and controller), bound to
 * 127.0.0.1, with all its data under one folder. The folder is formatted on first start and reused
 * afterwards, so topics survive a restart.
 *
 * <p>Runs inside the calling JVM: {@link KafkaBrokerMain} wraps it as a process, tests use it
 * directly and stop it with {@link #close()}.
 */
public final class KraftBroker implements AutoCloseable {
    private static final String CONTROLLER_LISTENER = "CONTROLLER";
    private static final int NODE_ID = 1;

    private final KafkaRaftServer server;
    private final String bootstrapServers;

    private KraftBroker(KafkaRaftServer server, String bootstrapServers) {
        this.server = server;
        this.bootstrapServers = bootstrapServers;
    }

    /**
     * Formats {@code dataDir} if needed and starts the broker.
     *
     * @param host           address the clients' listener binds and advertises (127.0.0.1, or e.g. an emulated
     *                       host's address, for clients in other network namespaces)
     * @param port           client port on {@code host}
     * @param controllerPort KRaft controller port on 127.0.0.1; must differ from {@code port}
     */
    public static KraftBroker start(Path dataDir, String host, int port, int controllerPort) {
        Path logDir = dataDir.toAbsolutePath().resolve("kraft-logs");
        KafkaConfig config = KafkaConfig.fromProps(serverProperties(logDir, host, port, controllerPort));
        formatIfNeeded(config, logDir);
        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        server.startup();
        return new KraftBroker(server, host + ":" + port);
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Blocks until the broker has been shut down (by {@link #close()} from another thread). */
    public void awaitShutdown() {
        server.awaitShutdown();
    }

    /** Shuts the broker down and waits until every broker and controller thread has stopped. */
    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }

    static Properties serverProperties(Path logDir, String host, int port, int controllerPort) {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", Integer.toString(NODE_ID));
        p.setProperty("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://" + host + ":" + port + "," + CONTROLLER_LISTENER + "://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://" + host + ":" + port);
        p.setProperty("controller.listener.names", CONTROLLER_LISTENER);
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("log.dirs", logDir.toString());
        // One node: every internal topic has a single replica.
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("offsets.topic.num.partitions", "4");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("num.network.threads", "2");
        p.setProperty("num.io.threads", "2");
        p.setProperty("background.threads", "2");
        p.setProperty("log.cleaner.enable", "false");
        p.setProperty("auto.create.topics.enable", "false");
        return p;
    }

    private static void formatIfNeeded(KafkaConfig config, Path logDir) {
        if (Files.exists(logDir.resolve("meta.properties"))) {
            return;
        }
        try {
            Files.createDirectories(logDir);
            new Formatter()
                    .setPrintStream(System.out)
                    .setNodeId(NODE_ID)
                    .setClusterId(Uuid.randomUuid().toString())
                    .setControllerListenerName(CONTROLLER_LISTENER)
                    .setMetadataLogDirectory(config.metadataLogDir())
                    .addDirectory(logDir.toString())
                    .run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot format Kafka storage in " + logDir, e);
        }
    }
}

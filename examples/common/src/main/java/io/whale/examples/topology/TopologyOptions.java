package io.whale.examples.topology;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.apache.storm.Config;
import org.apache.storm.utils.Utils;
import picocli.CommandLine.Option;

/** Command-line options every example topology main shares (a picocli mixin). */
public final class TopologyOptions {
    // Integers as Long, like the JSON parser Storm reads storm.options with.
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_LONG_FOR_INTS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    @Option(names = "--bootstrap", defaultValue = "127.0.0.1:9092", description = "Kafka bootstrap servers (default: ${DEFAULT-VALUE})")
    public String bootstrap;

    @Option(names = "--name", description = "topology name (default: the application name)")
    String name;

    @Option(names = "--workers", defaultValue = "2", description = "worker processes (default: ${DEFAULT-VALUE})")
    int workers;

    @Option(names = "--duration-s", defaultValue = "0",
            description = "kill the topology after this many seconds; 0 leaves it running (default: ${DEFAULT-VALUE})")
    public int durationSeconds;

    @Option(names = "--report-interval-s", defaultValue = "5", description = "reporter interval (default: ${DEFAULT-VALUE})")
    public int reportIntervalSeconds;

    @Option(names = "--max-spout-pending", defaultValue = "2000", description = "(default: ${DEFAULT-VALUE})")
    int maxSpoutPending;

    @Option(names = "--message-timeout-s", defaultValue = "60", description = "(default: ${DEFAULT-VALUE})")
    int messageTimeoutSeconds;

    /** Normally the Storm/Whale CLI takes {@code -c} itself and passes it in {@code storm.options}; this catches it when it reaches the main. */
    @Option(names = "-c", paramLabel = "KEY=VALUE", description = "topology conf override (value parsed as JSON, else a string)")
    Map<String, String> overrides = new LinkedHashMap<>();

    public String name(String application) {
        return name == null ? application : name;
    }

    /**
     * The topology conf: these options, then the application's {@code settings}, then every
     * {@code -c key=value} override of the command line (Storm's {@code storm.options}, then any
     * {@code -c} that reached this main), which win.
     */
    public Config topologyConf(Map<String, Object> settings) {
        Config conf = new Config();
        conf.setNumWorkers(workers);
        conf.setMaxSpoutPending(maxSpoutPending);
        conf.setMessageTimeoutSecs(messageTimeoutSeconds);
        conf.putAll(settings);
        conf.putAll(Utils.readCommandLineOpts());
        overrides.forEach((key, value) -> conf.put(key, parseValue(value)));
        return conf;
    }

    /** Like Storm's {@code storm.options}: a JSON value ({@code true}, {@code 5}, {@code 0.5}, {@code "x"}) or else the plain string. */
    static Object parseValue(String value) {
        try {
            return JSON.readValue(value, Object.class);
        } catch (JsonProcessingException e) {
            return value;
        }
    }
}

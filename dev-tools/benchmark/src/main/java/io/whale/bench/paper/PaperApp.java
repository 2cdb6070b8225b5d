package io.whale.bench.paper;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The two example applications of the paper's §5, run unchanged from the distribution's {@code examples/} jars:
 * their main class, the topic of the stream that is broadcast (the one the feed paces), the consumer group that
 * reads it, and the component whose tasks broadcast it (the source whose host's link Figs. 27–28 count).
 */
enum PaperApp {
    /** Orders broadcast from the order spout to every matcher; driver positions keyed by driver, loaded once. */
    RIDEHAILING("ridehailing", "ride-hailing (orders generated in the Didi format)", "whale-example-ridehailing.jar", "io.whale.examples.ridehailing.RideHailingMain",
        "--orders-topic", "orders", 0),
    /** Sells broadcast from the split bolt to every matcher; buys keyed by order id. */
    STOCK("stock", "stock exchange (orders generated in the NASDAQ format)", "whale-example-stock.jar", "io.whale.examples.stock.StockMain", "--topic", "split", -1);

    /** The topic of driver positions every ride-hailing run reads from its start (its own consumer group). */
    static final String DRIVERS_TOPIC = "paper-drivers";

    private final String option;
    private final String label;
    private final String jar;
    private final String mainClass;
    private final String topicOption;
    private final String broadcastComponent;
    private final int keyColumn;

    PaperApp(String option, String label, String jar, String mainClass, String topicOption, String broadcastComponent, int keyColumn) {
        this.option = option;
        this.label = label;
        this.jar = jar;
        this.mainClass = mainClass;
        this.topicOption = topicOption;
        this.broadcastComponent = broadcastComponent;
        this.keyColumn = keyColumn;
    }

    String option() {
        return option;
    }

    String label() {
        return label;
    }

    Path jar(Path whaleHome) {
        return whaleHome.resolve("examples").resolve(jar);
    }

    String mainClass() {
        return mainClass;
    }

    /** The component whose tasks broadcast (in its worker's log: {@code Loading executor tasks <component>:[…]}). */
    String broadcastComponent() {
        return broadcastComponent;
    }

    /** The data file's column keying a record (-1: its position), as the generator keys it. */
    int keyColumn() {
        return keyColumn;
    }

    /**
     * What an at-most-once run counts as progress at the sink ({@code KafkaFeed}'s {@code PROGRESS}): ride-hailing's
     * one result per order, or the records the stock application's split and matchers say they finished (a deal is
     * not one per record).
     */
    String sinkProgress() {
        return this == RIDEHAILING ? KafkaFeed.PROGRESS_RESULTS : KafkaFeed.PROGRESS_RECORDS;
    }

    /** The consumer group reading the paced topic: the topology names it after itself. */
    String group(String topologyName) {
        return this == RIDEHAILING ? topologyName + "-orders" : topologyName;
    }

    /** {@code whale gen} arguments writing {@code records} records of the paced stream to {@code file}. */
    List<String> generate(long records, Path file) {
        String kind = this == RIDEHAILING ? "ridehailing-orders" : "stock";
        return List.of("gen", kind, "--records", Long.toString(records), "--no-progress", "--out", file.toString());
    }

    /**
     * The main's arguments: one source task of the broadcast stream, P matchers, over W workers; reports every second.
     * Both get one aggregator task per worker: the matchers' output to the aggregators is keyed (ride-hailing's answers
     * by order, the stock deals by symbol), so with the examples' default of two tasks it converges on two hosts, whose
     * receive links then bind before the source's does (issue 32: the ride-hailing relay trees measured at 1 and
     * 2 Mbit/s were held there, not by their source).
     */
    List<String> mainArgs(String bootstrap, String name, String topic, int matchers, int workers) {
        List<String> common = List.of("--bootstrap", bootstrap, "--name", name, "--workers", Integer.toString(workers),
            "--matchers", Integer.toString(matchers), "--aggregators", Integer.toString(workers), "--report-interval-s", "1",
            topicOption, topic);
        return this == RIDEHAILING
            ? concat(common, List.of("--drivers-topic", DRIVERS_TOPIC, "--order-spouts", "1", "--driver-spouts", "1"))
            : concat(common, List.of("--spouts", "1", "--splitters", "1"));
    }

    static PaperApp byOption(String option) {
        for (PaperApp a : values()) {
            if (a.option.equals(option)) {
                return a;
            }
        }
        throw new IllegalArgumentException("--apps takes ridehailing and/or stock, not '" + option + "'");
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}

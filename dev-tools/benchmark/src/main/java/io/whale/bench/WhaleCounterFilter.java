package io.whale.bench;

import com.codahale.metrics.Metric;
import java.util.Map;
import org.apache.storm.metrics2.filters.StormMetricsFilter;

/**
 * Keeps the console reporter to Whale's worker metrics, registry names
 * {@code storm.worker.<topology>.<host>.__system.-1.<port>-woc-…}, {@code …-rdma-…} or {@code …-relay-…}, by string
 * searches.
 * The reporter asks once per metric kind for every metric of the worker each second (some 5,000 names at P = 64), and
 * Storm's {@code RegexFilter} with a leading {@code .*} took about 7 % of a core there: the benchmark's apparatus must
 * leave the measured worker its cores.
 */
public final class WhaleCounterFilter implements StormMetricsFilter {
    private static final String SYSTEM_TASK = ".__system.-1.";

    @Override
    public void prepare(Map<String, Object> config) {
    }

    @Override
    public boolean matches(String name, Metric metric) {
        return counterName(name) != null;
    }

    /**
     * The counter's own name in a registry name ({@code woc-emits} of {@code …__system.-1.16110-woc-emits}), or null
     * when it is none of Whale's worker metrics: the one place the benchmark knows that shape (the reporter's filter
     * and the reading of its lines, {@link WorkerCounterLog}).
     */
    static String counterName(String name) {
        int port = name.indexOf(SYSTEM_TASK);
        if (port < 0) {
            return null;
        }
        int digits = port + SYSTEM_TASK.length();
        int end = digits;
        while (end < name.length() && Character.isDigit(name.charAt(end))) {
            end++;
        }
        boolean whale = end > digits && (name.startsWith("-woc-", end) || name.startsWith("-rdma-", end) || name.startsWith("-relay-", end));
        return whale ? name.substring(end + 1).strip() : null;
    }
}

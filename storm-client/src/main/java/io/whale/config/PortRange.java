package io.whale.config;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The ports the Prometheus endpoint may listen on, the value of the reporter's {@value #KEY} key: one port
 * ({@code "9250"}) or an inclusive range ({@code "9250-9260"}), as Flink's PrometheusReporter takes it, so that several
 * workers of a host each find a port of their own. Iterates the ports in ascending order. Here rather than in
 * whale-prometheus so that the submit check ({@link WhaleConfigValidation}) parses the value as the reporter does.
 *
 * @param first the lowest port, in 1..65535
 * @param last the highest port, in {@code first}..65535
 */
public record PortRange(int first, int last) implements Iterable<Integer> {
    /** The reporter key this range is read from. */
    public static final String KEY = "port";
    private static final int MAX_PORT = 65535;

    /**
     * @throws IllegalArgumentException if a port is outside 1..65535 or {@code first > last}
     */
    public PortRange {
        if (first < 1 || last > MAX_PORT || first > last) {
            throw new IllegalArgumentException(invalid(first == last ? Integer.toString(first) : first + "-" + last));
        }
    }

    /**
     * The range {@code value} names.
     *
     * @param value {@code "PORT"} or {@code "FIRST-LAST"}, surrounding blanks ignored
     * @throws IllegalArgumentException naming {@value #KEY} and {@code value} if it is not a number or a range of
     *     numbers, a port is outside 1..65535, or the range is reversed
     */
    public static PortRange parse(String value) {
        if (value == null) {
            throw new IllegalArgumentException(invalid(null));
        }
        String trimmed = value.trim();
        int dash = trimmed.indexOf('-', 1);
        try {
            int first = Integer.parseInt((dash < 0 ? trimmed : trimmed.substring(0, dash)).trim());
            int last = dash < 0 ? first : Integer.parseInt(trimmed.substring(dash + 1).trim());
            return new PortRange(first, last);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(invalid(value), e);
        }
    }

    private static String invalid(String value) {
        return "PrometheusReporter: '" + KEY + "' must be a port or a range FIRST-LAST of ports in 1.." + MAX_PORT
               + " with FIRST <= LAST, e.g. \"9250\" or \"9250-9260\"; got " + (value == null ? "nothing" : "'" + value + "'");
    }

    @Override
    public Iterator<Integer> iterator() {
        return new Iterator<>() {
            private int next = first;

            @Override
            public boolean hasNext() {
                return next <= last;
            }

            @Override
            public Integer next() {
                if (next > last) {
                    throw new NoSuchElementException();
                }
                return next++;
            }
        };
    }

    /** {@code "FIRST-LAST"}, or the port alone for a range of one. */
    @Override
    public String toString() {
        return first == last ? Integer.toString(first) : first + "-" + last;
    }
}

package io.whale.examples.smoke;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A spout's rate over time, from an option: {@code R} (R ids a second all along) or steps {@code R1:S1,R2:S2,...,Rn}
 * (R1 a second for S1 seconds, then R2 for S2 seconds, ..., Rn from then on). Pure: time since the start passed in.
 */
public final class RateSchedule implements Serializable {
    private static final long serialVersionUID = 1L;
    private final int[] rates;
    /** How long each step but the last lasts, seconds. */
    private final int[] seconds;

    private RateSchedule(int[] rates, int[] seconds) {
        this.rates = rates;
        this.seconds = seconds;
    }

    /** Parses {@code R} or {@code R1:S1,...,Rn}; a malformed schedule is refused naming the part that is wrong. */
    public static RateSchedule parse(String text) {
        String[] steps = text.split(",", -1);
        int[] rates = new int[steps.length];
        int[] seconds = new int[steps.length - 1];
        for (int i = 0; i < steps.length; i++) {
            String[] parts = steps[i].split(":", -1);
            boolean last = i == steps.length - 1;
            if (parts.length != (last ? 1 : 2)) {
                throw new IllegalArgumentException("rate step '" + steps[i] + "' of '" + text + "' must be "
                    + (last ? "RATE (the last step lasts)" : "RATE:SECONDS"));
            }
            rates[i] = positive(parts[0], "rate", text);
            if (!last) {
                seconds[i] = positive(parts[1], "seconds", text);
            }
        }
        return new RateSchedule(rates, seconds);
    }

    private static int positive(String number, String what, String text) {
        try {
            int n = Integer.parseInt(number.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below, with the schedule
        }
        throw new IllegalArgumentException(what + " '" + number + "' in rate schedule '" + text + "' is not a positive whole number");
    }

    /** How many ids the schedule allows {@code elapsedNanos} after the start. */
    public long allowed(long elapsedNanos) {
        double total = 0;
        long left = Math.max(0, elapsedNanos);
        for (int i = 0; i < rates.length && left > 0; i++) {
            long step = i < seconds.length ? Math.min(left, TimeUnit.SECONDS.toNanos(seconds[i])) : left;
            total += (double) rates[i] * step / TimeUnit.SECONDS.toNanos(1);
            left -= step;
        }
        return (long) total;
    }

    /** When each step begins, seconds after the start (the first at 0). */
    public List<Integer> stepStartsSecs() {
        List<Integer> starts = new ArrayList<>(List.of(0));
        int at = 0;
        for (int s : seconds) {
            at += s;
            starts.add(at);
        }
        return starts;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < rates.length; i++) {
            b.append(i == 0 ? "" : ",").append(rates[i]).append(i < seconds.length ? ":" + seconds[i] : "");
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RateSchedule r && Arrays.equals(rates, r.rates) && Arrays.equals(seconds, r.seconds);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(rates) + Arrays.hashCode(seconds);
    }
}

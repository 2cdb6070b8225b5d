package io.whale.examples.smoke;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A spout's rate over time, from an option: {@code R} (R ids a second all along) or steps {@code R1:S1,R2:S2,...}
 * (R1 a second for S1 seconds, then R2 for S2 seconds, ...); a last step without seconds lasts, after a last step
 * with seconds nothing more is allowed. Each step is paced on its own: a spout that fell behind in one step (held
 * back by backpressure) does not catch up in the next, so a step down is a step down. Pure: time passed in.
 */
public final class RateSchedule implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final long LASTS = Long.MAX_VALUE;
    private final int[] rates;
    /** When each step ends, nanoseconds from the start ({@link #LASTS} for a last step that lasts). */
    private final long[] endsNanos;

    private RateSchedule(int[] rates, long[] endsNanos) {
        this.rates = rates;
        this.endsNanos = endsNanos;
    }

    /** Parses {@code R} or {@code R1:S1,...,Rn[:Sn]}; a malformed schedule is refused naming the part that is wrong. */
    public static RateSchedule parse(String text) {
        String[] steps = text.split(",", -1);
        int[] rates = new int[steps.length];
        long[] ends = new long[steps.length];
        long at = 0;
        for (int i = 0; i < steps.length; i++) {
            String[] parts = steps[i].split(":", -1);
            boolean last = i == steps.length - 1;
            if (parts.length > 2 || parts.length == 1 && !last) {
                throw new IllegalArgumentException("rate step '" + steps[i] + "' of '" + text + "' must be RATE:SECONDS"
                    + (last ? " or RATE (the last step lasts)" : ""));
            }
            rates[i] = positive(parts[0], "rate", text);
            at = parts.length == 2 ? at + TimeUnit.SECONDS.toNanos(positive(parts[1], "seconds", text)) : LASTS;
            ends[i] = at;
        }
        return new RateSchedule(rates, ends);
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

    public int steps() {
        return rates.length;
    }

    /** How long the whole schedule lasts, nanoseconds; {@link Long#MAX_VALUE} when its last step lasts. */
    public long lengthNanos() {
        return endsNanos[endsNanos.length - 1];
    }

    /** The ids a second of {@code step}. */
    public int rate(int step) {
        return rates[step];
    }

    /** The step {@code elapsedNanos} after the start falls in; the number of steps once the schedule is over. */
    public int stepAt(long elapsedNanos) {
        int step = 0;
        while (step < rates.length && elapsedNanos >= endsNanos[step]) {
            step++;
        }
        return step;
    }

    /** When {@code step} begins, nanoseconds from the start. */
    public long stepStartNanos(int step) {
        return step == 0 ? 0 : endsNanos[step - 1];
    }

    /** How many ids {@code step} allows {@code sinceStepStartNanos} after it began; none once the schedule is over. */
    public long allowedInStep(int step, long sinceStepStartNanos) {
        if (step >= rates.length) {
            return 0;
        }
        return (long) ((double) rates[step] * Math.max(0, sinceStepStartNanos) / TimeUnit.SECONDS.toNanos(1));
    }

    /** When each step begins, seconds after the start (the first at 0). */
    public List<Long> stepStartsSecs() {
        List<Long> starts = new ArrayList<>();
        for (int i = 0; i < rates.length; i++) {
            starts.add(TimeUnit.NANOSECONDS.toSeconds(stepStartNanos(i)));
        }
        return starts;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < rates.length; i++) {
            b.append(i == 0 ? "" : ",").append(rates[i]);
            if (endsNanos[i] != LASTS) {
                b.append(':').append(TimeUnit.NANOSECONDS.toSeconds(endsNanos[i] - stepStartNanos(i)));
            }
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RateSchedule r && Arrays.equals(rates, r.rates) && Arrays.equals(endsNanos, r.endsNanos);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(rates) + Arrays.hashCode(endsNanos);
    }
}

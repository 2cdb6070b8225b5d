package io.whale.bench;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * A driver's command line read option by option ({@code bench-woc.sh}, {@code bench-paper.sh}): each value is read for
 * the option just taken, and a bad one is refused naming that option, with the driver's usage after it.
 */
public final class CommandLine {
    private final String usage;
    private final String[] args;
    private int next;
    private String option;

    public CommandLine(String usage, String... args) {
        this.usage = usage;
        this.args = args.clone();
    }

    public boolean hasNext() {
        return next < args.length;
    }

    /** The next option's name. */
    public String next() {
        option = args[next++];
        return option;
    }

    /** The value given to the option just taken. */
    public String value() {
        if (next >= args.length) {
            throw refused(option + " needs a value");
        }
        return args[next++];
    }

    public int intAtLeast(int least) {
        int value = number(Integer::valueOf, "a whole number");
        if (value < least) {
            throw refused(option + " must be at least " + least + ", not " + value);
        }
        return value;
    }

    public double positive() {
        double value = number(Double::valueOf, "a number");
        if (!(value > 0)) {
            throw refused(option + " must be positive, not " + value);
        }
        return value;
    }

    private <T> T number(Function<String, T> parse, String kind) {
        String text = value();
        try {
            return parse.apply(text);
        } catch (NumberFormatException e) {
            throw refused(option + " takes " + kind + ", not '" + text + "'");
        }
    }

    /** A {@code KEY=VALUE} setting ({@code --set}). */
    public String setting() {
        String keyValue = value();
        if (!keyValue.matches("[^=\\s]+=.*")) {
            throw refused(option + " takes KEY=VALUE, not '" + keyValue + "'");
        }
        return keyValue;
    }

    /** A comma-separated list, each item parsed, repeats left out; a refusal of {@code parse} names the option itself. */
    public <T> List<T> list(Function<String, T> parse) {
        String csv = value();
        try {
            return Arrays.stream(csv.split(",")).map(String::trim).distinct().map(parse).toList();
        } catch (NumberFormatException e) {
            throw refused(option + " takes whole numbers, not '" + csv + "'");
        } catch (IllegalArgumentException e) {
            throw refused(e.getMessage());
        }
    }

    /** The option just taken, which the driver does not know. */
    public IllegalArgumentException unknown() {
        return refused("unknown option " + option);
    }

    /** A refusal of the command line: {@code message}, then the usage. */
    public IllegalArgumentException refused(String message) {
        return new IllegalArgumentException(message + "\n" + usage);
    }
}

package io.whale.examples.smoke;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code --key value} command-line options with defaults; an option not in the defaults is refused. */
public final class TopologyOptions {
    private final Map<String, String> values;

    private TopologyOptions(Map<String, String> values) {
        this.values = values;
    }

    public static TopologyOptions parse(String[] args, Map<String, String> defaults) {
        Map<String, String> values = new LinkedHashMap<>(defaults);
        for (int i = 0; i < args.length; i += 2) {
            if (!defaults.containsKey(args[i])) {
                throw new IllegalArgumentException("unknown option " + args[i] + " (options: " + String.join(" ", defaults.keySet()) + ")");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            values.put(args[i], args[i + 1]);
        }
        values.forEach((k, v) -> {
            if (v == null || v.isEmpty()) {
                throw new IllegalArgumentException(k + " is required");
            }
        });
        return new TopologyOptions(values);
    }

    public String text(String key) {
        return values.get(key);
    }

    public int number(String key) {
        int n = Integer.parseInt(values.get(key));
        if (n < 0) {
            throw new IllegalArgumentException(key + " must not be negative");
        }
        return n;
    }

    public List<String> toArgs() {
        List<String> args = new ArrayList<>();
        values.forEach((k, v) -> {
            args.add(k);
            args.add(v);
        });
        return args;
    }
}

package io.whale.ui.api;

/** Uptimes and windows the way Storm's UI prints them ("1d 2h 3m 4s", "10m 0s", "All time"). */
public final class Durations {
    private Durations() {
    }

    public static String pretty(long seconds) {
        long days = seconds / 86_400;
        long hours = seconds % 86_400 / 3_600;
        long minutes = seconds % 3_600 / 60;
        long secs = seconds % 60;
        if (days > 0) {
            return days + "d " + hours + "h " + minutes + "m " + secs + "s";
        }
        if (hours > 0) {
            return hours + "h " + minutes + "m " + secs + "s";
        }
        if (minutes > 0) {
            return minutes + "m " + secs + "s";
        }
        return secs + "s";
    }

    public static String window(String window) {
        return ":all-time".equals(window) ? "All time" : pretty(Long.parseLong(window));
    }
}

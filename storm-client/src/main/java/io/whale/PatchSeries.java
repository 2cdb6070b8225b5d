package io.whale;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * A patch series read by its headers. Every patch says what kind it is: a {@code Kind: hook} adds a call into
 * {@code io.whale} and nothing else; a {@code Kind: fix} fixes a bug of Storm 2.8.3 that no 2.x release fixed, and
 * its {@code File upstream:} line says what to report (or where upstream already fixed it); a {@code Kind: backport}
 * re-does in Whale's words a fix of a later Storm release, named in its subject. The {@code series} file lists the
 * hooks, then the fixes, then the backports.
 */
public final class PatchSeries {
    public enum Kind { HOOK, FIX, BACKPORT }

    /** One patch: its file name, its {@code Subject:}, its kind, and for a fix what to file upstream (else null). */
    public record Patch(String name, String subject, Kind kind, String fileUpstream) {
    }

    private static final String SUBJECT = "Subject: ";
    private static final String KIND = "Kind: ";
    private static final String FILE_UPSTREAM = "File upstream: ";

    private PatchSeries() {
    }

    /**
     * The patches of a series in its order; {@code lines} reads a file of the series' directory ({@code series} and
     * each patch). A patch without a subject or a known kind, a fix that says nothing to file upstream, or a series
     * out of the order hooks, fixes, backports is refused, naming the patch.
     */
    public static List<Patch> read(Function<String, List<String>> lines) {
        List<Patch> patches = new ArrayList<>();
        for (String line : lines.apply("series")) {
            String name = line.replaceAll("#.*", "").trim();
            if (name.isEmpty()) {
                continue;
            }
            Patch patch = header(name, lines.apply(name));
            if (!patches.isEmpty() && patch.kind().compareTo(patches.get(patches.size() - 1).kind()) < 0) {
                throw new IllegalStateException("series lists " + name + " (" + patch.kind() + ") after "
                    + patches.get(patches.size() - 1).name() + ": hooks first, then fixes, then backports");
            }
            patches.add(patch);
        }
        return patches;
    }

    private static Patch header(String name, List<String> text) {
        String subject = null;
        Kind kind = null;
        String fileUpstream = null;
        for (String line : text) {
            if (line.startsWith("--- ")) {
                break;
            } else if (line.startsWith(SUBJECT)) {
                subject = line.substring(SUBJECT.length());
            } else if (line.startsWith(KIND)) {
                kind = kind(name, line.substring(KIND.length()).trim());
            } else if (line.startsWith(FILE_UPSTREAM)) {
                fileUpstream = line.substring(FILE_UPSTREAM.length()).trim();
            }
        }
        if (subject == null || kind == null) {
            throw new IllegalStateException(name + " needs a Subject: line and a Kind: line (hook, fix or backport)");
        }
        if (kind == Kind.FIX && (fileUpstream == null || fileUpstream.isEmpty())) {
            throw new IllegalStateException(name + " is a fix: its File upstream: line says what to report upstream");
        }
        return new Patch(name, subject, kind, fileUpstream);
    }

    private static Kind kind(String name, String value) {
        try {
            return Kind.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(name + ": Kind: " + value + " is none of hook, fix, backport", e);
        }
    }
}

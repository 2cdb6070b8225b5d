package io.whale.wire;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The message ids of every copy of one anchored emit, in the form a frame carries them: one random seed per anchor
 * and the anchor's root ids. Stock Storm draws a random edge id per anchor and destination task, so a frame to a
 * worker's k tasks would carry k anchors-to-ids maps (20 bytes per task and root); WOC's collectors draw one seed per
 * anchor instead and take the edge id of task {@code t} as {@link #edgeId edgeId(seed, t)}, which the receiving worker
 * computes again: a frame carries the seeds once, whatever its task count.
 *
 * <p>The acker's ledger is unchanged: each copy's anchors-to-ids map is built as {@code BoltOutputCollectorImpl}
 * builds it (for every anchor, its edge id XORed into each of its roots), and the emitting task XORs the same ids into
 * its anchors' ack values. The edge id is SplitMix64's output for the seed advanced by the task: distinct tasks of
 * one seed get distinct ids (the step is odd and the finalizer a bijection), and unlike {@code seed ^ f(task)} no
 * XOR of the ids of one emit cancels the seed, so two broadcasts of one root cannot complete it early.
 */
public final class EdgeSeeds {
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;
    private static final int MAX_ANCHORS = 0xFFFF;

    private final long[] seeds;
    private final long[][] roots;

    private EdgeSeeds(long[] seeds, long[][] roots) {
        this.seeds = seeds;
        this.roots = roots;
    }

    /** Anchors with their seeds and root ids, in emit order; at least one. */
    public static EdgeSeeds of(long[] seeds, long[][] roots) {
        if (seeds.length == 0 || seeds.length != roots.length || seeds.length > MAX_ANCHORS) {
            throw new IllegalArgumentException("1.." + MAX_ANCHORS + " anchors, each with a seed and its roots, expected");
        }
        for (long[] anchorRoots : roots) {
            if (anchorRoots.length == 0) {
                throw new IllegalArgumentException("an anchor of an emit has at least one root id");
            }
        }
        return new EdgeSeeds(seeds.clone(), Arrays.stream(roots).map(long[]::clone).toArray(long[][]::new));
    }

    /** The edge id of {@code task}'s copy for the anchor of {@code seed}. */
    public static long edgeId(long seed, int task) {
        long z = seed + GOLDEN_GAMMA * (task + 1L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The root ids of the emit: every copy's anchors-to-ids map has these keys (a receiving worker asks once a frame). */
    public Set<Long> roots() {
        Set<Long> all = new LinkedHashSet<>();
        for (long[] anchorRoots : roots) {
            for (long root : anchorRoots) {
                all.add(root);
            }
        }
        return all;
    }

    /**
     * The anchors-to-ids map (Storm's {@code MessageId}) of {@code task}'s copy; immutable (Storm only reads a received
     * tuple's map), and for the usual emit, one anchor of one root, a map of one entry without a hash table.
     */
    public Map<Long, Long> idsOf(int task) {
        if (seeds.length == 1 && roots[0].length == 1) {
            return Map.of(roots[0][0], edgeId(seeds[0], task));
        }
        Map<Long, Long> ids = new HashMap<>(4);
        for (int a = 0; a < seeds.length; a++) {
            long edgeId = edgeId(seeds[a], task);
            for (long root : roots[a]) {
                ids.merge(root, edgeId, (x, y) -> x ^ y);
            }
        }
        return Collections.unmodifiableMap(ids);
    }

    /** Bytes {@link #put} writes. */
    public long bytes() {
        long bytes = FrameFields.varIntBytes(seeds.length);
        for (long[] anchorRoots : roots) {
            bytes += 8 + FrameFields.varIntBytes(anchorRoots.length) + 8L * anchorRoots.length;
        }
        return bytes;
    }

    /** The anchor count, then for each anchor its seed, its root count and its roots. */
    public void put(ByteBuffer buf) {
        FrameFields.putVarInt(buf, seeds.length);
        for (int a = 0; a < seeds.length; a++) {
            buf.putLong(seeds[a]);
            FrameFields.putVarInt(buf, roots[a].length);
            for (long root : roots[a]) {
                buf.putLong(root);
            }
        }
    }

    /** Reads what {@link #put} wrote, every count checked against the bytes left before anything is allocated. */
    public static EdgeSeeds read(ByteBuffer buf, String kind) {
        int anchors = FrameFields.readVarInt(buf, kind, "anchor count");
        if (anchors <= 0 || anchors > MAX_ANCHORS) {
            throw new MalformedFrameException(kind + " anchor count " + Integer.toUnsignedString(anchors) + " out of 1.."
                                                   + MAX_ANCHORS);
        }
        FrameFields.requireRemaining(buf, 17L * anchors, kind, "edge seeds"); // a seed, a root count and a root each
        long[] seeds = new long[anchors];
        long[][] roots = new long[anchors][];
        for (int a = 0; a < anchors; a++) {
            seeds[a] = buf.getLong();
            int count = FrameFields.readVarInt(buf, kind, "root count");
            if (count <= 0) {
                throw new MalformedFrameException(kind + " anchor " + a + " has root count " + Integer.toUnsignedString(count));
            }
            FrameFields.requireRemaining(buf, 8L * count, kind, "root ids");
            roots[a] = new long[count];
            for (int r = 0; r < count; r++) {
                roots[a][r] = buf.getLong();
            }
        }
        return new EdgeSeeds(seeds, roots);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EdgeSeeds other && Arrays.equals(seeds, other.seeds) && Arrays.deepEquals(roots, other.roots);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(seeds) + Arrays.deepHashCode(roots);
    }

    @Override
    public String toString() {
        return "EdgeSeeds" + Arrays.toString(seeds) + Arrays.deepToString(roots);
    }

    /**
     * The seeds of the emit in progress, drawn as the collector asks for its first task's edge ids: anchor {@code a}'s
     * seed is drawn (from the collector's own {@code Random}, as Storm draws an edge id) when {@code a} is first asked
     * for, so anchors must be asked for in order, the same for every task of the emit.
     */
    public static final class Draw {
        private long[] seeds = new long[2];
        private long[][] roots = new long[2][];
        private int anchors;

        public long edgeId(Random random, int anchor, Collection<Long> rootIds, int task) {
            if (anchor == anchors) {
                if (anchor == seeds.length) {
                    seeds = Arrays.copyOf(seeds, 2 * anchor);
                    roots = Arrays.copyOf(roots, 2 * anchor);
                }
                seeds[anchor] = random.nextLong();
                roots[anchor] = rootIds.stream().mapToLong(Long::longValue).toArray();
                anchors++;
            } else if (anchor > anchors || anchor < 0) {
                throw new IllegalStateException("anchor " + anchor + " asked for before anchor " + anchors);
            }
            return EdgeSeeds.edgeId(seeds[anchor], task);
        }

        /** The seeds drawn so far, or null when the emit is unanchored. */
        public EdgeSeeds seeds() {
            // each anchor's roots array is drawn afresh, so copying the outer arrays is enough
            return anchors == 0 ? null : new EdgeSeeds(Arrays.copyOf(seeds, anchors), Arrays.copyOf(roots, anchors));
        }

        public void clear() {
            anchors = 0;
        }
    }
}

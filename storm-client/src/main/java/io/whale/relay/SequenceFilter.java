package io.whale.relay;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which relay frames a member delivers, per (source task, tree): the frames of its current stream, one launch of the
 * source's worker (its incarnation) in increasing {@code seq}, so that no task ever sees a frame twice (a second copy
 * would make it ack the same edge twice and corrupt the acker's XOR). Frames skipped over (a gap in {@code seq}) are
 * counted.
 *
 * <p>No frame is trusted to move the stream far: a relay frame carries no proof of who built it, and a frame with a
 * later incarnation or a {@code seq} far ahead would otherwise make every later genuine frame a repeat or stale
 * (issue 34). A frame that is not the current stream's next (another incarnation, a {@code seq} more than
 * {@link #MAX_JUMP} ahead, or one at or below its last) is dropped while the current stream delivers: as a
 * {@link Verdict#DUPLICATE} if it repeats the stream, else as {@link Verdict#STALE} (the caller counts and credits
 * both). Once the current stream has delivered nothing for {@link #QUIET_NANOS}, such a frame starts a new stream, or
 * resumes the one the current replaced: a new launch is taken as a real restart shows it, its worker's frames coming
 * after the old one's stopped (a worker takes seconds to be relaunched). So a forged frame cannot silence a source that
 * is sending, and one that moved a stream ahead or started one while the source was silent holds the source's frames
 * back for at most {@link #QUIET_NANOS}; only forged frames that keep coming hold it longer. The price: a repeat that
 * arrives after its stream was quiet that long is delivered again (repeats come from relay repair, amid deliveries).
 *
 * <p>At most {@link #MAX_STREAMS} (source task, tree) streams are kept, the least recently used evicted (counted):
 * a tree id is a hash of its workers, so forged ids must not grow the map. Pure and single-threaded, time passed in:
 * the caller serializes per member.
 */
public final class SequenceFilter {
    /** How long the current stream must have been silent before a frame off it starts another. */
    static final long QUIET_NANOS = 1_000_000_000L;
    /** The largest forward step in {@code seq} the current stream takes from one frame to the next. */
    static final long MAX_JUMP = 4_096;
    static final int MAX_STREAMS = 8_192;

    private final Map<Key, Streams> streams = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Streams> eldest) {
            boolean evict = size() > MAX_STREAMS;
            if (evict) {
                evicted++;
            }
            return evict;
        }
    };
    private long skippedFrames;
    /** Written under the caller's lock, read by a metrics gauge. */
    private volatile long evicted;

    public enum Verdict { DELIVER, DUPLICATE, STALE }

    public Verdict accept(int sourceTask, int treeId, long incarnation, long seq, long nowNanos) {
        Key key = new Key(sourceTask, treeId);
        Streams known = streams.get(key);
        if (known == null) {
            streams.put(key, new Streams(new Stream(incarnation, seq, nowNanos)));
            return Verdict.DELIVER;
        }
        Stream current = known.current;
        if (current.follows(incarnation, seq)) {
            current.advance(seq, nowNanos);
            return Verdict.DELIVER;
        }
        if (nowNanos - current.lastDeliveredNanos < QUIET_NANOS) {
            return current.repeats(incarnation, seq) ? Verdict.DUPLICATE : Verdict.STALE;
        }
        Stream previous = known.previous;
        known.previous = current;
        if (previous != null && previous.follows(incarnation, seq)) {
            known.current = previous;
            previous.advance(seq, nowNanos);
        } else {
            known.current = new Stream(incarnation, seq, nowNanos);
        }
        return Verdict.DELIVER;
    }

    /** Frames never seen that later frames of the same stream skipped over. */
    public long skippedFrames() {
        return skippedFrames;
    }

    /** Streams forgotten because more than {@link #MAX_STREAMS} were kept. */
    public long evictedStreams() {
        return evicted;
    }

    private record Key(int sourceTask, int treeId) {
    }

    /** The (source task, tree)'s current stream, and the one it replaced last. */
    private static final class Streams {
        private Stream current;
        private Stream previous;

        Streams(Stream current) {
            this.current = current;
        }
    }

    private final class Stream {
        private final long incarnation;
        private long seq;
        private long lastDeliveredNanos;

        Stream(long incarnation, long seq, long nowNanos) {
            this.incarnation = incarnation;
            this.seq = seq;
            this.lastDeliveredNanos = nowNanos;
        }

        /** Whether the frame is this stream's next: its launch, later, and not beyond the largest step ahead. */
        boolean follows(long frameIncarnation, long frameSeq) {
            long step = frameSeq - seq;
            return frameIncarnation == incarnation && frameSeq > seq && step > 0 && step <= MAX_JUMP;
        }

        /** Whether the frame is one this stream delivered already, or skipped over. */
        boolean repeats(long frameIncarnation, long frameSeq) {
            return frameIncarnation == incarnation && frameSeq <= seq;
        }

        void advance(long frameSeq, long nowNanos) {
            skippedFrames += frameSeq - seq - 1;
            seq = frameSeq;
            lastDeliveredNanos = nowNanos;
        }
    }
}

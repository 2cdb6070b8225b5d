package io.whale.wire;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.storm.messaging.TaskMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The credit a member returns on the connection relay frames came in on, once they are done in its whole subtree
 * (the relay's credit ledger): a TaskMessage to the reserved task {@link #CREDIT_TASK_ID} carrying, per launch of a
 * source worker, the tuples credited (entries of incarnation u64, tuples i32). An entry of 0 tuples is a beat: the
 * member is alive and still waits for credit below it (the relay's stall check), so its parent does not take it
 * for cut off. It passes Storm's Netty codec as a plain TaskMessage, as {@link io.whale.wire.FrameCredit} does.
 */
public final class RelayCredit {
    private static final Logger LOG = LoggerFactory.getLogger(RelayCredit.class);
    public static final int CREDIT_TASK_ID = -7011;
    private static final int ENTRY_BYTES = Long.BYTES + Integer.BYTES;

    private RelayCredit() {
    }

    public record Entry(long incarnation, int tuples) {
    }

    public static TaskMessage message(List<Entry> entries) {
        ByteBuffer buf = ByteBuffer.allocate(entries.size() * ENTRY_BYTES);
        for (Entry entry : entries) {
            buf.putLong(entry.incarnation()).putInt(entry.tuples());
        }
        return new TaskMessage(CREDIT_TASK_ID, buf.array());
    }

    /**
     * Hands the relay credit among {@code fromServer} to {@code link} (a relay link's) and returns the other messages in order, or null
     * if there were no others. Without a link (no relay frame went out on this connection) and for a malformed
     * credit, the credit is logged and dropped.
     */
    public static List<TaskMessage> takeCredits(List<TaskMessage> fromServer, Consumer<List<Entry>> link) {
        return FrameCredit.take(fromServer, CREDIT_TASK_ID, payload -> {
            try {
                List<Entry> entries = parse(payload);
                if (link != null) {
                    link.accept(entries);
                } else {
                    LOG.warn("Ignored relay credit on a connection that carried no relay frame");
                }
            } catch (MalformedFrameException e) {
                LOG.warn("Ignored a malformed relay credit: {}", e.getMessage());
            }
        });
    }

    /** The entries of a credit message; no entry may credit fewer than 0 tuples (0: a beat). */
    public static List<Entry> parse(byte[] payload) {
        if (payload == null || payload.length == 0 || payload.length % ENTRY_BYTES != 0) {
            throw new MalformedFrameException("Relay credit of " + (payload == null ? 0 : payload.length)
                                                   + " bytes is not a whole number of " + ENTRY_BYTES + "-byte entries");
        }
        ByteBuffer buf = ByteBuffer.wrap(payload);
        List<Entry> entries = new ArrayList<>(payload.length / ENTRY_BYTES);
        while (buf.hasRemaining()) {
            Entry entry = new Entry(buf.getLong(), buf.getInt());
            if (entry.tuples() < 0) {
                throw new MalformedFrameException("Relay credit of " + entry.tuples() + " tuples");
            }
            entries.add(entry);
        }
        return entries;
    }
}

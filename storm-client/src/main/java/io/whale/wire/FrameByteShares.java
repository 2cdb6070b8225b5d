package io.whale.wire;

import java.util.List;
import java.util.function.ObjLongConsumer;
import org.apache.storm.tuple.AddressedTuple;

/**
 * Storm's {@code topology.serialized.message.size.metrics} counts received bytes per "source-destination" task
 * pair, one TaskMessage each. A BatchTuple frame carries several destinations in one message: its bytes are
 * shared among them (the first {@code length % n} get one byte more), so the pairs still add up to the bytes
 * received.
 */
public final class FrameByteShares {
    private FrameByteShares() {
    }

    /** Hands each dispatched tuple's "source-destination" key and its share of {@code frameLength}. */
    public static void forEach(int frameLength, List<AddressedTuple> dispatched, ObjLongConsumer<String> counter) {
        int n = dispatched.size();
        for (int i = 0; i < n; i++) {
            AddressedTuple tuple = dispatched.get(i);
            long share = frameLength / n + (i < frameLength % n ? 1 : 0);
            counter.accept(tuple.getTuple().getSourceTask() + "-" + tuple.getDest(), share);
        }
    }
}

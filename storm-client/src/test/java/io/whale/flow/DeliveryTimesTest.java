package io.whale.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An emit timed until the credit of its last frame comes back, frame by frame and connection by connection, with plain numbers. */
class DeliveryTimesTest {
    private final List<Long> delivered = new ArrayList<>();
    private final DeliveryTimes toA = new DeliveryTimes();
    private final DeliveryTimes toB = new DeliveryTimes();

    private EmitDelivery emitAt(long nanos) {
        return new EmitDelivery(nanos, delivered::add);
    }

    /** The frames of an emit going to {@code connections}, each carrying {@code tuples}, and the emit built at {@code builtNanos}. */
    private EmitDelivery emit(long nanos, int tuples, long builtNanos, DeliveryTimes... connections) {
        EmitDelivery emit = emitAt(nanos);
        for (DeliveryTimes connection : connections) {
            emit.frameBuilt();
            connection.sent(emit, tuples);
        }
        emit.built(() -> builtNanos);
        return emit;
    }

    @Test
    void shouldTimeAnEmitUntilTheCreditOfItsLastDestinationWorker() {
        emit(100, 2, 110, toA, toB);

        toA.credited(2, 300);
        assertEquals(List.of(), delivered, "B has not credited yet");
        toB.credited(2, 500);
        assertEquals(List.of(400L), delivered);
    }

    @Test
    void shouldNotTimeAnEmitBeforeItHasBuiltAllItsFrames() {
        EmitDelivery emit = emitAt(100);
        emit.frameBuilt();
        toA.sent(emit, 2);
        toA.credited(2, 200);
        assertEquals(List.of(), delivered, "a second frame may still come");

        emit.frameBuilt();
        toB.sent(emit, 2);
        emit.built(() -> 210);
        toB.credited(2, 600);
        assertEquals(List.of(500L), delivered);
    }

    @Test
    void shouldPairCreditsWithFramesInSendOrderWhateverTheirGrouping() {
        emit(100, 3, 100, toA);
        emit(200, 3, 200, toA);
        emit(300, 2, 300, toA);

        toA.credited(4, 1_000);
        assertEquals(List.of(900L), delivered, "4 tuples cover the first frame of 3 only");
        toA.credited(4, 2_000);
        assertEquals(List.of(900L, 1_800L, 1_700L), delivered);
        assertEquals(0, toA.timedInFlight());
    }

    @Test
    void shouldNeverTimeAnEmitWithAFrameOnALostConnection() {
        emit(100, 2, 100, toA, toB);
        emit(200, 2, 200, toB);

        toA.lost();
        toA.credited(2, 300);
        toB.credited(4, 400);
        assertEquals(List.of(200L), delivered, "only the emit whose frames all came back");
    }

    @Test
    void shouldForgetAFrameThatWasNotSentAfterAll() {
        EmitDelivery first = emitAt(100);
        first.frameBuilt();
        DeliveryTimes.Frame unsent = toA.sent(first, 5);
        toA.unsent(unsent, 5);
        emit(200, 2, 200, toA);

        toA.credited(2, 250);
        assertEquals(List.of(50L), delivered, "the credit of 2 is the second emit's, not part of the unsent 5");
    }

    @Test
    void shouldTimeASampledEmitBehindTheUntimedFramesSentBeforeItAndQueueNoneOfThem() {
        for (int tuples : new int[] {3, 4}) {
            EmitDelivery.UNTIMED.frameBuilt();
            toA.sent(EmitDelivery.UNTIMED, tuples);
        }
        emit(100, 2, 100, toA);
        toA.sent(EmitDelivery.UNTIMED, 5);
        assertEquals(1, toA.timedInFlight(), "only the sampled frame waits in the queue");

        toA.credited(7, 200);
        assertEquals(List.of(), delivered, "the credit of the 7 untimed tuples sent before it");
        toA.credited(2, 300);
        assertEquals(List.of(200L), delivered);
        toA.credited(5, 400);
        assertEquals(List.of(200L), delivered, "the untimed frame after it is not timed");
    }

    @Test
    void shouldNeverCountCreditAheadOfWhatWasSent() {
        toA.sent(EmitDelivery.UNTIMED, 6);
        toA.lost();
        toA.credited(6, 150); // for the frame sent before the connection was lost
        emit(100, 2, 100, toA);

        toA.credited(1, 200);
        assertEquals(List.of(), delivered, "the stale credit does not count towards the frame sent after it");
        toA.credited(1, 300);
        assertEquals(List.of(200L), delivered);
    }

    @Test
    void shouldNotTimeAnEmitThatBuiltNoFrame() {
        emitAt(100).built(() -> 150);
        assertEquals(List.of(), delivered);
    }
}

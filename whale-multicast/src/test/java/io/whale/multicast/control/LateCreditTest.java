package io.whale.multicast.control;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LateCreditTest {
    private final LateCredit<String> late = new LateCredit<>();

    @Test
    void shouldTakeACreditForWhatWasSettledUntilThatIsPaidThenNoMore() {
        late.owe("a", 5);
        late.owe("a", 2);

        assertEquals(4, late.take("a", 4));
        assertEquals(3, late.take("a", 10), "what is left of the 7 settled");
        assertEquals(0, late.take("a", 10), "paid: the rest of a credit is for later frames");
        assertEquals(0, late.take("b", 1));
    }

    @Test
    void shouldTakeNothingFromAKeyItForgot() {
        late.owe("a", 5);
        late.forget("a"::equals);
        assertEquals(0, late.take("a", 5));
    }
}

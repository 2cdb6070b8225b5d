package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class KafkaFeedTest {
    private static final String ORDER = "7476cf8a4baa5dc087b341d690d7a28a,1477929600,1477930504,104.127044,30.686183,104.074870,30.687685";

    @Test
    void shouldGiveEveryPassAfterTheFirstOrderIdsOfItsOwn() {
        String first = KafkaFeed.ofPass(ORDER, 0, 1);
        String second = KafkaFeed.ofPass(ORDER, 0, 2);
        String third = KafkaFeed.ofPass(ORDER, 0, 3);

        assertEquals(ORDER, first, "the first pass is the file");
        assertEquals("7476cf8a4baa5dc087b341d690d7a28a-p2,1477929600,1477930504,104.127044,30.686183,104.074870,30.687685", second);
        assertNotEquals(second.split(",")[0], third.split(",")[0]);
        assertEquals("a,b-p2,c", KafkaFeed.ofPass("a,b,c", 1, 2), "a key inside the line");
        assertEquals("a,b,c-p2", KafkaFeed.ofPass("a,b,c", 2, 2), "a key at the end of the line");
    }
}

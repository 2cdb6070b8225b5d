package io.whale.examples.stock.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class WindowedBooksTest {
    @Test
    void shouldKeepOneBookPerWindowAndSymbolUntilTheWatermarkPassesTheWindowPlusLateness() {
        WindowedBooks<List<String>> books = new WindowedBooks<>(1_000, 2_000, ArrayList::new);
        List<String> first = books.book(0, "AAAA");
        assertSame(first, books.book(0, "AAAA"));
        assertNotSame(first, books.book(0, "BBBB"));
        books.book(1_000, "AAAA");

        books.advance(2_999);
        assertEquals(2, books.windowCount(), "window [0, 1000) is kept until ts 3000");
        books.advance(3_000);
        assertEquals(1, books.windowCount());
        books.advance(1_000);
        assertEquals(1, books.windowCount(), "an older timestamp does not move the watermark back");
        assertNotSame(first, books.book(0, "AAAA"), "a dropped window starts afresh");
    }
}

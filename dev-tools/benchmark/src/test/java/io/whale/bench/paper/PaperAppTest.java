package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PaperAppTest {

    @ParameterizedTest
    @EnumSource(PaperApp.class)
    void shouldSpreadTheMatchersKeyedOutputOverOneAggregatorTaskPerWorker(PaperApp app) {
        List<String> args = app.mainArgs("10.0.0.1:9092", "run", "topic", 128, 8);

        assertEquals("8", value(args, "--aggregators"));
        assertEquals("8", value(args, "--workers"));
        assertEquals("128", value(args, "--matchers"));
    }

    private static String value(List<String> args, String option) {
        return args.get(args.indexOf(option) + 1);
    }
}

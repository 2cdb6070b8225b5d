package io.whale.suites;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The proof behind skipping {@code TopologyIntegrationTest#testComponentSpecificConfig} (see
 * {@link KnownUpstreamFailures}): run here with the skips switched off, it fails with the same assertion on the
 * storm-client this JVM runs on — the patched core in the suites' runs, upstream's unpatched jar in the
 * {@code on-upstream-storm-client} run, which {@link StormClientOnClasspath} checks.
 */
class ComponentSpecificConfigFailsAsOnUpstreamTest {
    /**
     * Upstream's assertion as it fails on its own 2.8.3 jar: the maps print alike, but the component conf's numbers
     * come back from 2.8.3's JSON parser as Integer (123) where the test expects Long (123L).
     */
    static final String UPSTREAM_ASSERTION = """

        Expected: is <{topology.kryo.register={fake.type2=a.serializer, fake.type=good.serializer, \
        fake.type3=a.serializer3}, fake.config=123, topology.max.spout.pending=30, fake.config2=987, \
        topology.max.task.parallelism=2}>
             but: was <{topology.kryo.register={"fake.type2":"a.serializer","fake.type":"good.serializer",\
        "fake.type3":"a.serializer3"}, fake.config=123, topology.max.spout.pending=30, \
        topology.max.task.parallelism=2, fake.config2=987}>""";

    @Test
    void shouldFailWithUpstreamsAssertionOnThisStormClient() {
        StormClientOnClasspath.assertIsTheOneThisRunExpects();
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
            .selectors(selectMethod(KnownUpstreamFailures.COMPONENT_SPECIFIC_CONFIG))
            .configurationParameter("junit.jupiter.conditions.deactivate",
                KnownUpstreamFailures.class.getName() + "," + SingleWorkerTests.class.getName())
            .build();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        LauncherFactory.create().execute(request, summary);

        TestExecutionSummary result = summary.getSummary();
        assertEquals(1, result.getTestsStartedCount(), "the upstream test ran");
        List<TestExecutionSummary.Failure> failures = result.getFailures();
        assertEquals(1, failures.size(), "the upstream test failed");
        Throwable failure = failures.get(0).getException();
        assertInstanceOf(AssertionError.class, failure, "failed by an assertion, not an error");
        assertEquals(UPSTREAM_ASSERTION, failure.getMessage());
    }
}

package io.whale.suites;

import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs the upstream LocalCluster tests whose topologies stay in a single worker (acking, branching, timeouts,
 * hooks, tick tuples, rebalance, Storm's testing API) in the runs with {@code whale.suites.single-worker-tests=true}
 * only — the woc run, or every run with {@code -Dupstream-suites.full=true} — and skips them elsewhere, naming why
 * in the report. No transport carries their tuples, so a second and third run would repeat the first for about
 * four and a half minutes each; with WOC on their multi-destination emits still go through WOC's hooks. The tests whose
 * workers exchange tuples, every broadcasting one among them, run in every mode. Registered by JUnit's extension
 * auto-detection (junit-platform.properties).
 */
public class SingleWorkerTests implements ExecutionCondition {
    /** Whole classes whose topologies all run in one worker. */
    private static final Set<String> CLASSES = Set.of("org.apache.storm.integration.TestingTest",
        "org.apache.storm.TickTupleTest", "org.apache.storm.TestRebalance");
    private static final String TOPOLOGY_INTEGRATION = "org.apache.storm.integration.TopologyIntegrationTest";
    /** TopologyIntegrationTest's tests that use several workers; its others use one. */
    private static final Set<String> SEVERAL_WORKERS = Set.of("testBasicTopology", "testSystemStream",
        "testValidateTopologystructure");

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (Boolean.getBoolean("whale.suites.single-worker-tests") || !isSingleWorker(context)) {
            return ConditionEvaluationResult.enabled("runs in every mode");
        }
        return ConditionEvaluationResult.disabled("a single-worker topology: runs in the woc mode only"
            + " (-Dupstream-suites.full=true runs it in every mode)");
    }

    private static boolean isSingleWorker(ExtensionContext context) {
        Optional<Class<?>> testClass = context.getTestClass();
        if (testClass.isEmpty()) {
            return false;
        }
        String name = testClass.get().getName();
        if (CLASSES.contains(name)) {
            return true;
        }
        return name.equals(TOPOLOGY_INTEGRATION) && context.getTestMethod()
            .map(method -> !SEVERAL_WORKERS.contains(method.getName())).orElse(false);
    }
}

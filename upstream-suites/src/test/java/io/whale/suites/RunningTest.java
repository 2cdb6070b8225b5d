package io.whale.suites;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Knows which test is running, so that {@link WorkerTrafficRecorder} can tell which test's workers sent what, and
 * marks where each test starts in the class's output file (a JVM halted by a worker names no test otherwise).
 * Registered with the JUnit launcher through {@code META-INF/services}; tests run one at a time.
 */
public class RunningTest implements TestExecutionListener {
    private static final Logger LOG = LoggerFactory.getLogger(RunningTest.class);
    static final String NONE = "(between tests)";
    private static volatile String current = NONE;

    /** {@code Class#method} of the test running now. */
    static String current() {
        return current;
    }

    @Override
    public void executionStarted(TestIdentifier test) {
        if (test.isTest()) {
            current = test.getSource()
                .filter(MethodSource.class::isInstance)
                .map(MethodSource.class::cast)
                .map(m -> simpleName(m.getClassName()) + "#" + m.getMethodName())
                .orElse(test.getDisplayName());
            LOG.info("Starting {}", current);
        }
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (test.isTest()) {
            current = NONE;
        }
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}

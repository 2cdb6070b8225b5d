package io.whale.suites;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Knows which test is running, so that {@link WorkerTrafficRecorder} can tell which test's workers sent what.
 * Registered with the JUnit launcher through {@code META-INF/services}; tests run one at a time.
 */
public class RunningTest implements TestExecutionListener {
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

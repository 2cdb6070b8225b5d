package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

/**
 * One real cluster for every test class annotated {@code @SharedCluster.On(shape)}, handed to its tests as a
 * {@link PrivateLocalCluster} parameter: a start and a stop of a cluster cost 20 to 30 s of the build on CI's two cores
 * (issue 31), and these tests need nothing of a fresh one. A test leaves the cluster as it found it: it kills its
 * topologies and waits until their workers are gone. After each class the extension makes sure of it: it kills any
 * topology left running, waits until no worker is left, and fails the class that left one (after a failed test, so that
 * the next class does not fail for it).
 *
 * <p>One shared cluster is up at a time: it starts when the first class of its shape runs, and stops (by its handle,
 * {@link PrivateLocalCluster#close}, which checks that no process of it is left) when a class of another shape starts or
 * when the run ends (JUnit's root store closes it; failsafe reports a failed close as a failure of "JUnit Jupiter").
 * A test that fails carries what the cluster logged about its workers' lives ({@link ClusterLogDigest}).
 * {@link GroupedByShape}, the failsafe run's class order, runs the classes of a shape one after the other.
 */
final class SharedCluster implements BeforeAllCallback, AfterAllCallback, ParameterResolver, TestExecutionExceptionHandler {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedCluster.class);
    private static final String RUNNING = "running";

    /**
     * Both shapes run Storm's SASL between workers ({@link SecuredTransport#saslCluster}), so that every test on them runs
     * WOC, acking, relay trees and the UI as a cluster secured that way does; a topology may switch to TLS itself.
     */
    enum Shape {
        /** {@code local-cluster up --supervisors 2} in a private network namespace. */
        TWO_SUPERVISORS,
        /** {@code local-cluster up --hosts 4}, links unshaped. */
        FOUR_HOSTS;

        private PrivateLocalCluster start() throws Exception {
            Path dir = Path.of("target/shared-cluster-" + name().toLowerCase().replace('_', '-')).toAbsolutePath();
            return switch (this) {
                case TWO_SUPERVISORS -> PrivateLocalCluster.up(dir, 2, SecuredTransport.saslCluster());
                case FOUR_HOSTS -> PrivateLocalCluster.upHosts(dir, 4, 0, SecuredTransport.saslCluster());
            };
        }

        private boolean available() {
            return this == TWO_SUPERVISORS ? WhaleCli.privateNetworkAvailable() : EmulatedHosts.available();
        }
    }

    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @ExtendWith(SharedCluster.class)
    @interface On {
        Shape value();
    }

    /** The cluster of one shape, closed by JUnit at the end of the run unless a class of another shape closed it first. */
    private record Running(Shape shape, PrivateLocalCluster cluster) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() throws Exception {
            cluster.close();
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Shape shape = shapeOf(context.getRequiredTestClass());
        assumeTrue(shape.available(), "needs root for network namespaces (unshare --net, ip netns, bridges, veth links)");
        ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
        Running running = store.get(RUNNING, Running.class);
        if (running != null && running.shape() != shape) {
            store.remove(RUNNING);
            running.close();
            running = null;
        }
        if (running == null) {
            store.put(RUNNING, new Running(shape, shape.start()));
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        Running running = context.getRoot().getStore(NAMESPACE).get(RUNNING, Running.class);
        if (running != null) {
            List<String> left = running.cluster().killEveryTopology();
            assertEquals(List.of(), left, context.getRequiredTestClass().getSimpleName() + " left topologies running on the shared cluster");
        }
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        Running running = context.getRoot().getStore(NAMESPACE).get(RUNNING, Running.class);
        if (running != null && !(failure instanceof TestAbortedException)) {
            try {
                AssertionError digest = new AssertionError(ClusterLogDigest.text(running.cluster().dir().resolve("logs")), null);
                digest.setStackTrace(new StackTraceElement[0]);
                failure.addSuppressed(digest);
            } catch (RuntimeException unreadable) {
                failure.addSuppressed(unreadable);
            }
        }
        throw failure;
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == PrivateLocalCluster.class;
    }

    @Override
    public PrivateLocalCluster resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE).get(RUNNING, Running.class).cluster();
    }

    private static Shape shapeOf(Class<?> testClass) {
        return testClass.getAnnotation(On.class).value();
    }

    /** Test classes in the order of their name, those of one shared cluster's shape together, after the others. */
    public static final class GroupedByShape implements ClassOrderer {
        @Override
        public void orderClasses(ClassOrdererContext context) {
            context.getClassDescriptors().sort(Comparator.comparing((ClassDescriptor c) -> c.findAnnotation(On.class).map(on -> on.value().ordinal() + 1)
                .orElse(0)).thenComparing(c -> c.getTestClass().getName()));
        }
    }
}

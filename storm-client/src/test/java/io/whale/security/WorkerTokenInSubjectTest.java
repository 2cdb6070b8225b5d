package io.whale.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedAction;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.security.auth.Subject;
import org.apache.storm.generated.WorkerToken;
import org.apache.storm.generated.WorkerTokenServiceType;
import org.apache.storm.security.auth.ThriftConnectionType;
import org.apache.storm.security.auth.workertoken.WorkerTokenClientCallbackHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker connecting to Nimbus with DIGEST or Kerberos security finds its worker token in the subject it runs as
 * (patch 0024). The old lookup, Subject.getSubject(AccessController.getContext()), throws from Java 24 on; the tests
 * run on Java 17, where it still works, so the lookup also runs in a JVM of release 24 or newer when the machine has
 * one (CI's has Java 25).
 */
class WorkerTokenInSubjectTest {
    private static final WorkerToken TOKEN =
        new WorkerToken(WorkerTokenServiceType.NIMBUS, ByteBuffer.wrap(new byte[] {1, 2}), ByteBuffer.wrap(new byte[] {3}));

    @Test
    void shouldFindTheWorkerTokenOfTheSubjectTheThreadRunsAs() {
        assertEquals(TOKEN, Lookup.nimbusTokenAsWorker());
    }

    @Test
    void shouldFindTheWorkerTokenOnJava24AndNewer(@TempDir Path dir) throws Exception {
        Optional<Path> java = javaOfRelease24OrNewer();
        assumeTrue(java.isPresent(), "no JDK of release 24 or newer under /usr/lib/jvm");
        Path out = dir.resolve("lookup.out");
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process lookup = new ProcessBuilder(java.get().toString(), "-cp", classPath, Lookup.class.getName())
            .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            assertTrue(lookup.waitFor(60, TimeUnit.SECONDS), java.get() + " did not finish the lookup");
            String output = Files.readString(out);
            assertEquals(0, lookup.exitValue(), output);
            assertTrue(output.contains("found the NIMBUS worker token"), output);
        } finally {
            lookup.destroyForcibly();
        }
    }

    private static Optional<Path> javaOfRelease24OrNewer() throws IOException {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            List<Path> javas = homes.filter(h -> !Files.isSymbolicLink(h) && release(h) >= 24).map(h -> h.resolve("bin/java"))
                .filter(Files::isExecutable).toList();
            return javas.stream().findFirst();
        }
    }

    /** The feature release in a JDK home's release file (JAVA_VERSION="25.0.3" is 25), 0 without one. */
    private static int release(Path home) {
        try {
            return Files.readAllLines(home.resolve("release")).stream().filter(l -> l.startsWith("JAVA_VERSION=\""))
                .map(l -> l.substring("JAVA_VERSION=\"".length()).split("[.\"]")[0]).mapToInt(Integer::parseInt).findFirst().orElse(0);
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    /** The lookup a worker makes, in its own JVM for the newer runtime. */
    public static final class Lookup {
        public static void main(String[] args) {
            WorkerToken found = nimbusTokenAsWorker();
            if (!TOKEN.equals(found)) {
                System.out.println("the lookup found " + found);
                System.exit(1);
            }
            System.out.println("found the NIMBUS worker token");
        }

        @SuppressWarnings("removal")
        static WorkerToken nimbusTokenAsWorker() {
            Subject worker = new Subject();
            worker.getPrivateCredentials().add(TOKEN);
            return Subject.doAs(worker,
                (PrivilegedAction<WorkerToken>) () -> WorkerTokenClientCallbackHandler.findWorkerTokenInSubject(ThriftConnectionType.NIMBUS));
        }
    }
}

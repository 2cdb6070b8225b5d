package io.whale.examples.kafka;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code start | stop | status} of a background {@link KafkaBrokerMain} process whose state lives in
 * one folder ({@code broker.pid}, {@code bootstrap.servers}, {@code broker.log}, {@code kraft-logs/}).
 *
 * <p>Exit codes: 0 success / running; 1 failure; 3 not running (status, like an LSB init script).
 */
@Command(name = "kafka", mixinStandardHelpOptions = true,
        description = "Starts, stops or checks a single-node KRaft Kafka broker (on 127.0.0.1 unless --host says otherwise).",
        subcommands = {KafkaBrokerControl.Start.class, KafkaBrokerControl.Stop.class, KafkaBrokerControl.Status.class})
public final class KafkaBrokerControl {
    static final int NOT_RUNNING = 3;
    static final String DEFAULT_HOST = "127.0.0.1";
    private static final String MAIN_CLASS = KafkaBrokerMain.class.getName();
    /** First JVM argument of every broker process: identifies it even where the OS truncates long command lines. */
    private static final String PROCESS_MARKER = "-Dwhale.kafka.broker=true";

    public static void main(String[] args) {
        System.exit(new CommandLine(new KafkaBrokerControl()).execute(args));
    }

    abstract static class FolderCommand implements Callable<Integer> {
        @Option(names = "--dir", defaultValue = "whale-kafka", description = "broker folder (default: ${DEFAULT-VALUE})")
        Path dir;

        @Option(names = "--timeout-s", defaultValue = "60", description = "how long to wait (default: ${DEFAULT-VALUE})")
        int timeoutSeconds;

        BrokerFolder folder() {
            return new BrokerFolder(dir);
        }
    }

    @Command(name = "start", description = "Starts the broker in the background and waits until it answers.")
    static final class Start extends FolderCommand {
        @Option(names = "--host", defaultValue = DEFAULT_HOST, description = "address the broker listens on and gives its "
                + "clients, e.g. an emulated host's, for clients in other network namespaces (default: ${DEFAULT-VALUE})")
        String host;

        @Option(names = "--port", defaultValue = "9092", description = "client port, 0 = a free one (default: ${DEFAULT-VALUE})")
        int port;

        @Option(names = "--heap", defaultValue = "512m", description = "broker JVM heap (default: ${DEFAULT-VALUE})")
        String heap;

        @Option(names = "--user", description = "as root: the user the broker runs as, given its folder "
                + "(default: $" + BrokerUser.ENV + ", the demos' daemon user; else the command's own)")
        String user;

        @Override
        public Integer call() throws IOException, InterruptedException {
            BrokerFolder folder = folder();
            Optional<ProcessHandle> running = runningBroker(folder);
            if (running.isPresent()) {
                System.out.println("Kafka already running: pid " + running.get().pid() + ", bootstrap "
                        + folder.bootstrapServers().orElse("?"));
                return 0;
            }
            int clientPort = port == 0 ? LoopbackPorts.free() : port;
            String bootstrap = host + ":" + clientPort;
            folder.writeLog4jConfig();
            List<String> broker = List.of(
                    javaExecutable(), PROCESS_MARKER, "-Xmx" + heap, "-XX:+UseSerialGC",
                    "-Dlog4j2.configurationFile=" + folder.log4jConfig(),
                    "-cp", System.getProperty("java.class.path"),
                    MAIN_CLASS, "--dir", folder.dir().toString(), "--host", host, "--port", Integer.toString(clientPort));
            Optional<BrokerUser> as;
            try {
                as = Optional.ofNullable(user).or(() -> Optional.ofNullable(System.getenv(BrokerUser.ENV)))
                        .filter(name -> !name.isBlank() && !name.equals(System.getProperty("user.name"))).map(BrokerUser::of);
                as.ifPresent(u -> u.own(folder.dir()));
            } catch (IllegalArgumentException e) {
                System.err.println("whale kafka: " + e.getMessage());
                return 1;
            }
            Process process = new ProcessBuilder(as.map(u -> u.launch(broker)).orElse(broker))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(folder.logFile().toFile()))
                    .start();
            folder.recordStarted(process.pid(), bootstrap);
            Instant deadline = Instant.now().plusSeconds(timeoutSeconds);
            while (Instant.now().isBefore(deadline)) {
                if (!process.isAlive()) {
                    folder.recordStopped();
                    System.err.println("Kafka broker exited with code " + process.exitValue() + "; see " + folder.logFile());
                    return 1;
                }
                if (TopicAdmin.answers(bootstrap, Duration.ofSeconds(2))) {
                    System.out.println("Kafka running: pid " + process.pid() + ", bootstrap " + bootstrap
                            + ", data in " + folder.dir() + as.map(u -> ", as " + u.name()).orElse(""));
                    return 0;
                }
            }
            System.err.println("Kafka broker did not answer within " + timeoutSeconds + " s; stopping it. See " + folder.logFile());
            stop(process.toHandle(), Duration.ofSeconds(timeoutSeconds));
            folder.recordStopped();
            return 1;
        }
    }

    @Command(name = "stop", description = "Stops the broker (SIGTERM, then SIGKILL after the timeout).")
    static final class Stop extends FolderCommand {
        @Override
        public Integer call() {
            BrokerFolder folder = folder();
            Optional<ProcessHandle> running = runningBroker(folder);
            if (running.isEmpty()) {
                folder.recordStopped();
                System.out.println("Kafka not running");
                return 0;
            }
            boolean clean = stop(running.get(), Duration.ofSeconds(timeoutSeconds));
            folder.recordStopped();
            System.out.println(clean ? "Kafka stopped" : "Kafka did not stop in time and was killed");
            return 0;
        }
    }

    @Command(name = "status", description = "Prints whether the broker runs and answers; exit 0 running, 3 not running, 1 not answering.")
    static final class Status extends FolderCommand {
        @Override
        public Integer call() {
            BrokerFolder folder = folder();
            Optional<ProcessHandle> running = runningBroker(folder);
            if (running.isEmpty()) {
                System.out.println("Kafka not running");
                return NOT_RUNNING;
            }
            String bootstrap = folder.bootstrapServers().orElse("?");
            if (TopicAdmin.answers(bootstrap, Duration.ofSeconds(Math.min(timeoutSeconds, 10)))) {
                System.out.println("Kafka running: pid " + running.get().pid() + ", bootstrap " + bootstrap);
                return 0;
            }
            System.out.println("Kafka process " + running.get().pid() + " is alive but does not answer at " + bootstrap);
            return 1;
        }
    }

    /** The broker process recorded in the folder, if it is alive and really is a broker (pids get reused). */
    static Optional<ProcessHandle> runningBroker(BrokerFolder folder) {
        return folder.pid()
                .flatMap(ProcessHandle::of)
                .filter(ProcessHandle::isAlive)
                .filter(h -> h.info().commandLine().map(c -> c.contains(PROCESS_MARKER)).orElse(true));
    }

    /** Asks the process to terminate; kills it if it is still alive after {@code timeout}. True when it stopped by itself. */
    static boolean stop(ProcessHandle process, Duration timeout) {
        process.destroy();
        try {
            process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            process.destroyForcibly();
            process.onExit().join();
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            return false;
        }
    }

    private static String javaExecutable() {
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        return Files.isExecutable(java) ? java.toString() : "java";
    }
}

package io.whale.cluster.hosts;

import io.whale.cluster.LocalClusterException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Runs what a {@link HostNetworkPlan} says on this machine, and reads back what exists. */
public final class HostNetwork {
    private static final Path NAMED_NAMESPACES = Path.of("/run/netns");

    private HostNetwork() {
    }

    /** Fails with what to do unless this process is root and has {@code ip} and {@code tc}. */
    public static void requireRoot(String what) {
        Object uid;
        try {
            uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | UnsupportedOperationException e) {
            throw new LocalClusterException(what + " needs Linux network namespaces (/proc is not readable: " + e.getMessage() + ")");
        }
        if (!Integer.valueOf(0).equals(uid)) {
            throw new LocalClusterException(what + " needs root: the emulated hosts are network namespaces joined by veth links "
                + "to a bridge, shaped with tc, and only root may create them. Run it as root (e.g. sudo bin/whale local-cluster ...), "
                + "or leave out --hosts for a cluster on 127.0.0.1.");
        }
        for (List<String> probe : List.of(List.of("ip", "-V"), List.of("tc", "-V"))) {
            try {
                SystemCommand.run(probe);
            } catch (LocalClusterException e) {
                throw new LocalClusterException(what + " needs the '" + probe.get(0) + "' command (Debian: apt-get install iproute2): "
                    + e.getMessage());
            }
        }
    }

    public static void run(List<List<String>> commands) {
        commands.forEach(SystemCommand::run);
    }

    public static boolean exists(String namespace) {
        return Files.exists(NAMED_NAMESPACES.resolve(namespace));
    }

    /** Whether this process runs in the named namespace (the same namespace inode). */
    public static boolean isCurrent(String namespace) {
        try {
            String self = Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
            Object inode = Files.getAttribute(NAMED_NAMESPACES.resolve(namespace), "unix:ino");
            return self.equals("net:[" + inode + "]");
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code command} run inside the named namespace. */
    public static List<String> inNamespace(String namespace, List<String> command) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        full.addAll(command);
        return full;
    }

    /**
     * Runs {@code command} inside the namespace with this process's terminal; returns its exit code. It enters the
     * network namespace alone ({@code nsenter --net}): {@code ip netns exec} also mounts a sysfs of the namespace's
     * over {@code /sys}, which hides the CPU control groups the daemons started from there join ({@code --host-cpus}).
     */
    public static int runInside(String namespace, List<String> command) {
        List<String> full = new ArrayList<>(List.of("nsenter", "--net=" + NAMED_NAMESPACES.resolve(namespace)));
        full.addAll(command);
        try {
            return new ProcessBuilder(full).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot enter network namespace " + namespace, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalClusterException("interrupted while running a command in " + namespace);
        }
    }

    /** The processes inside the named namespace (empty once it is gone). */
    public static List<Long> pidsIn(String namespace) {
        if (!exists(namespace)) {
            return List.of();
        }
        return SystemCommand.run(List.of("ip", "netns", "pids", namespace)).lines()
            .map(String::strip).filter(l -> !l.isEmpty()).map(Long::parseLong).toList();
    }

    public static void delete(String namespace) {
        SystemCommand.run(List.of("ip", "netns", "del", namespace));
    }

    public static Optional<LinkCounters> counters(String namespace, String device) {
        if (!exists(namespace)) {
            return Optional.empty();
        }
        return Optional.of(LinkCounters.parse(SystemCommand.run(List.of("ip", "-n", namespace, "-j", "-s", "link", "show", "dev", device))));
    }

    /** The networks routed here, in the machine's namespace (pid 1's) and in every emulated host of any Whale cluster. */
    public static List<Ipv4Cidr> networksInUse() {
        List<Ipv4Cidr> networks = new ArrayList<>(routes(List.of()));
        if (Files.isReadable(Path.of("/proc/1/ns/net"))) {
            networks.addAll(routes(List.of("nsenter", "--net=/proc/1/ns/net")));
        }
        try (Stream<Path> named = Files.exists(NAMED_NAMESPACES) ? Files.list(NAMED_NAMESPACES) : Stream.empty()) {
            for (String ns : named.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("whale-")).toList()) {
                networks.addAll(routes(List.of("ip", "netns", "exec", ns)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + NAMED_NAMESPACES, e);
        }
        return networks;
    }

    private static List<Ipv4Cidr> routes(List<String> prefix) {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of("ip", "-4", "route", "show", "table", "all"));
        return SubnetChoice.routeDestinations(SystemCommand.run(command));
    }
}

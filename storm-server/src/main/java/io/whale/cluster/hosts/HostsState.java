package io.whale.cluster.hosts;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What {@code up --hosts} planned and what faults have changed since, kept in the cluster's folder
 * ({@code hosts.properties}) so that {@code status}, {@code fault} and {@code down} find every name it chose. It is
 * written before anything is created, so a {@code down} after an {@code up} that failed half-way knows every name.
 * {@code hostCpus}: the cores each host has ({@code --host-cpus}, a CPU control group per host named as its
 * namespace), empty when the hosts share the machine's.
 */
public record HostsState(HostNetworkPlan plan, Map<Integer, Integer> rates, Set<Integer> partitioned, OptionalDouble hostCpus) {

    public HostsState {
        rates = Map.copyOf(rates);
        partitioned = Set.copyOf(partitioned);
    }

    public static HostsState planned(HostNetworkPlan plan, OptionalDouble hostCpus) {
        Map<Integer, Integer> rates = new TreeMap<>();
        plan.linkMbit().ifPresent(mbit -> {
            for (int host = 1; host <= plan.hosts(); host++) {
                rates.put(host, mbit);
            }
        });
        return new HostsState(plan, rates, Set.of(), hostCpus);
    }

    /** Host {@code host}'s link rate now; empty while unshaped. */
    public OptionalInt rate(int host) {
        Integer mbit = rates.get(host);
        return mbit == null ? OptionalInt.empty() : OptionalInt.of(mbit);
    }

    public HostsState withRate(int host, int mbit) {
        Map<Integer, Integer> changed = new TreeMap<>(rates);
        changed.put(host, mbit);
        return new HostsState(plan, changed, partitioned, hostCpus);
    }

    public HostsState withPartitioned(int host, boolean cut) {
        Set<Integer> changed = new TreeSet<>(partitioned);
        if (cut) {
            changed.add(host);
        } else {
            changed.remove(host);
        }
        return new HostsState(plan, rates, changed, hostCpus);
    }

    public void store(Path file) {
        Properties p = new Properties();
        p.setProperty("cluster.id", plan.clusterId());
        p.setProperty("subnet", plan.subnet().toString());
        p.setProperty("hosts", String.valueOf(plan.hosts()));
        plan.linkMbit().ifPresent(mbit -> p.setProperty("link.mbit", String.valueOf(mbit)));
        rates.forEach((host, mbit) -> p.setProperty("host." + host + ".link.mbit", String.valueOf(mbit)));
        partitioned.forEach(host -> p.setProperty("host." + host + ".partitioned", "true"));
        hostCpus.ifPresent(cpus -> p.setProperty("host.cpus", String.valueOf(cpus)));
        try {
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            try (Writer out = Files.newBufferedWriter(tmp)) {
                p.store(out, "whale local-cluster --hosts: namespaces whale-" + plan.clusterId() + "-h0..h" + plan.hosts());
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    public static HostsState load(Path file) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        String link = p.getProperty("link.mbit");
        HostNetworkPlan plan = new HostNetworkPlan(p.getProperty("cluster.id"), Ipv4Cidr.parse(p.getProperty("subnet")),
            Integer.parseInt(p.getProperty("hosts")), link == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(link)));
        Map<Integer, Integer> rates = new TreeMap<>();
        Set<Integer> partitioned = new TreeSet<>();
        for (int host = 1; host <= plan.hosts(); host++) {
            String mbit = p.getProperty("host." + host + ".link.mbit");
            if (mbit != null) {
                rates.put(host, Integer.parseInt(mbit));
            }
            if (Boolean.parseBoolean(p.getProperty("host." + host + ".partitioned"))) {
                partitioned.add(host);
            }
        }
        String cpus = p.getProperty("host.cpus");
        return new HostsState(plan, rates, partitioned, cpus == null ? OptionalDouble.empty() : OptionalDouble.of(Double.parseDouble(cpus)));
    }

    /**
     * {@code command} run on emulated host {@code host}: in its network namespace and, with {@code --host-cpus}, in its
     * CPU control group.
     */
    public List<String> onHost(int host, List<String> command) {
        List<String> inNamespace = HostNetwork.inNamespace(plan.namespace(host), command);
        return hostCpus.isPresent() ? CpuGroups.require("--host-cpus").joining(plan.namespace(host), inNamespace) : inNamespace;
    }
}

package io.whale.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ports of a local cluster, laid out from one base port so they stay clear of Storm's defaults
 * (2181, 6627, 6628, 6700-6703, 8080): ZooKeeper at base, Nimbus at base+1, the UI at base+2, Supervisor i's Thrift
 * port at base+10+i and its worker slots from base+100+10*i; the workers' Prometheus endpoints take the first free
 * port of base+50..base+99 on their host.
 */
public record PortPlan(int base, int supervisors, int slotsPerSupervisor) {
    public static final int DEFAULT_BASE = 16000;
    public static final int MAX_SUPERVISORS = 9;

    public PortPlan {
        if (base < 1024 || base + 100 + 10 * MAX_SUPERVISORS > 65535) {
            throw new IllegalArgumentException("--base-port must lie in 1024.." + (65535 - 100 - 10 * MAX_SUPERVISORS) + ", got " + base);
        }
        if (supervisors < 1 || supervisors > MAX_SUPERVISORS) {
            throw new IllegalArgumentException("--supervisors must lie in 1.." + MAX_SUPERVISORS + ", got " + supervisors);
        }
        if (slotsPerSupervisor < 1 || slotsPerSupervisor > 10) {
            throw new IllegalArgumentException("--slots must lie in 1..10, got " + slotsPerSupervisor);
        }
    }

    public int zookeeper() {
        return base;
    }

    public int nimbus() {
        return base + 1;
    }

    public int ui() {
        return base + 2;
    }

    /** The range the workers' Prometheus endpoints take their ports from, as the reporter's {@code port} reads it. */
    public String prometheusPorts() {
        return (base + 50) + "-" + (base + 99);
    }

    /** Supervisor numbers start at 1. */
    public int supervisorThrift(int supervisor) {
        return base + 10 + supervisor;
    }

    public List<Integer> slots(int supervisor) {
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < slotsPerSupervisor; i++) {
            ports.add(base + 100 + 10 * supervisor + i);
        }
        return ports;
    }

    /** Every port with the setting it serves, in start order. */
    public Map<Integer, String> all() {
        Map<Integer, String> ports = new LinkedHashMap<>();
        ports.put(zookeeper(), "storm.zookeeper.port");
        ports.put(nimbus(), "nimbus.thrift.port");
        ports.put(ui(), "ui.port");
        for (int s = 1; s <= supervisors; s++) {
            ports.put(supervisorThrift(s), "supervisor.thrift.port of supervisor-" + s);
            for (int slot : slots(s)) {
                ports.put(slot, "supervisor.slots.ports of supervisor-" + s);
            }
        }
        return ports;
    }

    /** Fails naming the first port another process holds (Storm's daemons bind every interface). */
    public void checkFree() {
        all().forEach((port, role) -> {
            if (!isFree(port)) {
                throw new LocalClusterException("port " + port + " (" + role + ") is taken by another process; "
                    + "stop it or choose other ports with --base-port");
            }
        });
    }

    static boolean isFree(int port) {
        try (ServerSocket any = new ServerSocket()) {
            any.setReuseAddress(false);
            any.bind(new InetSocketAddress(port));
        } catch (IOException e) {
            return false;
        }
        try (ServerSocket loopback = new ServerSocket()) {
            loopback.setReuseAddress(false);
            loopback.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

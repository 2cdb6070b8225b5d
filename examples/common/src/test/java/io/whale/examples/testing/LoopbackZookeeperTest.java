package io.whale.examples.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoopbackZookeeperTest {
    @TempDir
    Path dir;

    @Test
    void shouldServeClientsOnTheLoopbackPortUntilClosed() throws Exception {
        int port;
        try (LoopbackZookeeper zookeeper = LoopbackZookeeper.start(dir)) {
            port = zookeeper.port();
            CountDownLatch connected = new CountDownLatch(1);
            ZooKeeper client = new ZooKeeper("127.0.0.1:" + port, 10_000, event -> {
                if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    connected.countDown();
                }
            });
            try {
                assertTrue(connected.await(30, TimeUnit.SECONDS));
                client.create("/probe", new byte[] {42}, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                assertArrayEquals(new byte[] {42}, client.getData("/probe", false, null));
            } finally {
                client.close();
            }
        }
        int closedPort = port;
        assertThrows(ConnectException.class, () -> new Socket(InetAddress.getLoopbackAddress(), closedPort).close());
    }
}

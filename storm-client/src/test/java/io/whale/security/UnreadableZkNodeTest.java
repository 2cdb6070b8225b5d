package io.whale.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.RETURNS_DEEP_STUBS;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.util.List;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.zookeeper.KeeperException;
import org.apache.storm.shade.org.apache.zookeeper.ZooDefs;
import org.apache.storm.utils.Utils;
import org.apache.storm.zookeeper.ClientZookeeper;
import org.junit.jupiter.api.Test;

/** A ZooKeeper node that answers exists() with NoAuth (ZooKeeper 3.9.3 and newer, no READ on it) exists. */
class UnreadableZkNodeTest {
    @Test
    void shouldTakeANodeThatRefusesExistsForWantOfReadAsExisting() {
        assertTrue(UnreadableZkNode.existsOrUnreadable(() -> {
            throw Utils.wrapInRuntime(new KeeperException.NoAuthException());
        }));
        assertFalse(UnreadableZkNode.existsOrUnreadable(() -> false));
        assertThrows(RuntimeException.class, () -> UnreadableZkNode.existsOrUnreadable(() -> {
            throw Utils.wrapInRuntime(new KeeperException.ConnectionLossException());
        }), "any other failure is not an answer");
    }

    /** What a worker authenticated as its topology met at start: Storm's root, made by Nimbus, refuses it exists(). */
    @Test
    void shouldNotFailNorCreateWhenMkdirsMeetsARootItMayNotRead() throws Exception {
        CuratorFramework zk = mock(CuratorFramework.class, RETURNS_DEEP_STUBS);
        when(zk.checkExists().forPath("/storm")).thenThrow(new KeeperException.NoAuthException());

        ClientZookeeper.mkdirs(zk, "/storm", List.copyOf(ZooDefs.Ids.CREATOR_ALL_ACL));

        verify(zk, never()).create();
    }
}

package io.whale.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.notNull;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mockConstruction;
import static org.mockito.Mockito.when;

import org.apache.storm.LocalCluster;
import org.apache.storm.daemon.supervisor.Supervisor;
import org.junit.jupiter.api.Test;
import org.mockito.InOrder;
import org.mockito.MockedConstruction;

/**
 * A LocalCluster's supervisor runs its first assignment sync and heartbeat report on its own threads as soon as it
 * launches, through the in-process Nimbus: handed over after launch(), a sync that ran first met a null Nimbus and
 * halted the JVM (patch 0001 of storm-server's series).
 */
class LocalSupervisorLaunchTest {

    @Test
    void shouldHandTheSupervisorItsNimbusBeforeItLaunches() throws Exception {
        try (MockedConstruction<Supervisor> supervisors =
                 mockConstruction(Supervisor.class, (supervisor, context) -> when(supervisor.getId()).thenReturn("supervisor-1"));
             LocalCluster cluster = new LocalCluster.Builder().withSupervisors(1).build()) {
            assertEquals(1, supervisors.constructed().size());
            Supervisor supervisor = supervisors.constructed().get(0);
            InOrder order = inOrder(supervisor);
            order.verify(supervisor).setLocalNimbus(notNull());
            order.verify(supervisor).launch();
        }
    }
}

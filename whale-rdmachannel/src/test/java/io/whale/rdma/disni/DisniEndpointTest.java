package io.whale.rdma.disni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.ibm.disni.RdmaEndpoint;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.SVCPostRecv;
import com.ibm.disni.verbs.SVCPostSend;
import com.ibm.disni.verbs.SVCRegMr;
import io.whale.rdma.spi.Completion;
import io.whale.rdma.spi.EndpointHandler;
import io.whale.rdma.spi.RegionAccess;
import io.whale.rdma.spi.RemoteRegion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

/** The DiSNI endpoint against a mocked verbs endpoint: which work requests it posts, and how completions flow. */
class DisniEndpointTest {
    private final RdmaEndpoint verbs = mock(RdmaEndpoint.class);
    private final SVCPostSend postSend = mock(SVCPostSend.class);
    private final SVCPostRecv postRecv = mock(SVCPostRecv.class);
    private final List<Runnable> progressTasks = new ArrayList<>();
    private final Executor progress = progressTasks::add;
    private final List<String> events = new ArrayList<>();
    private DisniEndpoint endpoint;

    @BeforeEach
    void setUp() throws IOException {
        when(verbs.postSend(anyList())).thenReturn(postSend);
        when(postSend.execute()).thenReturn(postSend);
        when(verbs.postRecv(anyList())).thenReturn(postRecv);
        when(postRecv.execute()).thenReturn(postRecv);
        endpoint = new DisniEndpoint(verbs, progress, "10.0.0.2:6700");
        endpoint.setHandler(new EndpointHandler() {
            @Override
            public void onControl(io.whale.rdma.spi.RdmaEndpoint from, ByteBuffer message) {
                events.add("control " + message.remaining());
            }

            @Override
            public void onError(io.whale.rdma.spi.RdmaEndpoint from, String reason) {
                events.add("error " + reason);
            }
        });
    }

    private static IbvMr mr(long address, int lkey, int rkey) {
        IbvMr mr = mock(IbvMr.class);
        when(mr.getAddr()).thenReturn(address);
        when(mr.getLkey()).thenReturn(lkey);
        when(mr.getRkey()).thenReturn(rkey);
        return mr;
    }

    private Completion recording(String name) {
        return new Completion() {
            @Override
            public void onSuccess() {
                events.add(name + " ok");
            }

            @Override
            public void onError(String reason) {
                events.add(name + " failed: " + reason);
            }
        };
    }

    private static IbvWC completion(long wrId, int status, int bytes) {
        IbvWC wc = new IbvWC();
        wc.setWr_id(wrId);
        wc.setStatus(status);
        wc.setByte_len(bytes);
        return wc;
    }

    @SuppressWarnings("unchecked")
    private IbvSendWR postedWorkRequest() throws IOException {
        ArgumentCaptor<List<IbvSendWR>> posted = ArgumentCaptor.forClass(List.class);
        verify(verbs).postSend(posted.capture());
        assertEquals(1, posted.getValue().size());
        return posted.getValue().get(0);
    }

    @Test
    void shouldPostAReadAtTheRingOffsetsAndCompleteItOnTheProgressThread() throws IOException {
        DisniRegion mirror = new DisniRegion(ByteBuffer.allocateDirect(1 << 20), mr(0x7000_0000L, 11, 12));
        RemoteRegion ring = endpoint.attach(0x5000_0000L, 1 << 20, ByteBuffer.allocate(4).putInt(77).array());

        endpoint.read(ring, 4096, mirror, 4096, 65536, recording("read"));

        IbvSendWR wr = postedWorkRequest();
        assertEquals(IbvSendWR.IBV_WR_RDMA_READ, wr.getOpcode());
        assertEquals(0x7000_0000L + 4096, wr.getSg_list().get(0).getAddr());
        assertEquals(11, wr.getSg_list().get(0).getLkey());
        assertEquals(65536, wr.getSg_list().get(0).getLength());
        assertEquals(0x5000_0000L + 4096, wr.getRdma().getRemote_addr());
        assertEquals(77, wr.getRdma().getRkey());

        endpoint.onCompletion(completion(wr.getWr_id(), IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal(), 65536));
        assertTrue(events.isEmpty(), "completions run on the progress thread, not on DiSNI's CQ thread");
        progressTasks.forEach(Runnable::run);
        assertEquals(List.of("read ok"), events);
    }

    @Test
    void shouldRefuseAReadOutsideTheRegions() {
        DisniRegion mirror = new DisniRegion(ByteBuffer.allocateDirect(1024), mr(0x1000, 1, 2));
        RemoteRegion ring = endpoint.attach(0x2000, 1024, ByteBuffer.allocate(4).putInt(3).array());
        assertThrows(IllegalArgumentException.class, () -> endpoint.read(ring, 1000, mirror, 0, 100, recording("r")));
        assertThrows(IllegalArgumentException.class, () -> endpoint.attach(0x2000, 1024, new byte[25]));
    }

    @Test
    void shouldRegisterARingForRemoteReadsOnlyAndAMirrorForNoRemoteAccess() {
        int remote = IbvMr.IBV_ACCESS_REMOTE_READ | IbvMr.IBV_ACCESS_REMOTE_WRITE;
        assertEquals(IbvMr.IBV_ACCESS_REMOTE_READ, DisniRegion.accessFlags(RegionAccess.PEER_READS) & remote);
        assertEquals(0, DisniRegion.accessFlags(RegionAccess.LOCAL) & remote);
        assertEquals(IbvMr.IBV_ACCESS_LOCAL_WRITE, DisniRegion.accessFlags(RegionAccess.LOCAL), "READs land in a mirror");
    }

    @Test
    void shouldReportAFailedWorkCompletionAsALostConnection() throws IOException {
        DisniRegion mirror = new DisniRegion(ByteBuffer.allocateDirect(1024), mr(0x1000, 1, 2));
        RemoteRegion ring = endpoint.attach(0x2000, 1024, ByteBuffer.allocate(4).putInt(3).array());
        endpoint.read(ring, 0, mirror, 0, 100, recording("read"));
        IbvSendWR wr = postedWorkRequest();
        endpoint.onCompletion(completion(wr.getWr_id(), IbvWC.IbvWcStatus.IBV_WC_RETRY_EXC_ERR.ordinal(), 0));
        progressTasks.forEach(Runnable::run);
        assertEquals(2, events.size(), events::toString);
        assertTrue(events.get(0).startsWith("read failed"), events::toString);
        assertTrue(events.get(1).startsWith("error connection to 10.0.0.2:6700 lost"), events::toString);
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldSendControlMessagesFromRegisteredSlotsAndDeliverReceivedOnes() throws IOException {
        SVCRegMr registration = mock(SVCRegMr.class);
        when(verbs.registerMemory(any())).thenReturn(registration);
        when(registration.execute()).thenReturn(registration);
        when(registration.free()).thenReturn(registration);
        IbvMr slotsMr = mr(0x100000, 31, 32);
        when(registration.getMr()).thenReturn(slotsMr);
        endpoint.startControl();

        ArgumentCaptor<List<IbvRecvWR>> receives = ArgumentCaptor.forClass(List.class);
        verify(verbs, org.mockito.Mockito.times(DisniEndpoint.SLOTS)).postRecv(receives.capture());
        assertTrue(receives.getAllValues().stream().allMatch(list -> list.get(0).getWr_id() < 0),
                "receive work requests are told apart by negative ids");

        endpoint.send(ByteBuffer.wrap(new byte[] {5, 6, 7}), recording("send"));
        IbvSendWR wr = postedWorkRequest();
        assertEquals(IbvSendWR.IBV_WR_SEND, wr.getOpcode());
        assertEquals(3, wr.getSg_list().get(0).getLength());
        assertEquals(31, wr.getSg_list().get(0).getLkey());

        long firstReceive = receives.getAllValues().get(0).get(0).getWr_id();
        endpoint.onCompletion(completion(firstReceive, IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal(), 17));
        progressTasks.forEach(Runnable::run);
        assertEquals(List.of("control 17"), events);
        verify(verbs, org.mockito.Mockito.times(DisniEndpoint.SLOTS + 1)).postRecv(anyList());
    }
}

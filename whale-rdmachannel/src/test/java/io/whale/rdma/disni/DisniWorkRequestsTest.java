package io.whale.rdma.disni;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import org.junit.jupiter.api.Test;

class DisniWorkRequestsTest {

    private static void assertSingleSge(java.util.List<IbvSge> list, long address, int lkey, int length) {
        assertEquals(1, list.size());
        assertEquals(address, list.get(0).getAddr());
        assertEquals(lkey, list.get(0).getLkey());
        assertEquals(length, list.get(0).getLength());
    }

    @Test
    void shouldBuildASignaledReadFromTheRemoteRegionIntoLocalMemory() {
        IbvSendWR wr = DisniWorkRequests.read(42, 0x1000, 7, 256 * 1024, 0xfeed0000L, 99);
        assertEquals(42, wr.getWr_id());
        assertEquals(IbvSendWR.IBV_WR_RDMA_READ, wr.getOpcode());
        assertEquals(IbvSendWR.IBV_SEND_SIGNALED, wr.getSend_flags());
        assertEquals(1, wr.getNum_sge());
        assertSingleSge(wr.getSg_list(), 0x1000, 7, 256 * 1024);
        assertEquals(0xfeed0000L, wr.getRdma().getRemote_addr());
        assertEquals(99, wr.getRdma().getRkey());
    }

    @Test
    void shouldBuildASendAndAReceiveForControlMessages() {
        IbvSendWR send = DisniWorkRequests.send(44, 0x3000, 9, 25);
        assertEquals(IbvSendWR.IBV_WR_SEND, send.getOpcode());
        assertEquals(IbvSendWR.IBV_SEND_SIGNALED, send.getSend_flags());
        assertSingleSge(send.getSg_list(), 0x3000, 9, 25);

        IbvRecvWR receive = DisniWorkRequests.receive(-3, 0x4000, 10, 4096);
        assertEquals(-3, receive.getWr_id());
        assertEquals(1, receive.getNum_sge());
        assertSingleSge(receive.getSg_list(), 0x4000, 10, 4096);
    }
}

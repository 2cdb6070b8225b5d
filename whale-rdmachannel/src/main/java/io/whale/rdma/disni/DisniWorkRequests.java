package io.whale.rdma.disni;

import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import java.util.LinkedList;

/** Builds the verbs work requests the channel posts: one scatter/gather entry each, always signaled. */
final class DisniWorkRequests {
    private DisniWorkRequests() {
    }

    /** One-sided READ of {@code length} bytes at {@code remoteAddress} into local memory. */
    static IbvSendWR read(long wrId, long localAddress, int lkey, int length, long remoteAddress, int rkey) {
        return oneSided(IbvSendWR.IBV_WR_RDMA_READ, wrId, localAddress, lkey, length, remoteAddress, rkey);
    }

    /** Two-sided SEND of a control message held in registered memory. */
    static IbvSendWR send(long wrId, long localAddress, int lkey, int length) {
        IbvSendWR wr = new IbvSendWR();
        wr.setWr_id(wrId);
        wr.setOpcode(IbvSendWR.IBV_WR_SEND);
        wr.setSend_flags(IbvSendWR.IBV_SEND_SIGNALED);
        wr.setSg_list(sge(localAddress, lkey, length));
        wr.setNum_sge(1);
        return wr;
    }

    /** A receive buffer for the peer's SENDs. */
    static IbvRecvWR receive(long wrId, long localAddress, int lkey, int length) {
        IbvRecvWR wr = new IbvRecvWR();
        wr.setWr_id(wrId);
        wr.setSg_list(sge(localAddress, lkey, length));
        wr.setNum_sge(1);
        return wr;
    }

    private static IbvSendWR oneSided(int opcode, long wrId, long localAddress, int lkey, int length,
                                      long remoteAddress, int rkey) {
        IbvSendWR wr = new IbvSendWR();
        wr.setWr_id(wrId);
        wr.setOpcode(opcode);
        wr.setSend_flags(IbvSendWR.IBV_SEND_SIGNALED);
        wr.setSg_list(sge(localAddress, lkey, length));
        wr.setNum_sge(1);
        wr.getRdma().setRemote_addr(remoteAddress);
        wr.getRdma().setRkey(rkey);
        return wr;
    }

    private static LinkedList<IbvSge> sge(long address, int lkey, int length) {
        IbvSge sge = new IbvSge();
        sge.setAddr(address);
        sge.setLkey(lkey);
        sge.setLength(length);
        LinkedList<IbvSge> list = new LinkedList<>();
        list.add(sge);
        return list;
    }
}

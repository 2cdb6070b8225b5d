package io.whale.rdma.disni;

import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import io.whale.rdma.RdmaException;
import io.whale.rdma.spi.RegionAccess;
import io.whale.rdma.spi.RegisteredRegion;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Direct memory registered once with the device's protection domain. Verbs need a protection domain, which DiSNI
 * creates with the first connection, so registration happens then (see {@link DisniEngine#protectionDomain}).
 */
final class DisniRegion implements RegisteredRegion {
    private final DisniEngine engine;
    private final ByteBuffer memory;
    private final int access;
    private IbvMr mr;

    DisniRegion(DisniEngine engine, ByteBuffer memory, RegionAccess access) {
        this.engine = engine;
        this.memory = memory;
        this.access = accessFlags(access);
    }

    /** A region whose registration already exists (tests, or memory registered elsewhere). */
    DisniRegion(ByteBuffer memory, IbvMr mr) {
        this.engine = null;
        this.memory = memory;
        this.access = 0; // registered already: never registered here
        this.mr = mr;
    }

    /** The verbs access flags of a region: local write always (READs land in it), remote READ for a ring, never remote WRITE. */
    static int accessFlags(RegionAccess access) {
        return access == RegionAccess.PEER_READS ? IbvMr.IBV_ACCESS_LOCAL_WRITE | IbvMr.IBV_ACCESS_REMOTE_READ
            : IbvMr.IBV_ACCESS_LOCAL_WRITE;
    }

    synchronized IbvMr mr() {
        if (mr == null) {
            IbvPd pd = engine.protectionDomain();
            try {
                mr = pd.regMr(memory, access).execute().free().getMr();
            } catch (IOException e) {
                throw new RdmaException("ibv_reg_mr of " + memory.capacity() + " bytes failed: " + e, e);
            }
        }
        return mr;
    }

    @Override
    public ByteBuffer buffer() {
        return memory.duplicate().clear();
    }

    @Override
    public long address() {
        return mr().getAddr();
    }

    @Override
    public int length() {
        return memory.capacity();
    }

    /** The 32-bit rkey, big-endian. */
    @Override
    public byte[] remoteKey() {
        return ByteBuffer.allocate(Integer.BYTES).putInt(mr().getRkey()).array();
    }

    @Override
    public synchronized void close() {
        if (mr != null) {
            try {
                mr.deregMr().execute().free();
            } catch (IOException e) {
                throw new RdmaException("ibv_dereg_mr failed: " + e, e);
            }
            mr = null;
        }
    }
}

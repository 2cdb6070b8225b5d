package io.whale.rdma.disni;

import com.ibm.disni.RdmaActiveEndpoint;
import com.ibm.disni.RdmaActiveEndpointGroup;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import java.io.IOException;

/** DiSNI's endpoint class: forwards completions and connection-manager disconnects to a {@link DisniEndpoint}. */
final class VerbsEndpoint extends RdmaActiveEndpoint {
    private volatile DisniEndpoint owner;

    VerbsEndpoint(RdmaActiveEndpointGroup<VerbsEndpoint> group, RdmaCmId id, boolean serverSide) throws IOException {
        super(group, id, serverSide);
    }

    void bind(DisniEndpoint endpoint) {
        this.owner = endpoint;
    }

    @Override
    public void dispatchCqEvent(IbvWC wc) {
        DisniEndpoint endpoint = owner;
        if (endpoint != null) {
            endpoint.onCompletion(wc);
        }
    }

    @Override
    public synchronized void dispatchCmEvent(RdmaCmEvent event) throws IOException {
        super.dispatchCmEvent(event);
        int type = event.getEvent();
        DisniEndpoint endpoint = owner;
        if (endpoint != null && (type == RdmaCmEvent.EventType.RDMA_CM_EVENT_DISCONNECTED.ordinal()
                || type == RdmaCmEvent.EventType.RDMA_CM_EVENT_DEVICE_REMOVAL.ordinal())) {
            endpoint.failLater("peer disconnected (" + RdmaCmEvent.EventType.values()[type] + ")");
        }
    }
}

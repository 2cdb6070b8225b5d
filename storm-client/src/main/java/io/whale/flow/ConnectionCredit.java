package io.whale.flow;

import io.whale.wire.FrameCredit;
import io.whale.wire.RelayCredit;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import org.apache.storm.messaging.TaskMessage;

/**
 * The credit side of one connection to another worker (a {@link CreditedConnection}): the {@link FrameWindow} that
 * bounds the WOC frames in flight on it, and the {@link RelayLink} the relay attached to it, if any. The transport
 * tells it when the connection came up and went down and hands it what the peer sent; it takes the frame and relay
 * credits out.
 */
public final class ConnectionCredit {
    private final FrameWindow frameWindow;
    /** The window's credit, made once: the transport hands every batch the peer sent to {@link #takeCredits}. */
    private final IntConsumer windowCredit;
    private volatile RelayLink relayLink;

    public ConnectionCredit(FrameWindow frameWindow) {
        this.frameWindow = frameWindow;
        this.windowCredit = frameWindow::credit;
    }

    /** With the window {@code whale.woc.*} asks for ({@link FrameWindow#forTopology}). */
    public static ConnectionCredit forTopology(Map<String, Object> topoConf) {
        return new ConnectionCredit(FrameWindow.forTopology(topoConf));
    }

    public FrameWindow frameWindow() {
        return frameWindow;
    }

    /** Where relay credit read on this connection, and its loss, are reported; null until a relay frame left on it. */
    public RelayLink relayLink() {
        return relayLink;
    }

    public void relayLink(RelayLink link) {
        this.relayLink = link;
    }

    /** The connection is up (again): the window starts afresh. */
    public void connected() {
        frameWindow.onConnected();
    }

    /** The connection is gone: the window holds nothing for it, and the relay counts what it sent on it lost. */
    public void disconnected() {
        frameWindow.onDisconnected();
        RelayLink link = relayLink;
        if (link != null) {
            link.disconnected();
        }
    }

    /**
     * Takes the frame and relay credits out of what the peer sent, crediting the window and the relay: what is left
     * for the transport itself (Storm's load metrics), or null when nothing is.
     */
    public List<TaskMessage> takeCredits(List<TaskMessage> fromPeer) {
        return RelayCredit.takeCredits(FrameCredit.takeCredits(fromPeer, windowCredit), relayLink);
    }
}

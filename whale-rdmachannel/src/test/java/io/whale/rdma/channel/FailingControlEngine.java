package io.whale.rdma.channel;

import io.whale.rdma.spi.Completion;
import io.whale.rdma.spi.EndpointHandler;
import io.whale.rdma.spi.RdmaEndpoint;
import io.whale.rdma.spi.RdmaEngine;
import io.whale.rdma.spi.RdmaListener;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A real engine whose endpoints fail the {@code nth} control message of one type (its completion reports an error,
 * nothing is sent), as a transport may: the channel must not take that message as sent. With {@code nth} past the
 * last it counts the type's messages only.
 */
final class FailingControlEngine extends DelegatingEngine {
    private final byte type;
    private final int nth;
    private final AtomicInteger seen = new AtomicInteger();

    FailingControlEngine(RdmaEngine engine, byte type, int nth) {
        super(engine);
        this.type = type;
        this.nth = nth;
    }

    /** How many control messages of the type were failed so far (0 or 1). */
    int failed() {
        return seen.get() >= nth ? 1 : 0;
    }

    /** How many control messages of the type the channel sent so far, the one failed included. */
    int seen() {
        return seen.get();
    }

    @Override
    public RdmaListener listen(InetSocketAddress bindAddress, Function<RdmaEndpoint, EndpointHandler> handlerFactory) {
        return engine.listen(bindAddress, accepted -> {
            Endpoint endpoint = new Endpoint(accepted);
            return endpoint.relaying(handlerFactory.apply(endpoint));
        });
    }

    @Override
    public RdmaEndpoint connect(InetSocketAddress remote, EndpointHandler handler, Duration timeout) {
        Endpoint endpoint = new Endpoint(null);
        endpoint.delegate = engine.connect(remote, endpoint.relaying(handler), timeout);
        return endpoint;
    }

    /** Hands the channel this wrapper, not the real endpoint, so that it recognises its own connection. */
    private final class Endpoint extends DelegatingEndpoint {
        Endpoint(RdmaEndpoint delegate) {
            super(delegate);
        }

        EndpointHandler relaying(EndpointHandler handler) {
            return new EndpointHandler() {
                @Override
                public void onControl(RdmaEndpoint from, ByteBuffer message) {
                    handler.onControl(Endpoint.this, message);
                }

                @Override
                public void onError(RdmaEndpoint from, String reason) {
                    handler.onError(Endpoint.this, reason);
                }
            };
        }

        @Override
        public void send(ByteBuffer message, Completion completion) {
            if (message.get(message.position()) == type && seen.incrementAndGet() == nth) {
                engine.execute(() -> completion.onError("injected failure of control message " + type));
                return;
            }
            super.send(message, completion);
        }
    }
}

package io.whale.rdma.spi;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Function;

/**
 * One device context with one progress thread. All completions, control messages and error callbacks of its
 * endpoints run on that thread, so no thread is spent per connection; callbacks must not block.
 */
public interface RdmaEngine extends AutoCloseable {

    /** Allocates and registers a region once, for {@code access}: what peers holding its remote key may do with it. */
    RegisteredRegion allocate(int length, RegionAccess access);

    /**
     * Accepts endpoints on {@code bindAddress} (port 0 picks a free port). The factory runs on the progress
     * thread for every new endpoint before any of its control messages is delivered.
     */
    RdmaListener listen(InetSocketAddress bindAddress, Function<RdmaEndpoint, EndpointHandler> handlerFactory);

    /** Connects to a listener; blocks the caller (never call it on the progress thread) up to {@code timeout}. */
    RdmaEndpoint connect(InetSocketAddress remote, EndpointHandler handler, Duration timeout);

    /** Runs a task on the progress thread. */
    void execute(Runnable task);

    /** Adds a short, non-blocking check run on the progress thread at every turn of its loop (timers), from now. */
    void addPoller(Poller poller);

    void removePoller(Poller poller);

    /** Any thread: a poller's deadline moved earlier, so an idle progress thread runs its pollers now. */
    void wake();

    /** True when the caller is this engine's progress thread. */
    boolean inProgressThread();

    @Override
    void close();
}

package io.extsock.spi;

import java.io.Closeable;
import java.io.IOException;

/**
 * A listening channel whose connections a provider negotiates as they arrive, before the
 * application accepts them (see {@link IwarpProvider#acceptAhead}).
 */
public interface IwarpAcceptor extends Closeable {

    /**
     * Waits for the next connection that finished its negotiation.
     *
     * @param timeoutMillis how long at most; 0 for no limit
     * @return the connection, switched or (with FALLBACK) going on as plain TCP
     * @throws java.net.SocketTimeoutException if none came within the timeout
     * @throws java.net.SocketException if the acceptor is closed, or the listening channel failed
     *         (the cause names the failure)
     * @throws IOException another I/O error
     */
    AcceptedAhead take(long timeoutMillis) throws IOException;

    /**
     * Stops accepting and closes the listening channel and every connection not yet taken
     * (their peers see the connection close). A thread waiting in {@link #take} gets a {@link
     * java.net.SocketException}.
     */
    @Override
    void close() throws IOException;
}

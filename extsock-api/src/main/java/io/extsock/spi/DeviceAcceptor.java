package io.extsock.spi;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;

/** A device provider's listener ({@link IwarpProvider#listen}): connections established on the device. */
public interface DeviceAcceptor extends Closeable {

    /**
     * Waits for the next connection the device established.
     *
     * @param timeoutMillis how long at most; 0 for no limit
     * @return the connection, in IWARP_MODE
     * @throws java.net.SocketTimeoutException if none came within the timeout
     * @throws java.net.SocketException if the acceptor is closed ("Socket closed"), or the
     *         listener failed (the cause names the failure)
     * @throws IOException another I/O error
     */
    DeviceSession take(long timeoutMillis) throws IOException;

    /**
     * Where the acceptor listens.
     *
     * @return the bound address and port
     */
    InetSocketAddress localAddress();

    /**
     * Stops listening and ends every connection not yet taken. A thread waiting in {@link
     * #take} gets a {@link java.net.SocketException}.
     */
    @Override
    void close() throws IOException;
}

package io.extsock.spi;

import java.io.IOException;

/**
 * The byte stream of one connection as an {@link io.extsock.ExtendedSocket} sees it: plain TCP
 * in passthrough mode, RDMAP Sends once the connection runs in IWARP_MODE.
 *
 * <p>Implementations follow the {@code java.net.Socket} stream contract: reads block until at
 * least one byte, end of stream ({@code -1}) or the timeout; errors are {@link
 * java.net.SocketException}s with the JDK's messages ("Socket closed", "Connection reset").
 */
public interface SocketTransport {

    /**
     * Reads up to {@code len} bytes, blocking until at least one is available.
     *
     * @param timeoutMillis 0 to wait forever, else the SO_TIMEOUT in milliseconds
     * @return the number of bytes read, or -1 at end of stream
     * @throws java.net.SocketTimeoutException when the timeout elapses; the transport stays usable
     */
    int read(byte[] b, int off, int len, int timeoutMillis) throws IOException;

    /** An estimate of the bytes that can be read without blocking. */
    int available() throws IOException;

    /** Writes all {@code len} bytes, blocking while the peer cannot take them. */
    void write(byte[] b, int off, int len) throws IOException;

    /** Discards further input: later reads return end of stream. */
    void shutdownInput() throws IOException;

    /** Ends this side's output after what was already written; the peer reads end of stream. */
    void shutdownOutput() throws IOException;

    /** Releases the connection; blocked readers and writers fail with "Socket closed". */
    void close() throws IOException;
}

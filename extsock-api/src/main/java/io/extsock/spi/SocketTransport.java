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
     * @param b             where to put the bytes
     * @param off           the first index of {@code b} to fill
     * @param len           the most bytes to read
     * @param timeoutMillis 0 to wait forever, else the SO_TIMEOUT in milliseconds
     * @return the number of bytes read, or -1 at end of stream
     * @throws java.net.SocketTimeoutException when the timeout elapses; the transport stays usable
     * @throws IOException if the transport is closed ("Socket closed") or the connection failed
     */
    int read(byte[] b, int off, int len, int timeoutMillis) throws IOException;

    /**
     * An estimate of the bytes that can be read without blocking.
     *
     * @return the estimate; 0 when none are known to be available
     * @throws IOException if the transport is closed
     */
    int available() throws IOException;

    /**
     * Writes all {@code len} bytes, blocking while the peer cannot take them.
     *
     * @param b   the bytes to write
     * @param off the first index of {@code b} to write
     * @param len how many bytes to write
     * @throws IOException if the transport is closed, its output shut down, or the connection
     *         failed
     */
    void write(byte[] b, int off, int len) throws IOException;

    /**
     * Reads what is there without waiting: what a non-blocking channel's read does.
     *
     * @param b   where to put the bytes
     * @param off the first index of {@code b} to fill
     * @param len the most bytes to read
     * @return the number of bytes read, 0 if none is there yet, or -1 at end of stream
     * @throws IOException as {@link #read}
     * @throws UnsupportedOperationException if this transport cannot tell without waiting
     */
    default int readNow(byte[] b, int off, int len) throws IOException {
        throw new UnsupportedOperationException(getClass().getName() + " cannot read without waiting");
    }

    /**
     * Writes what the peer can take without waiting: what a non-blocking channel's write does.
     *
     * @param b   the bytes to write
     * @param off the first index of {@code b} to write
     * @param len how many bytes to write at most
     * @return the number of bytes written, 0 if the peer can take none now
     * @throws IOException as {@link #write}
     * @throws UnsupportedOperationException if this transport cannot tell without waiting
     */
    default int writeNow(byte[] b, int off, int len) throws IOException {
        throw new UnsupportedOperationException(getClass().getName() + " cannot write without waiting");
    }

    /**
     * Discards further input: later reads return end of stream.
     *
     * @throws IOException if the transport is closed
     */
    void shutdownInput() throws IOException;

    /**
     * Ends this side's output after what was already written; the peer reads end of stream.
     *
     * @throws IOException if the transport is closed or the connection failed
     */
    void shutdownOutput() throws IOException;

    /**
     * Releases the connection; blocked readers and writers fail with "Socket closed".
     *
     * @throws IOException if closing fails
     */
    void close() throws IOException;
}

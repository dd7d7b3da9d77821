package io.extsock.core.stream;

import io.extsock.spi.SocketTransport;
import java.io.IOException;
import java.net.SocketException;
import java.nio.channels.SocketChannel;

/**
 * The socket's stream when the connection's Sends and Receives belong to the application
 * (IwarpOptions.STREAMS off on either end, or a peer that is not extsock): bytes the peer wrote
 * before the switch can still be read, then reading and writing fail with a message that says
 * why. Shutting down and closing work as ever.
 */
public final class StreamUnavailable implements SocketTransport {

    private final String why;
    private final SocketChannel channel;
    private final Runnable closeConnection;
    private byte[] prefix;
    private int prefixPosition;
    private boolean inputShutdown;

    public StreamUnavailable(String why, byte[] prefix, SocketChannel channel, Runnable closeConnection) {
        this.why = why;
        this.prefix = prefix.length > 0 ? prefix : null;
        this.channel = channel;
        this.closeConnection = closeConnection;
    }

    @Override
    public synchronized int read(byte[] b, int off, int len, int timeoutMillis) throws IOException {
        if (inputShutdown) {
            return -1;
        }
        if (prefix != null && len > 0) {
            int count = Math.min(len, prefix.length - prefixPosition);
            System.arraycopy(prefix, prefixPosition, b, off, count);
            prefixPosition += count;
            if (prefixPosition == prefix.length) {
                prefix = null;
            }
            return count;
        }
        throw new SocketException(why);
    }

    @Override
    public synchronized int available() {
        return prefix != null && !inputShutdown ? prefix.length - prefixPosition : 0;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        throw new SocketException(why);
    }

    @Override
    public synchronized void shutdownInput() {
        inputShutdown = true;
    }

    @Override
    public void shutdownOutput() throws IOException {
        channel.shutdownOutput();
    }

    @Override
    public void close() {
        closeConnection.run();
    }
}

package io.extsock.internal;

import io.extsock.spi.SocketTransport;
import java.io.IOException;
import java.util.Objects;

/**
 * A plain transport whose first octets were already read off the connection: by a switch to
 * IWARP_MODE that found a plain TCP peer and fell back (IwarpOptions.FALLBACK). Reads return those
 * octets first, then what the connection carries; everything else goes to the connection.
 */
final class PrefixedTransport implements SocketTransport {

    private final SocketTransport connection;
    /** Guards the prefix: concurrent readers must not hand out the same octets twice. */
    private final Object prefixLock = new Object();
    private byte[] prefix;
    private int prefixPosition;

    private PrefixedTransport(SocketTransport connection, byte[] prefix) {
        this.connection = connection;
        this.prefix = prefix;
    }

    /** The connection as it is when nothing was read ahead, else with {@code prefix} first. */
    static SocketTransport of(SocketTransport connection, byte[] prefix) {
        return prefix.length == 0 ? connection : new PrefixedTransport(connection, prefix.clone());
    }

    @Override
    public int read(byte[] b, int off, int len, int timeoutMillis) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        synchronized (prefixLock) {
            if (prefix != null) {
                int n = Math.min(len, prefix.length - prefixPosition);
                System.arraycopy(prefix, prefixPosition, b, off, n);
                prefixPosition += n;
                if (prefixPosition == prefix.length) {
                    prefix = null;
                }
                return n;
            }
        }
        return connection.read(b, off, len, timeoutMillis);
    }

    @Override
    public int available() throws IOException {
        int connectionAvailable = connection.available();  // throws once closed, as a plain socket's
        synchronized (prefixLock) {
            int prefixRemaining = prefix == null ? 0 : prefix.length - prefixPosition;
            return (int) Math.min(Integer.MAX_VALUE, (long) prefixRemaining + connectionAvailable);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        connection.write(b, off, len);
    }

    /** As TCP discards what it received but the application did not read, so do we. */
    @Override
    public void shutdownInput() throws IOException {
        connection.shutdownInput();
        synchronized (prefixLock) {
            prefix = null;
        }
    }

    @Override
    public void shutdownOutput() throws IOException {
        connection.shutdownOutput();
    }

    @Override
    public void close() throws IOException {
        connection.close();
    }
}

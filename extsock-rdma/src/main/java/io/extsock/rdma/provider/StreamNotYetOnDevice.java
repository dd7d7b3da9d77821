package io.extsock.rdma.provider;

import io.extsock.spi.SocketTransport;

/**
 * The socket's stream of a device connection, which this provider does not carry yet: every
 * stream call fails naming the gap and what works instead; closing ends the connection.
 */
final class StreamNotYetOnDevice implements SocketTransport {

    /** What a stream call on a device connection says. */
    static final String GAP = "the socket's stream does not run on an RDMA device yet (extsock-rdma carries verbs"
            + " only): set IWARP_STREAMS false and move bytes with iwarp().post (Send and Receive, RDMA Write and"
            + " Read), or set IWARP_PROVIDER software for a stream";

    private final RdmaConnection connection;

    StreamNotYetOnDevice(RdmaConnection connection) {
        this.connection = connection;
    }

    @Override
    public int read(byte[] b, int off, int len, int timeoutMillis) {
        throw new UnsupportedOperationException(GAP);
    }

    @Override
    public int available() {
        throw new UnsupportedOperationException(GAP);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        throw new UnsupportedOperationException(GAP);
    }

    @Override
    public void shutdownInput() {
        throw new UnsupportedOperationException(GAP);
    }

    @Override
    public void shutdownOutput() {
        throw new UnsupportedOperationException(GAP);
    }

    @Override
    public void close() {
        connection.close();
    }
}

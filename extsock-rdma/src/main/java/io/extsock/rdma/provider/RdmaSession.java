package io.extsock.rdma.provider;

import io.extsock.spi.DeviceSession;
import io.extsock.spi.SocketTransport;
import io.extsock.verbs.IwarpConnection;
import java.net.InetSocketAddress;

/** A connection on an RDMA device as the socket holds it: its stream, its verbs and its addresses. */
final class RdmaSession implements DeviceSession {

    private final RdmaConnection connection;
    private final SocketTransport stream;

    RdmaSession(RdmaConnection connection) {
        this.connection = connection;
        this.stream = new StreamNotYetOnDevice(connection);
    }

    @Override
    public SocketTransport stream() {
        return stream;
    }

    @Override
    public IwarpConnection connection() {
        return connection;
    }

    /** A device's completions come from its event thread: there is no spin to tune. */
    @Override
    public void spinMicros(int micros) {
    }

    @Override
    public InetSocketAddress localAddress() {
        return connection.localAddress();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return connection.remoteAddress();
    }

    @Override
    public String deviceName() {
        return connection.deviceName();
    }
}

package io.extsock.rdma.provider;

import io.extsock.spi.DeviceAcceptor;
import io.extsock.spi.DeviceSession;
import io.extsock.spi.IwarpProvider;
import io.extsock.spi.IwarpSession;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketOption;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.Optional;

/**
 * extsock's device provider: connections on the host's RDMA device (an iWARP adapter, Linux
 * siw) through rdma-core's librdmacm and libibverbs. It makes its own connections: rdma_cm
 * resolves, connects and listens, and the device owns the TCP connection. {@link
 * io.extsock.IwarpOptions#PROVIDER} chooses it per connection; found with {@link
 * java.util.ServiceLoader}.
 */
public final class RdmaIwarpProvider implements IwarpProvider {

    /** The provider's name, in diagnostics and errors. */
    public static final String NAME = "extsock-rdma";

    /** For {@link java.util.ServiceLoader}. */
    public RdmaIwarpProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean makesOwnConnections() {
        return true;
    }

    /** An RDMA device owns its TCP connection: it cannot take over one the JDK connected. */
    @Override
    public IwarpSession attach(SocketChannel channel, boolean initiator, Map<SocketOption<?>, Object> options) {
        throw new UnsupportedOperationException(NAME + " runs connections on an RDMA device, which makes its own"
                + " connections: it cannot take over a channel the JDK connected (set IWARP_MODE before connect,"
                + " or use the software engine)");
    }

    @Override
    public Optional<String> deviceFor(InetAddress address) throws IOException {
        return DeviceLookup.deviceFor(address);
    }

    @Override
    public DeviceSession connect(InetSocketAddress remote, int timeoutMillis, Map<SocketOption<?>, Object> options)
            throws IOException {
        return RdmaConnector.connect(remote, timeoutMillis, options);
    }

    @Override
    public DeviceAcceptor listen(InetSocketAddress local, int backlog, Map<SocketOption<?>, Object> options)
            throws IOException {
        return RdmaListener.listen(local, backlog, options);
    }
}

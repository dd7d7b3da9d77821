package io.extsock.internal;

import io.extsock.IwarpOptions;
import io.extsock.spi.DeviceAcceptor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketOption;
import java.nio.channels.ServerSocketChannel;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a server socket's connections run on an RDMA device: decided at the first accept with
 * IWARP_MODE set, by {@link IwarpOptions#PROVIDER} and the bound address. When a device is
 * chosen, the server socket's channel gives up its port and the device provider listens on the
 * same address and port; its connections are accepted on the device from then on.
 */
final class DeviceListening {

    /** Guarded by this; null while the connections are the channel's. */
    private DeviceAcceptor acceptor;
    /** The software engine was chosen: the channel accepts. Guarded by this. */
    private boolean onChannel;
    /** Guarded by this. */
    private boolean closed;
    /** Why the device could not listen, once the channel gave up its port; guarded by this. */
    private IOException failure;

    /**
     * The device's acceptor, started now if this accept is the first with IWARP_MODE and a
     * device is chosen.
     *
     * @param listener the server socket's bound channel; closed when the device takes its port
     * @param settings the server socket's iWARP options
     * @return the acceptor; null when the channel accepts
     * @throws IOException why PROVIDER device found no device, or why the device cannot listen
     */
    synchronized DeviceAcceptor acceptor(ServerSocketChannel listener, Map<SocketOption<?>, Object> settings,
                                         int backlog) throws IOException {
        if (failure != null) {
            SocketException failed = new SocketException("the device could not listen: " + failure.getMessage());
            failed.initCause(failure);
            throw failed;
        }
        if (acceptor != null || onChannel || closed
                || !Boolean.TRUE.equals(settings.get(IwarpOptions.IWARP_MODE))) {
            return acceptor;
        }
        InetSocketAddress bound = (InetSocketAddress) listener.getLocalAddress();
        Optional<ProviderChooser.DeviceChoice> choice = ProviderChooser.installed().choose(settings,
                bound.getAddress(), "the listener on " + SocketAddresses.hostAndPort(bound));
        if (choice.isEmpty()) {
            onChannel = true;
            return null;
        }
        Map<SocketOption<?>, Object> options = new HashMap<>(settings);
        options.put(IwarpOptionValues.NO_EARLIER_STREAM, Boolean.TRUE);
        listener.close();  // the port is the device's now; a connection the channel had not accepted is reset
        try {
            acceptor = choice.get().provider().listen(bound, backlog, Map.copyOf(options));
        } catch (IOException e) {
            failure = e;
            throw e;
        }
        return acceptor;
    }

    /** The server socket closes: the device's listener, if any, with it. */
    void close() throws IOException {
        DeviceAcceptor started;
        synchronized (this) {
            closed = true;
            started = acceptor;
        }
        if (started != null) {
            started.close();
        }
    }
}

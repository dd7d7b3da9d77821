package io.extsock.rdma.provider;

import io.extsock.rdma.events.CmEvent;
import io.extsock.rdma.events.DeviceEventThread;
import io.extsock.rdma.ffi.RdmaCm;
import io.extsock.rdma.ffi.RdmaConstants;
import io.extsock.rdma.ffi.SocketAddresses;
import io.extsock.rdma.ffi.Verbs;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketOption;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The MPA initiator on a device: resolve the address and the route, make the queue pair, connect. */
final class RdmaConnector {

    private RdmaConnector() {
    }

    static RdmaSession connect(InetSocketAddress remote, int timeoutMillis, Map<SocketOption<?>, Object> settings)
            throws IOException {
        RdmaCm cm = RdmaCm.load();
        Verbs verbs = Verbs.load();
        DeviceOptions options = DeviceOptions.of(settings);
        String peer = remote.getAddress().getHostAddress() + ":" + remote.getPort();
        String device = DeviceLookup.deviceFor(remote.getAddress()).orElseThrow(() -> new ConnectException(
                "no RDMA device routes to " + peer));
        DeviceEventThread events = DeviceEvents.of(device);
        long deadline = System.nanoTime()
                + TimeUnit.MILLISECONDS.toNanos(timeoutMillis > 0 ? timeoutMillis : options.mpaTimeout());
        String what = "connecting to " + peer + " on " + device;
        CmChannel.Identifier identifier = CmChannel.open(cm, events).createId();
        RdmaConnection connection = null;
        try {
            MemorySegment id = identifier.id();
            try (Arena arena = Arena.ofConfined()) {
                cm.resolveAddr(id, MemorySegment.NULL, SocketAddresses.of(remote, arena),
                        ConnectionSetup.millisLeft(deadline));
            }
            identifier.inbox().await(RdmaConstants.RDMA_CM_EVENT_ADDR_RESOLVED, deadline, what);
            cm.resolveRoute(id, ConnectionSetup.millisLeft(deadline));
            identifier.inbox().await(RdmaConstants.RDMA_CM_EVENT_ROUTE_RESOLVED, deadline, what);
            connection = ConnectionSetup.prepare(cm, verbs, identifier, events, options);
            try (Arena arena = Arena.ofConfined()) {
                cm.connect(id, ConnectionSetup.connParam(options, arena));
            }
            CmEvent up = identifier.inbox().await(RdmaConstants.RDMA_CM_EVENT_ESTABLISHED, deadline, what);
            connection.established(up, true, options.ird(), options.ord(), ConnectionSetup.source(id),
                    ConnectionSetup.destination(id));
            return new RdmaSession(connection);
        } catch (IOException | RuntimeException e) {
            if (connection != null) {
                connection.close();
            } else {
                identifier.destroy();
            }
            throw e;
        }
    }
}

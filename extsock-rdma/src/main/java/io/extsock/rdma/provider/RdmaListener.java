package io.extsock.rdma.provider;

import io.extsock.rdma.events.CmEvent;
import io.extsock.rdma.events.DeviceEventThread;
import io.extsock.rdma.ffi.RdmaCm;
import io.extsock.rdma.ffi.RdmaConstants;
import io.extsock.rdma.ffi.SocketAddresses;
import io.extsock.rdma.ffi.Verbs;
import io.extsock.spi.DeviceAcceptor;
import io.extsock.spi.DeviceSession;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.SocketTimeoutException;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The MPA responder on a device: an rdma_cm listener whose connect requests are accepted on the
 * thread that takes them (the application's accept), one at a time: the queue pair is made, the
 * application's SETUP runs, rdma_accept answers, and take returns once the connection is
 * established. Requests wait in rdma_cm's backlog meanwhile. A request whose peer went away
 * before it was established is dropped and the next one taken.
 */
final class RdmaListener implements DeviceAcceptor {

    private static final System.Logger LOG = System.getLogger(RdmaListener.class.getName());

    private final RdmaCm cm;
    private final Verbs verbs;
    private final DeviceEventThread events;
    private final CmChannel.Identifier listening;
    private final DeviceOptions options;
    private final InetSocketAddress local;
    private volatile boolean closed;

    private RdmaListener(RdmaCm cm, Verbs verbs, DeviceEventThread events, CmChannel.Identifier listening,
                         DeviceOptions options, InetSocketAddress local) {
        this.cm = cm;
        this.verbs = verbs;
        this.events = events;
        this.listening = listening;
        this.options = options;
        this.local = local;
    }

    static RdmaListener listen(InetSocketAddress address, int backlog, Map<SocketOption<?>, Object> settings)
            throws IOException {
        RdmaCm cm = RdmaCm.load();
        Verbs verbs = Verbs.load();
        String where = address.getAddress().getHostAddress() + ":" + address.getPort();
        String device = DeviceLookup.deviceFor(address.getAddress()).orElseThrow(() -> new BindException(
                where + " is on no RDMA device"));
        DeviceEventThread events = DeviceEvents.of(device);
        CmChannel.Identifier listening = CmChannel.open(cm, events).createId();
        try {
            try (Arena arena = Arena.ofConfined()) {
                cm.bindAddr(listening.id(), SocketAddresses.of(address, arena));
            }
            cm.listen(listening.id(), backlog);
            return new RdmaListener(cm, verbs, events, listening, DeviceOptions.of(settings),
                    ConnectionSetup.source(listening.id()));
        } catch (IOException | RuntimeException e) {
            listening.destroy();
            BindException failed = new BindException("cannot listen on " + where + " on " + device + ": "
                    + e.getMessage());
            failed.initCause(e);
            throw failed;
        }
    }

    @Override
    public DeviceSession take(long timeoutMillis) throws IOException {
        long deadline = timeoutMillis == 0 ? Long.MAX_VALUE
                : System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            CmEvent request;
            try {
                request = listening.inbox().await(RdmaConstants.RDMA_CM_EVENT_CONNECT_REQUEST, deadline,
                        "accepting on " + local);
            } catch (SocketTimeoutException e) {
                throw new SocketTimeoutException("Accept timed out");
            }
            if (closed) {
                reject(request);
                throw new SocketException("Socket closed");
            }
            try {
                return accept(request);
            } catch (IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "a connection to " + local + " failed before it was established",
                        e);
            }
        }
    }

    private RdmaSession accept(CmEvent request) throws IOException {
        CmChannel.Identifier accepted = listening.channel().adopt(request.id());
        RdmaConnection connection = null;
        try {
            connection = ConnectionSetup.prepare(cm, verbs, accepted, events, options);
            try (Arena arena = Arena.ofConfined()) {
                cm.accept(accepted.id(), ConnectionSetup.connParam(options, arena));
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(options.mpaTimeout());
            accepted.inbox().await(RdmaConstants.RDMA_CM_EVENT_ESTABLISHED, deadline, "accepting a connection on "
                    + local);
            // The initiator's private data came with its request.
            connection.established(request, false, options.ird(), options.ord(),
                    ConnectionSetup.source(accepted.id()), ConnectionSetup.destination(accepted.id()));
            return new RdmaSession(connection);
        } catch (IOException | RuntimeException e) {
            if (connection != null) {
                connection.close();
            } else {
                accepted.destroy();
            }
            throw e;
        }
    }

    private void reject(CmEvent request) {
        try {
            cm.reject(request.id(), MemorySegment.NULL);
            cm.destroyId(request.id());
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "rejecting a connection to a closed listener failed", e);
        }
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    /** Stops listening: requests not yet taken are rejected; connections already taken live on. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (CmEvent waiting : listening.inbox().close()) {
            if (waiting.type() == RdmaConstants.RDMA_CM_EVENT_CONNECT_REQUEST) {
                reject(waiting);
            }
        }
        listening.destroy();
    }
}

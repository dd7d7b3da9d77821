package io.extsock.rdma.provider;

import io.extsock.rdma.events.DeviceEventThread;
import io.extsock.rdma.ffi.RdmaCm;
import io.extsock.rdma.ffi.RdmaStructs;
import io.extsock.rdma.ffi.SocketAddresses;
import io.extsock.rdma.ffi.Verbs;
import io.extsock.rdma.verbs.CompletionQueue;
import io.extsock.rdma.verbs.DeviceContext;
import io.extsock.rdma.verbs.ProtectionDomain;
import io.extsock.rdma.verbs.QueuePair;
import io.extsock.verbs.IwarpConnection;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;

/** What connecting and accepting share: the verbs objects of an identifier, and its connection parameters. */
final class ConnectionSetup {

    /** As extsock's software engine: {@link IwarpConnection#SEND_QUEUE_DEPTH} and RECEIVE_QUEUE_DEPTH. */
    private static final QueuePair.Capacities CAPACITIES = new QueuePair.Capacities(
            IwarpConnection.SEND_QUEUE_DEPTH, IwarpConnection.RECEIVE_QUEUE_DEPTH, 1, 0);
    private static final RdmaStructs.Struct ID = RdmaStructs.RDMA_CM_ID;
    private static final RdmaStructs.Struct PARAM = RdmaStructs.RDMA_CONN_PARAM;

    private ConnectionSetup() {
    }

    /**
     * Makes the protection domain, the completion queue and the queue pair of an identifier
     * whose device is known (its address resolved, or a connect request's), and the connection
     * over them; runs the application's SETUP on it.
     */
    static RdmaConnection prepare(RdmaCm cm, Verbs verbs, CmChannel.Identifier identifier, DeviceEventThread events,
                                  DeviceOptions options) throws IOException {
        MemorySegment id = identifier.id().reinterpret(ID.size());
        MemorySegment context = id.get(ValueLayout.ADDRESS, ID.offset("verbs"));
        DeviceContext device = DeviceContext.of(verbs, context);
        String name = verbs.deviceNameOf(context);
        ProtectionDomain pd = device.allocatePd();
        CompletionQueue cq = null;
        QueuePair qp = null;
        RdmaConnection connection;
        try {
            cq = device.createCq(CAPACITIES.sendRequests() + CAPACITIES.receiveRequests());
            qp = QueuePair.create(cm, id, pd, cq, cq, CAPACITIES);
            connection = new RdmaConnection(verbs, cm, identifier, events, pd, cq, qp, options.streams(), name);
        } catch (IOException | RuntimeException e) {
            if (qp != null) {
                qp.close();
            }
            if (cq != null) {
                cq.close();
            }
            pd.close();
            throw e;
        }
        try {
            options.setup().prepare(connection);
        } catch (IOException | RuntimeException e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    /** The {@code struct rdma_conn_param} of a connect or an accept: private data, IRD and ORD. */
    static MemorySegment connParam(DeviceOptions options, Arena arena) {
        MemorySegment param = arena.allocate(PARAM.layout());
        byte[] data = options.privateData();
        if (data.length > 0) {
            MemorySegment copy = arena.allocate(data.length);
            MemorySegment.copy(data, 0, copy, ValueLayout.JAVA_BYTE, 0, data.length);
            param.set(ValueLayout.ADDRESS, PARAM.offset("private_data"), copy);
        }
        param.set(ValueLayout.JAVA_BYTE, PARAM.offset("private_data_len"), (byte) data.length);
        param.set(ValueLayout.JAVA_BYTE, PARAM.offset("responder_resources"), (byte) options.ird());
        param.set(ValueLayout.JAVA_BYTE, PARAM.offset("initiator_depth"), (byte) options.ord());
        return param;
    }

    /** The identifier's local address, as rdma_cm bound it. */
    static InetSocketAddress source(MemorySegment id) {
        return SocketAddresses.from(id.reinterpret(ID.size()).asSlice(ID.offset("route", "addr", "src_storage"),
                SocketAddresses.SOCKADDR_IN6_SIZE));
    }

    /** The identifier's peer address. */
    static InetSocketAddress destination(MemorySegment id) {
        return SocketAddresses.from(id.reinterpret(ID.size()).asSlice(ID.offset("route", "addr", "dst_storage"),
                SocketAddresses.SOCKADDR_IN6_SIZE));
    }

    /** Milliseconds until {@code deadline} (nanoTime), at least 1, for rdma_cm's timeouts. */
    static int millisLeft(long deadline) {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, left));
    }
}

package io.extsock.rdma.ffi;

import static io.extsock.rdma.ffi.NativeCalls.C_INT;
import static io.extsock.rdma.ffi.NativeCalls.C_POINTER;
import static io.extsock.rdma.ffi.NativeCalls.rethrow;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * librdmacm's exported functions: the event channel, identifiers, address and route
 * resolution, listen, connect, accept, reject, disconnect, and the queue pair of an identifier.
 * Every call that fails returns -1 and sets errno; here it throws an exception naming the call
 * and errno's text.
 */
public final class RdmaCm {

    /** The library's run-time name. */
    public static final String SONAME = "librdmacm.so.1";

    private final MethodHandle createEventChannel;
    private final MethodHandle destroyEventChannel;
    private final MethodHandle createId;
    private final MethodHandle destroyId;
    private final MethodHandle bindAddr;
    private final MethodHandle resolveAddr;
    private final MethodHandle resolveRoute;
    private final MethodHandle listen;
    private final MethodHandle connect;
    private final MethodHandle accept;
    private final MethodHandle reject;
    private final MethodHandle disconnect;
    private final MethodHandle getCmEvent;
    private final MethodHandle ackCmEvent;
    private final MethodHandle createQp;
    private final MethodHandle destroyQp;
    private final MethodHandle eventStr;

    private RdmaCm(SymbolLookup lib) throws RdmaUnavailableException {
        createEventChannel = f(lib, "rdma_create_event_channel", FunctionDescriptor.of(C_POINTER), true);
        destroyEventChannel = f(lib, "rdma_destroy_event_channel", FunctionDescriptor.ofVoid(C_POINTER), false);
        createId = f(lib, "rdma_create_id", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_INT), true);
        destroyId = f(lib, "rdma_destroy_id", FunctionDescriptor.of(C_INT, C_POINTER), true);
        bindAddr = f(lib, "rdma_bind_addr", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER), true);
        resolveAddr = f(lib, "rdma_resolve_addr",
                FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_INT), true);
        resolveRoute = f(lib, "rdma_resolve_route", FunctionDescriptor.of(C_INT, C_POINTER, C_INT), true);
        listen = f(lib, "rdma_listen", FunctionDescriptor.of(C_INT, C_POINTER, C_INT), true);
        connect = f(lib, "rdma_connect", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER), true);
        accept = f(lib, "rdma_accept", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER), true);
        reject = f(lib, "rdma_reject", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, JAVA_BYTE), true);
        disconnect = f(lib, "rdma_disconnect", FunctionDescriptor.of(C_INT, C_POINTER), true);
        getCmEvent = f(lib, "rdma_get_cm_event", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER), true);
        ackCmEvent = f(lib, "rdma_ack_cm_event", FunctionDescriptor.of(C_INT, C_POINTER), true);
        createQp = f(lib, "rdma_create_qp", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER), true);
        destroyQp = f(lib, "rdma_destroy_qp", FunctionDescriptor.ofVoid(C_POINTER), false);
        eventStr = f(lib, "rdma_event_str", FunctionDescriptor.of(C_POINTER, C_INT), false);
    }

    private static MethodHandle f(SymbolLookup lib, String name, FunctionDescriptor descriptor, boolean errno)
            throws RdmaUnavailableException {
        return NativeCalls.function(lib, SONAME, name, descriptor, errno);
    }

    private static final class Loaded {
        static final RdmaCm CM;
        static final RdmaUnavailableException FAILURE;

        static {
            RdmaCm cm = null;
            RdmaUnavailableException failure = null;
            try {
                // librdmacm needs libibverbs: load that first, for its own message when it is missing.
                Verbs.load();
                cm = new RdmaCm(NativeCalls.library(SONAME, RdmaErrors.INSTALL_RDMA_CORE));
            } catch (RdmaUnavailableException e) {
                failure = e;
            }
            CM = cm;
            FAILURE = failure;
        }
    }

    /**
     * @return librdmacm, loaded on first use
     * @throws RdmaUnavailableException if it or libibverbs is not installed, with the fix
     */
    public static RdmaCm load() throws RdmaUnavailableException {
        if (Loaded.FAILURE != null) {
            throw new RdmaUnavailableException(Loaded.FAILURE.getMessage());
        }
        return Loaded.CM;
    }

    /** {@code rdma_create_event_channel}. @return the {@code struct rdma_event_channel *} */
    public MemorySegment createEventChannel() throws IOException {
        MemorySegment channel = Verbs.pointerCall("rdma_create_event_channel",
                state -> (MemorySegment) createEventChannel.invokeExact(state));
        return channel.reinterpret(RdmaStructs.RDMA_EVENT_CHANNEL.size());
    }

    /** {@code rdma_destroy_event_channel}: only once every identifier on it is destroyed. */
    public void destroyEventChannel(MemorySegment channel) {
        try {
            destroyEventChannel.invokeExact(channel);
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    /** {@code rdma_create_id} for a reliable connection (RDMA_PS_TCP). @return the {@code struct rdma_cm_id *} */
    public MemorySegment createId(MemorySegment channel, MemorySegment context) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment id = arena.allocate(C_POINTER);
            Libc.check("rdma_create_id", state -> (int) createId.invokeExact(state, channel, id, context,
                    RdmaConstants.RDMA_PS_TCP));
            return id.get(C_POINTER, 0).reinterpret(RdmaStructs.RDMA_CM_ID.size());
        }
    }

    /** {@code rdma_destroy_id}: waits until every event got for the identifier was acknowledged. */
    public void destroyId(MemorySegment id) throws IOException {
        Libc.check("rdma_destroy_id", state -> (int) destroyId.invokeExact(state, id));
    }

    /** {@code rdma_bind_addr} to a {@code struct sockaddr} ({@link SocketAddresses}). */
    public void bindAddr(MemorySegment id, MemorySegment address) throws IOException {
        Libc.check("rdma_bind_addr", state -> (int) bindAddr.invokeExact(state, id, address));
    }

    /** {@code rdma_resolve_addr}: ends with ADDR_RESOLVED or ADDR_ERROR on the channel. */
    public void resolveAddr(MemorySegment id, MemorySegment source, MemorySegment destination, int timeoutMillis)
            throws IOException {
        Libc.check("rdma_resolve_addr", state -> (int) resolveAddr.invokeExact(state, id, source, destination,
                timeoutMillis));
    }

    /** {@code rdma_resolve_route}: ends with ROUTE_RESOLVED or ROUTE_ERROR on the channel. */
    public void resolveRoute(MemorySegment id, int timeoutMillis) throws IOException {
        Libc.check("rdma_resolve_route", state -> (int) resolveRoute.invokeExact(state, id, timeoutMillis));
    }

    /** {@code rdma_listen}. */
    public void listen(MemorySegment id, int backlog) throws IOException {
        Libc.check("rdma_listen", state -> (int) listen.invokeExact(state, id, backlog));
    }

    /** {@code rdma_connect} with a {@code struct rdma_conn_param}. */
    public void connect(MemorySegment id, MemorySegment connParam) throws IOException {
        Libc.check("rdma_connect", state -> (int) connect.invokeExact(state, id, connParam));
    }

    /** {@code rdma_accept} with a {@code struct rdma_conn_param}. */
    public void accept(MemorySegment id, MemorySegment connParam) throws IOException {
        Libc.check("rdma_accept", state -> (int) accept.invokeExact(state, id, connParam));
    }

    /** {@code rdma_reject} with private data (at most 255 octets, as the length is one octet). */
    public void reject(MemorySegment id, MemorySegment privateData) throws IOException {
        if (privateData.byteSize() > 255) {
            throw new IllegalArgumentException("rdma_reject carries at most 255 octets of private data, not "
                    + privateData.byteSize());
        }
        byte length = (byte) privateData.byteSize();
        Libc.check("rdma_reject", state -> (int) reject.invokeExact(state, id, privateData, length));
    }

    /** {@code rdma_disconnect}: the peer sees DISCONNECTED; outstanding work requests flush. */
    public void disconnect(MemorySegment id) throws IOException {
        Libc.check("rdma_disconnect", state -> (int) disconnect.invokeExact(state, id));
    }

    /**
     * {@code rdma_get_cm_event} on a non-blocking channel.
     *
     * @return the {@code struct rdma_cm_event *}, which must be acknowledged, or NULL if none was waiting
     */
    public MemorySegment getCmEvent(MemorySegment channel) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment event = arena.allocate(C_POINTER);
            MemorySegment state = NativeCalls.errnoState(arena);
            int result = (int) getCmEvent.invokeExact(state, channel, event);
            if (result == 0) {
                return event.get(C_POINTER, 0);
            }
            int errno = NativeCalls.errno(state);
            if (errno == RdmaConstants.EAGAIN) {
                return MemorySegment.NULL;
            }
            throw Libc.failure("rdma_get_cm_event", errno);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    /** {@code rdma_ack_cm_event}: frees the event; what it pointed to must have been copied. */
    public void ackCmEvent(MemorySegment event) throws IOException {
        Libc.check("rdma_ack_cm_event", state -> (int) ackCmEvent.invokeExact(state, event));
    }

    /** {@code rdma_create_qp}: a queue pair bound to the identifier; {@code initAttr} comes back with what was granted. */
    public void createQp(MemorySegment id, MemorySegment pd, MemorySegment initAttr) throws IOException {
        Libc.check("rdma_create_qp", state -> (int) createQp.invokeExact(state, id, pd, initAttr));
    }

    /** {@code rdma_destroy_qp}. */
    public void destroyQp(MemorySegment id) {
        try {
            destroyQp.invokeExact(id);
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    /** @return librdmacm's name for an event type, such as "RDMA_CM_EVENT_ESTABLISHED" */
    public String eventName(int event) {
        try {
            return NativeCalls.string((MemorySegment) eventStr.invokeExact(event));
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }
}

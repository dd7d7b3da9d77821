package io.extsock.rdma.events;

import io.extsock.rdma.ffi.RdmaStructs;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * An rdma_cm event, copied out of librdmacm's {@code struct rdma_cm_event} so that the event
 * can be acknowledged (which frees it) before anyone acts on it.
 *
 * @param type               the {@code enum rdma_cm_event_type} value ({@code RDMA_CM_EVENT_*} in
 *                           {@link io.extsock.rdma.ffi.RdmaConstants})
 * @param status             the event's status: 0, or a negative errno, or (REJECTED) the peer's reason
 * @param id                 the identifier the event is about; for CONNECT_REQUEST, a new one
 * @param listenId           for CONNECT_REQUEST, the listener's identifier; NULL otherwise
 * @param privateData        the private data the peer sent (its MPA private data on iWARP), or empty
 * @param responderResources the IRD the peer offered (CONNECT_REQUEST, ESTABLISHED)
 * @param initiatorDepth     the ORD the peer offered
 */
public record CmEvent(int type, int status, MemorySegment id, MemorySegment listenId, byte[] privateData,
                      int responderResources, int initiatorDepth) {

    private static final RdmaStructs.Struct EVENT = RdmaStructs.RDMA_CM_EVENT;

    /**
     * Copies an event.
     *
     * @param event a {@code struct rdma_cm_event *} that librdmacm handed out and nobody acknowledged yet
     * @return the copy, which stays valid after the acknowledgement
     */
    public static CmEvent copyOf(MemorySegment event) {
        MemorySegment e = event.reinterpret(EVENT.layout().byteSize());
        MemorySegment data = e.get(ValueLayout.ADDRESS, EVENT.offset("param", "conn", "private_data"));
        int length = Byte.toUnsignedInt(e.get(ValueLayout.JAVA_BYTE, EVENT.offset("param", "conn", "private_data_len")));
        byte[] privateData = data.equals(MemorySegment.NULL) ? new byte[0]
                : data.reinterpret(length).toArray(ValueLayout.JAVA_BYTE);
        return new CmEvent(
                e.get(ValueLayout.JAVA_INT, EVENT.offset("event")),
                e.get(ValueLayout.JAVA_INT, EVENT.offset("status")),
                e.get(ValueLayout.ADDRESS, EVENT.offset("id")),
                e.get(ValueLayout.ADDRESS, EVENT.offset("listen_id")),
                privateData,
                Byte.toUnsignedInt(e.get(ValueLayout.JAVA_BYTE, EVENT.offset("param", "conn", "responder_resources"))),
                Byte.toUnsignedInt(e.get(ValueLayout.JAVA_BYTE, EVENT.offset("param", "conn", "initiator_depth"))));
    }
}

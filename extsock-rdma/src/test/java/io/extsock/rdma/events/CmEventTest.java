package io.extsock.rdma.events;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.extsock.rdma.ffi.RdmaConstants;
import io.extsock.rdma.ffi.RdmaStructs;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** An rdma_cm event's copy holds everything a handler reads, in memory the acknowledgement does not free. */
class CmEventTest {

    private static final RdmaStructs.Struct EVENT = RdmaStructs.RDMA_CM_EVENT;

    @Test
    void aConnectRequestIsCopiedWithItsPrivateDataAndResources() {
        byte[] mpaPrivateData = {0x45, 0x58, 0x54, 0x53, 1, 2, 3};
        CmEvent copy;
        MemorySegment id;
        MemorySegment listener;
        try (Arena librdmacm = Arena.ofConfined()) {
            MemorySegment event = librdmacm.allocate(EVENT.layout());
            id = MemorySegment.ofAddress(0x1000);
            listener = MemorySegment.ofAddress(0x2000);
            MemorySegment data = librdmacm.allocateFrom(ValueLayout.JAVA_BYTE, mpaPrivateData);
            event.set(ValueLayout.ADDRESS, EVENT.offset("id"), id);
            event.set(ValueLayout.ADDRESS, EVENT.offset("listen_id"), listener);
            event.set(ValueLayout.JAVA_INT, EVENT.offset("event"), RdmaConstants.RDMA_CM_EVENT_CONNECT_REQUEST);
            event.set(ValueLayout.ADDRESS, EVENT.offset("param", "conn", "private_data"), data);
            event.set(ValueLayout.JAVA_BYTE, EVENT.offset("param", "conn", "private_data_len"), (byte) 7);
            event.set(ValueLayout.JAVA_BYTE, EVENT.offset("param", "conn", "responder_resources"), (byte) 16);
            event.set(ValueLayout.JAVA_BYTE, EVENT.offset("param", "conn", "initiator_depth"), (byte) 200);
            copy = CmEvent.copyOf(event);
        }
        // librdmacm's memory is gone (as after rdma_ack_cm_event); the copy is whole.
        assertEquals(RdmaConstants.RDMA_CM_EVENT_CONNECT_REQUEST, copy.type());
        assertEquals(0, copy.status());
        assertEquals(id.address(), copy.id().address());
        assertEquals(listener.address(), copy.listenId().address());
        assertArrayEquals(mpaPrivateData, copy.privateData());
        assertEquals(16, copy.responderResources());
        assertEquals(200, copy.initiatorDepth());
    }

    @Test
    void anEventWithoutPrivateDataHasNoneAndItsStatus() {
        try (Arena librdmacm = Arena.ofConfined()) {
            MemorySegment event = librdmacm.allocate(EVENT.layout());
            event.set(ValueLayout.JAVA_INT, EVENT.offset("event"), RdmaConstants.RDMA_CM_EVENT_REJECTED);
            event.set(ValueLayout.JAVA_INT, EVENT.offset("status"), 28);
            CmEvent copy = CmEvent.copyOf(event);
            assertEquals(RdmaConstants.RDMA_CM_EVENT_REJECTED, copy.type());
            assertEquals(28, copy.status());
            assertEquals(0, copy.privateData().length);
        }
    }
}

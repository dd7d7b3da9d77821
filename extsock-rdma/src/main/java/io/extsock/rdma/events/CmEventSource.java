package io.extsock.rdma.events;

import io.extsock.rdma.ffi.Libc;
import io.extsock.rdma.ffi.RdmaCm;
import io.extsock.rdma.ffi.RdmaStructs;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** An rdma_cm event channel as an event source: its descriptor made non-blocking, each event copied and acknowledged. */
public final class CmEventSource implements EventSource<CmEvent> {

    private final RdmaCm cm;
    private final MemorySegment channel;
    private final int fd;

    /**
     * @param cm      librdmacm
     * @param channel a {@code struct rdma_event_channel *}; its descriptor is made non-blocking
     * @throws IOException if the descriptor cannot be made non-blocking
     */
    public CmEventSource(RdmaCm cm, MemorySegment channel) throws IOException {
        this.cm = cm;
        this.channel = channel;
        this.fd = channel.reinterpret(RdmaStructs.RDMA_EVENT_CHANNEL.size())
                .get(ValueLayout.JAVA_INT, RdmaStructs.RDMA_EVENT_CHANNEL.offset("fd"));
        Libc.setNonBlocking(fd);
    }

    @Override
    public int fd() {
        return fd;
    }

    @Override
    public CmEvent take() throws IOException {
        MemorySegment event = cm.getCmEvent(channel);
        if (event.equals(MemorySegment.NULL)) {
            return null;
        }
        CmEvent copy;
        try {
            copy = CmEvent.copyOf(event);
        } finally {
            cm.ackCmEvent(event);
        }
        return copy;
    }

    @Override
    public String toString() {
        return "rdma_cm event channel (fd " + fd + ")";
    }
}

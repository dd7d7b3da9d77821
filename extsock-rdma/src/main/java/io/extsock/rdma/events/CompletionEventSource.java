package io.extsock.rdma.events;

import io.extsock.rdma.ffi.Libc;
import io.extsock.rdma.ffi.RdmaStructs;
import io.extsock.rdma.ffi.Verbs;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A completion channel as an event source: each event names the CQ that has new completions,
 * and is acknowledged as it is taken. The handler polls the CQ and re-arms it
 * (ibv_req_notify_cq), so that the next completion raises the next event.
 */
public final class CompletionEventSource implements EventSource<MemorySegment> {

    private final Verbs verbs;
    private final MemorySegment channel;
    private final int fd;
    private final MemorySegment cqOut;
    private final MemorySegment contextOut;

    /**
     * @param verbs   libibverbs
     * @param channel a {@code struct ibv_comp_channel *}; its descriptor is made non-blocking
     * @param arena   where the source's two out-parameters live; the event thread alone uses them
     * @throws IOException if the descriptor cannot be made non-blocking
     */
    public CompletionEventSource(Verbs verbs, MemorySegment channel, Arena arena) throws IOException {
        this.verbs = verbs;
        this.channel = channel;
        this.fd = channel.reinterpret(RdmaStructs.IBV_COMP_CHANNEL.size())
                .get(ValueLayout.JAVA_INT, RdmaStructs.IBV_COMP_CHANNEL.offset("fd"));
        this.cqOut = arena.allocate(ValueLayout.ADDRESS);
        this.contextOut = arena.allocate(ValueLayout.ADDRESS);
        Libc.setNonBlocking(fd);
    }

    @Override
    public int fd() {
        return fd;
    }

    /** @return the {@code struct ibv_cq *} with new completions, or null */
    @Override
    public MemorySegment take() throws IOException {
        if (!verbs.getCqEvent(channel, cqOut, contextOut)) {
            return null;
        }
        MemorySegment cq = cqOut.get(ValueLayout.ADDRESS, 0);
        verbs.ackCqEvents(cq, 1);
        return cq;
    }

    @Override
    public String toString() {
        return "completion channel (fd " + fd + ")";
    }
}

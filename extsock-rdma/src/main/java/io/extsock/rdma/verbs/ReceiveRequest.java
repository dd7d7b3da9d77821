package io.extsock.rdma.verbs;

import io.extsock.rdma.ffi.RdmaStructs;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** A reusable receive-queue work request ({@code struct ibv_recv_wr} with one {@code struct ibv_sge}). */
public final class ReceiveRequest {

    private static final RdmaStructs.Struct WR = RdmaStructs.IBV_RECV_WR;

    private final MemorySegment wr;
    private final MemorySegment sge;
    private final MemorySegment badWr;

    /** @param arena where the request lives */
    public ReceiveRequest(Arena arena) {
        this.wr = arena.allocate(WR.layout());
        this.sge = arena.allocate(RdmaStructs.IBV_SGE.layout());
        this.badWr = arena.allocate(ValueLayout.ADDRESS);
    }

    MemorySegment wr() {
        return wr;
    }

    MemorySegment badWr() {
        return badWr;
    }

    /** @return the id the completion will carry */
    public long wrId() {
        return wr.get(ValueLayout.JAVA_LONG, WR.offset("wr_id"));
    }

    /**
     * Room for one incoming Send: {@code length} octets of {@code region} from {@code offset}.
     *
     * @return this request
     */
    public ReceiveRequest into(long wrId, MemoryRegistration region, long offset, int length) {
        WorkRequest.scatterGather(sge, region, offset, length);
        wr.set(ValueLayout.JAVA_LONG, WR.offset("wr_id"), wrId);
        wr.set(ValueLayout.ADDRESS, WR.offset("next"), MemorySegment.NULL);
        wr.set(ValueLayout.ADDRESS, WR.offset("sg_list"), sge);
        wr.set(ValueLayout.JAVA_INT, WR.offset("num_sge"), 1);
        return this;
    }
}

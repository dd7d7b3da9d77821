package io.extsock.rdma.verbs;

import io.extsock.rdma.ffi.RdmaConstants;
import io.extsock.rdma.ffi.RdmaStructs;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A reusable send-queue work request ({@code struct ibv_send_wr} with one {@code struct ibv_sge})
 * in native memory: a Send, an RDMA Write or an RDMA Read. Fill it, post it; the provider copies
 * what it needs while posting, so it may be refilled as soon as the post returns.
 */
public final class SendRequest {

    private static final RdmaStructs.Struct WR = RdmaStructs.IBV_SEND_WR;

    private final MemorySegment wr;
    private final MemorySegment sge;
    private final MemorySegment badWr;

    /** @param arena where the request lives */
    public SendRequest(Arena arena) {
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

    private SendRequest fill(int opcode, long wrId, MemoryRegistration region, long offset, int length, int flags) {
        wr.fill((byte) 0);
        WorkRequest.scatterGather(sge, region, offset, length);
        wr.set(ValueLayout.JAVA_LONG, WR.offset("wr_id"), wrId);
        wr.set(ValueLayout.ADDRESS, WR.offset("next"), MemorySegment.NULL);
        wr.set(ValueLayout.ADDRESS, WR.offset("sg_list"), sge);
        wr.set(ValueLayout.JAVA_INT, WR.offset("num_sge"), 1);
        wr.set(ValueLayout.JAVA_INT, WR.offset("opcode"), opcode);
        wr.set(ValueLayout.JAVA_INT, WR.offset("send_flags"), flags);
        return this;
    }

    private SendRequest remote(long remoteAddress, int rkey) {
        wr.set(ValueLayout.JAVA_LONG, WR.offset("wr", "rdma", "remote_addr"), remoteAddress);
        wr.set(ValueLayout.JAVA_INT, WR.offset("wr", "rdma", "rkey"), rkey);
        return this;
    }

    /**
     * A Send of {@code length} octets of {@code region} from {@code offset}.
     *
     * @param flags {@code IBV_SEND_SIGNALED} for a completion, {@code IBV_SEND_SOLICITED}, {@code IBV_SEND_FENCE}
     * @return this request
     */
    public SendRequest send(long wrId, MemoryRegistration region, long offset, int length, int flags) {
        return fill(RdmaConstants.IBV_WR_SEND, wrId, region, offset, length, flags);
    }

    /** An RDMA Write of local octets to the peer's {@code remoteAddress} in the region its {@code rkey} names. */
    public SendRequest write(long wrId, MemoryRegistration region, long offset, int length, long remoteAddress,
                             int rkey, int flags) {
        return fill(RdmaConstants.IBV_WR_RDMA_WRITE, wrId, region, offset, length, flags).remote(remoteAddress, rkey);
    }

    /** An RDMA Read of the peer's octets at {@code remoteAddress} ({@code rkey}) into local memory. */
    public SendRequest read(long wrId, MemoryRegistration region, long offset, int length, long remoteAddress,
                            int rkey, int flags) {
        return fill(RdmaConstants.IBV_WR_RDMA_READ, wrId, region, offset, length, flags).remote(remoteAddress, rkey);
    }
}

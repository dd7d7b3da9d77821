package io.extsock.rdma.verbs;

import io.extsock.rdma.ffi.RdmaStructs;
import io.extsock.rdma.ffi.Verbs;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Registered memory ({@code struct ibv_mr}): its local key for this side's work requests and its
 * remote key for the peer's RDMA Writes and Reads. Close it before the memory is freed: the pages
 * stay pinned until then.
 */
public final class MemoryRegistration implements AutoCloseable {

    private final Verbs verbs;
    private final MemorySegment mr;
    private final MemorySegment memory;
    private boolean closed;

    MemoryRegistration(Verbs verbs, MemorySegment mr, MemorySegment memory) {
        this.verbs = verbs;
        this.mr = mr;
        this.memory = memory;
    }

    static MemorySegment checkedNative(MemorySegment memory) {
        if (!memory.isNative()) {
            throw new IllegalArgumentException("only native memory can be registered with an RDMA device:"
                    + " heap memory moves; allocate it from an Arena or map a file");
        }
        return memory;
    }

    /** @return the registered memory */
    public MemorySegment memory() {
        return memory;
    }

    /** @return the local key, for this side's scatter/gather entries */
    public int lkey() {
        return mr.get(ValueLayout.JAVA_INT, RdmaStructs.IBV_MR.offset("lkey"));
    }

    /** @return the remote key, which the peer names in its RDMA Writes and Reads */
    public int rkey() {
        return mr.get(ValueLayout.JAVA_INT, RdmaStructs.IBV_MR.offset("rkey"));
    }

    /** Deregisters the memory, unpinning its pages. */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            verbs.deregMr(mr);
        }
    }
}

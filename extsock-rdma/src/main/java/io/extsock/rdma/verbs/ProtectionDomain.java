package io.extsock.rdma.verbs;

import io.extsock.rdma.ffi.Verbs;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/** A protection domain ({@code struct ibv_pd}): memory registered in it is reachable by its queue pairs only. */
public final class ProtectionDomain implements AutoCloseable {

    private final Verbs verbs;
    private final MemorySegment pd;
    private boolean closed;

    ProtectionDomain(Verbs verbs, MemorySegment pd) {
        this.verbs = verbs;
        this.pd = pd;
    }

    /** @return the {@code struct ibv_pd *} */
    public MemorySegment pd() {
        return pd;
    }

    /**
     * Registers native memory: pins its pages and gives it keys.
     *
     * @param memory native memory (an {@link java.lang.foreign.Arena}'s or a mapped file's), which must
     *               outlive the registration
     * @param access {@code IBV_ACCESS_*} flags
     * @throws IllegalArgumentException for heap memory, which the garbage collector moves
     * @throws io.extsock.rdma.ffi.RdmaUnavailableException if RLIMIT_MEMLOCK forbids pinning it, with the fix
     */
    public MemoryRegistration register(MemorySegment memory, int access) throws IOException {
        return new MemoryRegistration(verbs, verbs.regMr(pd, MemoryRegistration.checkedNative(memory), access),
                memory);
    }

    /** Deallocates the domain, after every registration and queue pair in it is gone. */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            verbs.deallocPd(pd);
        }
    }
}

package io.extsock.rdma.verbs;

import io.extsock.rdma.ffi.RdmaStructs;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** The one scatter/gather entry every work request of this binding carries, and its bounds check. */
final class WorkRequest {

    private static final RdmaStructs.Struct SGE = RdmaStructs.IBV_SGE;

    private WorkRequest() {
    }

    /** Fills {@code sge} with {@code length} octets of {@code region} from {@code offset}. */
    static void scatterGather(MemorySegment sge, MemoryRegistration region, long offset, int length) {
        long size = region.memory().byteSize();
        if (offset < 0 || length < 0 || offset + length > size) {
            throw new IndexOutOfBoundsException("octets " + offset + ".." + (offset + length)
                    + " are not within the registered " + size);
        }
        sge.set(ValueLayout.JAVA_LONG, SGE.offset("addr"), region.memory().address() + offset);
        sge.set(ValueLayout.JAVA_INT, SGE.offset("length"), length);
        sge.set(ValueLayout.JAVA_INT, SGE.offset("lkey"), region.lkey());
    }
}

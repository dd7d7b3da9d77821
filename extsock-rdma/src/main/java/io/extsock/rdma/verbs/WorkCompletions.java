package io.extsock.rdma.verbs;

import io.extsock.rdma.ffi.RdmaStructs;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A reusable array of {@code struct ibv_wc} that polling fills; read completion {@code i} of the
 * last poll through the accessors. Allocated once per queue, so polling allocates nothing.
 */
public final class WorkCompletions {

    private static final RdmaStructs.Struct WC = RdmaStructs.IBV_WC;
    private static final long SIZE = WC.size();
    private static final long WR_ID = WC.offset("wr_id");
    private static final long STATUS = WC.offset("status");
    private static final long OPCODE = WC.offset("opcode");
    private static final long VENDOR_ERR = WC.offset("vendor_err");
    private static final long BYTE_LEN = WC.offset("byte_len");
    private static final long QP_NUM = WC.offset("qp_num");

    private final MemorySegment array;
    private final int capacity;
    private int count;

    /**
     * @param capacity how many completions one poll may take
     * @param arena    where the array lives
     */
    public WorkCompletions(int capacity, Arena arena) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("a poll takes at least one completion, not " + capacity);
        }
        this.capacity = capacity;
        this.array = arena.allocate(WC.layout(), capacity);
    }

    MemorySegment array() {
        return array;
    }

    void filled(int count) {
        this.count = count;
    }

    /** @return how many completions the array holds */
    public int capacity() {
        return capacity;
    }

    /** @return how many the last poll took */
    public int count() {
        return count;
    }

    private long at(int index) {
        if (index < 0 || index >= count) {
            throw new IndexOutOfBoundsException("completion " + index + " of " + count + " taken");
        }
        return index * SIZE;
    }

    /** @return the work request's id, as posted */
    public long wrId(int index) {
        return array.get(ValueLayout.JAVA_LONG, at(index) + WR_ID);
    }

    /** @return {@code IBV_WC_SUCCESS} or the error's {@code enum ibv_wc_status} */
    public int status(int index) {
        return array.get(ValueLayout.JAVA_INT, at(index) + STATUS);
    }

    /** @return what completed: {@code IBV_WC_SEND}, {@code IBV_WC_RECV}, {@code IBV_WC_RDMA_WRITE}... */
    public int opcode(int index) {
        return array.get(ValueLayout.JAVA_INT, at(index) + OPCODE);
    }

    /** @return the provider's own error detail */
    public int vendorError(int index) {
        return array.get(ValueLayout.JAVA_INT, at(index) + VENDOR_ERR);
    }

    /** @return for a receive (or a read), the octets placed */
    public int byteLength(int index) {
        return array.get(ValueLayout.JAVA_INT, at(index) + BYTE_LEN);
    }

    /** @return the queue pair's number */
    public int qpNumber(int index) {
        return array.get(ValueLayout.JAVA_INT, at(index) + QP_NUM);
    }
}

package io.extsock.rdma.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The data-path verbs reach the provider through the ops table of the object's context: a fake
 * provider, four Java upcalls whose addresses sit in a hand-made {@code struct ibv_context},
 * records what each entry was called with.
 */
class ContextOpsTest {

    private static final List<String> CALLS = new ArrayList<>();
    private static final long REFUSED_WR_ID = 0xbad;

    private Arena arena;
    private MemorySegment context;
    private MemorySegment qp;
    private MemorySegment cq;

    static int postSend(MemorySegment qp, MemorySegment wr, MemorySegment badWr) {
        long wrId = wr.reinterpret(RdmaStructs.IBV_SEND_WR.size()).get(JAVA_LONG, RdmaStructs.IBV_SEND_WR.offset("wr_id"));
        CALLS.add("post_send qp=" + qp.address() + " wr_id=" + wrId);
        if (wrId == REFUSED_WR_ID) {
            badWr.reinterpret(ADDRESS.byteSize()).set(ADDRESS, 0, wr);
            return RdmaConstants.ENOMEM;
        }
        return 0;
    }

    static int postRecv(MemorySegment qp, MemorySegment wr, MemorySegment badWr) {
        long wrId = wr.reinterpret(RdmaStructs.IBV_RECV_WR.size()).get(JAVA_LONG, RdmaStructs.IBV_RECV_WR.offset("wr_id"));
        CALLS.add("post_recv qp=" + qp.address() + " wr_id=" + wrId);
        return 0;
    }

    /** Completes two work requests, 100 and 101, the second flushed. */
    static int pollCq(MemorySegment cq, int entries, MemorySegment wc) {
        CALLS.add("poll_cq cq=" + cq.address() + " entries=" + entries);
        MemorySegment array = wc.reinterpret(RdmaStructs.IBV_WC.size() * entries);
        int written = Math.min(2, entries);
        for (int i = 0; i < written; i++) {
            MemorySegment one = array.asSlice(i * RdmaStructs.IBV_WC.size(), RdmaStructs.IBV_WC.size());
            one.set(JAVA_LONG, RdmaStructs.IBV_WC.offset("wr_id"), 100 + i);
            one.set(JAVA_INT, RdmaStructs.IBV_WC.offset("status"),
                    i == 0 ? RdmaConstants.IBV_WC_SUCCESS : RdmaConstants.IBV_WC_WR_FLUSH_ERR);
        }
        return written;
    }

    static int reqNotifyCq(MemorySegment cq, int solicitedOnly) {
        CALLS.add("req_notify_cq cq=" + cq.address() + " solicited_only=" + solicitedOnly);
        return 0;
    }

    private MemorySegment upcall(String name, FunctionDescriptor descriptor) throws ReflectiveOperationException {
        return Linker.nativeLinker().upcallStub(MethodHandles.lookup().findStatic(ContextOpsTest.class, name,
                descriptor.toMethodType()), descriptor, arena);
    }

    @BeforeEach
    void fakeProvider() throws ReflectiveOperationException {
        CALLS.clear();
        arena = Arena.ofConfined();
        context = arena.allocate(RdmaStructs.IBV_CONTEXT.layout());
        FunctionDescriptor post = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        context.set(ADDRESS, RdmaStructs.IBV_CONTEXT.offset("ops", "post_send"), upcall("postSend", post));
        context.set(ADDRESS, RdmaStructs.IBV_CONTEXT.offset("ops", "post_recv"), upcall("postRecv", post));
        context.set(ADDRESS, RdmaStructs.IBV_CONTEXT.offset("ops", "poll_cq"),
                upcall("pollCq", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS)));
        context.set(ADDRESS, RdmaStructs.IBV_CONTEXT.offset("ops", "req_notify_cq"),
                upcall("reqNotifyCq", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)));
        qp = arena.allocate(RdmaStructs.IBV_QP.layout());
        qp.set(ADDRESS, RdmaStructs.IBV_QP.offset("context"), context);
        cq = arena.allocate(RdmaStructs.IBV_CQ.layout());
        cq.set(ADDRESS, RdmaStructs.IBV_CQ.offset("context"), context);
    }

    @AfterEach
    void close() {
        arena.close();
    }

    @Test
    void eachVerbCallsItsOwnEntryOfTheContextsOpsTable() {
        ContextOps ops = ContextOps.ofObject(qp);
        MemorySegment badWr = arena.allocate(ADDRESS);
        MemorySegment send = arena.allocate(RdmaStructs.IBV_SEND_WR.layout());
        send.set(JAVA_LONG, RdmaStructs.IBV_SEND_WR.offset("wr_id"), 7);
        MemorySegment recv = arena.allocate(RdmaStructs.IBV_RECV_WR.layout());
        recv.set(JAVA_LONG, RdmaStructs.IBV_RECV_WR.offset("wr_id"), 8);

        assertEquals(0, ops.postSend(qp, send, badWr));
        assertEquals(0, ops.postRecv(qp, recv, badWr));
        assertEquals(0, ops.reqNotifyCq(cq, true));
        assertEquals(List.of("post_send qp=" + qp.address() + " wr_id=7", "post_recv qp=" + qp.address() + " wr_id=8",
                "req_notify_cq cq=" + cq.address() + " solicited_only=1"), CALLS);
    }

    @Test
    void aRefusedWorkRequestComesBackThroughBadWrWithTheProvidersErrno() {
        MemorySegment badWr = arena.allocate(ADDRESS);
        MemorySegment send = arena.allocate(RdmaStructs.IBV_SEND_WR.layout());
        send.set(JAVA_LONG, RdmaStructs.IBV_SEND_WR.offset("wr_id"), REFUSED_WR_ID);
        assertEquals(RdmaConstants.ENOMEM, ContextOps.of(context).postSend(qp, send, badWr));
        assertEquals(send.address(), badWr.get(ADDRESS, 0).address());
    }

    @Test
    void pollingFillsTheCallersWorkCompletions() {
        MemorySegment wc = arena.allocate(RdmaStructs.IBV_WC.layout(), 4);
        assertEquals(2, ContextOps.ofObject(cq).pollCq(cq, 4, wc));
        assertEquals(List.of("poll_cq cq=" + cq.address() + " entries=4"), CALLS);
        long size = RdmaStructs.IBV_WC.size();
        assertEquals(100, wc.get(JAVA_LONG, RdmaStructs.IBV_WC.offset("wr_id")));
        assertEquals(RdmaConstants.IBV_WC_SUCCESS, wc.get(JAVA_INT, RdmaStructs.IBV_WC.offset("status")));
        assertEquals(101, wc.get(JAVA_LONG, size + RdmaStructs.IBV_WC.offset("wr_id")));
        assertEquals(RdmaConstants.IBV_WC_WR_FLUSH_ERR, wc.get(JAVA_INT, size + RdmaStructs.IBV_WC.offset("status")));
    }

    @Test
    void aProviderWithoutADataPathEntryIsRefusedWhenItsOpsAreRead() {
        context.set(ADDRESS, RdmaStructs.IBV_CONTEXT.offset("ops", "post_recv"), MemorySegment.NULL);
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> ContextOps.of(context));
        assertEquals("the device's provider has no post_recv in its ops table", refused.getMessage());
    }

}

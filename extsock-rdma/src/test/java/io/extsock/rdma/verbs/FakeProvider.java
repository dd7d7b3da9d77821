package io.extsock.rdma.verbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.extsock.rdma.ffi.ContextOps;
import io.extsock.rdma.ffi.RdmaStructs;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A provider library in Java: a {@code struct ibv_context} whose ops are upcalls that read the
 * work requests as a C provider reads them (through the headers' offsets), refuse them when told
 * to, and complete queued completions on poll. One at a time (its state is static, as upcalls
 * are static methods).
 */
final class FakeProvider implements AutoCloseable {

    /** A work request as the provider read it. */
    record Posted(String verb, long wrId, int opcode, int flags, long address, int length, int lkey,
                  long remoteAddress, int rkey) {
    }

    /** A completion to hand out on the next poll. */
    record Completion(long wrId, int status, int opcode, int byteLength) {
    }

    static final List<Posted> POSTED = new ArrayList<>();
    static final Deque<Completion> COMPLETIONS = new ArrayDeque<>();
    static int refuseWith;

    final Arena arena = Arena.ofConfined();
    final MemorySegment context;
    final MemorySegment qp;
    final MemorySegment cq;

    FakeProvider() throws ReflectiveOperationException {
        POSTED.clear();
        COMPLETIONS.clear();
        refuseWith = 0;
        context = arena.allocate(RdmaStructs.IBV_CONTEXT.layout());
        FunctionDescriptor post = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        set("post_send", upcall("postSend", post));
        set("post_recv", upcall("postRecv", post));
        set("poll_cq", upcall("pollCq", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS)));
        set("req_notify_cq", upcall("reqNotifyCq", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)));
        qp = arena.allocate(RdmaStructs.IBV_QP.layout());
        qp.set(ADDRESS, RdmaStructs.IBV_QP.offset("context"), context);
        qp.set(JAVA_INT, RdmaStructs.IBV_QP.offset("qp_num"), 17);
        cq = arena.allocate(RdmaStructs.IBV_CQ.layout());
        cq.set(ADDRESS, RdmaStructs.IBV_CQ.offset("context"), context);
    }

    private void set(String op, MemorySegment function) {
        context.set(ADDRESS, RdmaStructs.IBV_CONTEXT.offset("ops", op), function);
    }

    private MemorySegment upcall(String name, FunctionDescriptor descriptor) throws ReflectiveOperationException {
        return Linker.nativeLinker().upcallStub(MethodHandles.lookup().findStatic(FakeProvider.class, name,
                descriptor.toMethodType()), descriptor, arena);
    }

    ContextOps ops() {
        return ContextOps.of(context);
    }

    QueuePair queuePair() {
        return new QueuePair(null, MemorySegment.NULL, qp, ContextOps.ofObject(qp),
                new QueuePair.Capacities(16, 16, 1, 0));
    }

    /** Registered memory as ibv_reg_mr would describe it, without a device. */
    MemoryRegistration registration(MemorySegment memory, int lkey, int rkey) {
        MemorySegment mr = arena.allocate(RdmaStructs.IBV_MR.layout());
        mr.set(ADDRESS, RdmaStructs.IBV_MR.offset("addr"), memory);
        mr.set(JAVA_LONG, RdmaStructs.IBV_MR.offset("length"), memory.byteSize());
        mr.set(JAVA_INT, RdmaStructs.IBV_MR.offset("lkey"), lkey);
        mr.set(JAVA_INT, RdmaStructs.IBV_MR.offset("rkey"), rkey);
        return new MemoryRegistration(null, mr, memory);
    }

    private static MemorySegment sge(MemorySegment wr, long sgListOffset) {
        return wr.get(ADDRESS, sgListOffset).reinterpret(RdmaStructs.IBV_SGE.size());
    }

    static int postSend(MemorySegment qp, MemorySegment wr, MemorySegment badWr) {
        RdmaStructs.Struct s = RdmaStructs.IBV_SEND_WR;
        MemorySegment w = wr.reinterpret(s.size());
        MemorySegment sge = sge(w, s.offset("sg_list"));
        if (refuseWith != 0) {
            badWr.reinterpret(ADDRESS.byteSize()).set(ADDRESS, 0, wr);
            return refuseWith;
        }
        POSTED.add(new Posted("post_send", w.get(JAVA_LONG, s.offset("wr_id")), w.get(JAVA_INT, s.offset("opcode")),
                w.get(JAVA_INT, s.offset("send_flags")), sge.get(JAVA_LONG, RdmaStructs.IBV_SGE.offset("addr")),
                sge.get(JAVA_INT, RdmaStructs.IBV_SGE.offset("length")),
                sge.get(JAVA_INT, RdmaStructs.IBV_SGE.offset("lkey")),
                w.get(JAVA_LONG, s.offset("wr", "rdma", "remote_addr")), w.get(JAVA_INT, s.offset("wr", "rdma", "rkey"))));
        return 0;
    }

    static int postRecv(MemorySegment qp, MemorySegment wr, MemorySegment badWr) {
        RdmaStructs.Struct s = RdmaStructs.IBV_RECV_WR;
        MemorySegment w = wr.reinterpret(s.size());
        if (refuseWith != 0) {
            badWr.reinterpret(ADDRESS.byteSize()).set(ADDRESS, 0, wr);
            return refuseWith;
        }
        MemorySegment sge = sge(w, s.offset("sg_list"));
        POSTED.add(new Posted("post_recv", w.get(JAVA_LONG, s.offset("wr_id")), -1, 0,
                sge.get(JAVA_LONG, RdmaStructs.IBV_SGE.offset("addr")),
                sge.get(JAVA_INT, RdmaStructs.IBV_SGE.offset("length")),
                sge.get(JAVA_INT, RdmaStructs.IBV_SGE.offset("lkey")), 0, 0));
        return 0;
    }

    static int pollCq(MemorySegment cq, int entries, MemorySegment wc) {
        RdmaStructs.Struct s = RdmaStructs.IBV_WC;
        MemorySegment array = wc.reinterpret(s.size() * entries);
        int written = 0;
        while (written < entries && !COMPLETIONS.isEmpty()) {
            Completion c = COMPLETIONS.poll();
            MemorySegment one = array.asSlice(written * s.size(), s.size());
            one.set(JAVA_LONG, s.offset("wr_id"), c.wrId());
            one.set(JAVA_INT, s.offset("status"), c.status());
            one.set(JAVA_INT, s.offset("opcode"), c.opcode());
            one.set(JAVA_INT, s.offset("byte_len"), c.byteLength());
            one.set(JAVA_INT, s.offset("qp_num"), 17);
            written++;
        }
        return written;
    }

    static int reqNotifyCq(MemorySegment cq, int solicitedOnly) {
        return refuseWith;
    }

    @Override
    public void close() {
        arena.close();
    }

}

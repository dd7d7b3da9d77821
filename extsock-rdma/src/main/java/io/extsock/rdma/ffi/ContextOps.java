package io.extsock.rdma.ffi;

import static io.extsock.rdma.ffi.NativeCalls.C_INT;
import static io.extsock.rdma.ffi.NativeCalls.C_POINTER;
import static io.extsock.rdma.ffi.NativeCalls.rethrow;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The data-path verbs as verbs.h defines them: {@code ibv_post_send}, {@code ibv_post_recv},
 * {@code ibv_poll_cq} and {@code ibv_req_notify_cq} are static inline functions that call the
 * provider's entry in {@code context->ops}. libibverbs exports symbols of those names too, but
 * they are the old ABI's wrappers with the old structs; so this class reads the provider's
 * function pointers from the context, once, and calls them.
 *
 * <p>The QP's and the CQ's {@code context} member (offset 0 of both) names the context; all
 * objects of one context share its ops.
 */
public final class ContextOps {

    private static final MethodHandle POST_SEND = NativeCalls.pointer(
            FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle POST_RECV = POST_SEND;
    private static final MethodHandle POLL_CQ = NativeCalls.pointer(
            FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER));
    private static final MethodHandle REQ_NOTIFY_CQ = NativeCalls.pointer(
            FunctionDescriptor.of(C_INT, C_POINTER, C_INT));

    private final MemorySegment postSend;
    private final MemorySegment postRecv;
    private final MemorySegment pollCq;
    private final MemorySegment reqNotifyCq;

    private ContextOps(MemorySegment context) {
        postSend = entry(context, "post_send");
        postRecv = entry(context, "post_recv");
        pollCq = entry(context, "poll_cq");
        reqNotifyCq = entry(context, "req_notify_cq");
    }

    private static MemorySegment entry(MemorySegment context, String op) {
        MemorySegment pointer = context.get(C_POINTER, RdmaStructs.IBV_CONTEXT.offset("ops", op));
        if (pointer.equals(MemorySegment.NULL)) {
            throw new IllegalStateException("the device's provider has no " + op + " in its ops table");
        }
        return pointer;
    }

    /**
     * The ops of an open device.
     *
     * @param context a {@code struct ibv_context *}
     * @return its data-path entry points
     */
    public static ContextOps of(MemorySegment context) {
        return new ContextOps(context.reinterpret(RdmaStructs.IBV_CONTEXT.layout().byteSize()));
    }

    /** The ops of the context a QP or CQ belongs to ({@code qp->context}, {@code cq->context}). */
    public static ContextOps ofObject(MemorySegment qpOrCq) {
        return of(qpOrCq.reinterpret(C_POINTER.byteSize()).get(C_POINTER, RdmaStructs.IBV_QP.offset("context")));
    }

    /**
     * {@code ibv_post_send}.
     *
     * @param badWr where the provider stores the first work request it refused (one pointer)
     * @return 0, or an errno value
     */
    public int postSend(MemorySegment qp, MemorySegment wr, MemorySegment badWr) {
        try {
            return (int) POST_SEND.invokeExact(postSend, qp, wr, badWr);
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    /** {@code ibv_post_recv}. @return 0, or an errno value */
    public int postRecv(MemorySegment qp, MemorySegment wr, MemorySegment badWr) {
        try {
            return (int) POST_RECV.invokeExact(postRecv, qp, wr, badWr);
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    /**
     * {@code ibv_poll_cq}.
     *
     * @param wc room for {@code entries} {@code struct ibv_wc}
     * @return how many completions were written, or a negative value on error
     */
    public int pollCq(MemorySegment cq, int entries, MemorySegment wc) {
        try {
            return (int) POLL_CQ.invokeExact(pollCq, cq, entries, wc);
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    /** {@code ibv_req_notify_cq}: the next completion raises an event on the CQ's channel. @return 0, or an errno value */
    public int reqNotifyCq(MemorySegment cq, boolean solicitedOnly) {
        try {
            return (int) REQ_NOTIFY_CQ.invokeExact(reqNotifyCq, cq, solicitedOnly ? 1 : 0);
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }
}

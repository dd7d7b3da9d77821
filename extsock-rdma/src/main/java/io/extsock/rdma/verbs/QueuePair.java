package io.extsock.rdma.verbs;

import io.extsock.rdma.ffi.ContextOps;
import io.extsock.rdma.ffi.Libc;
import io.extsock.rdma.ffi.RdmaCm;
import io.extsock.rdma.ffi.RdmaConstants;
import io.extsock.rdma.ffi.RdmaStructs;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A reliable-connection queue pair made on an rdma_cm identifier ({@code rdma_create_qp}), so
 * that rdma_cm moves it through its states as the connection is made and torn down. Posting
 * goes through the provider's ops ({@code ibv_post_send}, {@code ibv_post_recv}).
 */
public final class QueuePair implements AutoCloseable {

    /** What a queue pair is asked to hold; the provider may grant more. */
    public record Capacities(int sendRequests, int receiveRequests, int scatterGatherEntries, int inlineOctets) {
        public Capacities {
            if (sendRequests <= 0 || receiveRequests <= 0 || scatterGatherEntries <= 0 || inlineOctets < 0) {
                throw new IllegalArgumentException("a queue pair needs room for at least one send and one receive"
                        + " request of one entry each, not " + this);
            }
        }
    }

    private static final RdmaStructs.Struct ATTR = RdmaStructs.IBV_QP_INIT_ATTR;

    private final RdmaCm cm;
    private final MemorySegment id;
    private final MemorySegment qp;
    private final ContextOps ops;
    private final Capacities granted;
    private boolean closed;

    QueuePair(RdmaCm cm, MemorySegment id, MemorySegment qp, ContextOps ops, Capacities granted) {
        this.cm = cm;
        this.id = id;
        this.qp = qp;
        this.ops = ops;
        this.granted = granted;
    }

    /**
     * Creates the queue pair of an identifier whose address (and so device) is known.
     *
     * @param cm     librdmacm
     * @param id     the {@code struct rdma_cm_id *}
     * @param pd     its protection domain, on the identifier's device
     * @param sendCq where send-queue completions go
     * @param recvCq where receive-queue completions go (may be {@code sendCq})
     * @param asked  the capacities asked for
     */
    public static QueuePair create(RdmaCm cm, MemorySegment id, ProtectionDomain pd, CompletionQueue sendCq,
                                   CompletionQueue recvCq, Capacities asked) throws IOException {
        Capacities granted;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ATTR.layout());
            attr.set(ValueLayout.ADDRESS, ATTR.offset("send_cq"), sendCq.cq());
            attr.set(ValueLayout.ADDRESS, ATTR.offset("recv_cq"), recvCq.cq());
            attr.set(ValueLayout.JAVA_INT, ATTR.offset("cap", "max_send_wr"), asked.sendRequests());
            attr.set(ValueLayout.JAVA_INT, ATTR.offset("cap", "max_recv_wr"), asked.receiveRequests());
            attr.set(ValueLayout.JAVA_INT, ATTR.offset("cap", "max_send_sge"), asked.scatterGatherEntries());
            attr.set(ValueLayout.JAVA_INT, ATTR.offset("cap", "max_recv_sge"), asked.scatterGatherEntries());
            attr.set(ValueLayout.JAVA_INT, ATTR.offset("cap", "max_inline_data"), asked.inlineOctets());
            attr.set(ValueLayout.JAVA_INT, ATTR.offset("qp_type"), RdmaConstants.IBV_QPT_RC);
            // Completions only for the requests that ask for one (IBV_SEND_SIGNALED).
            attr.set(ValueLayout.JAVA_INT, ATTR.offset("sq_sig_all"), 0);
            cm.createQp(id, pd.pd(), attr);
            granted = new Capacities(
                    attr.get(ValueLayout.JAVA_INT, ATTR.offset("cap", "max_send_wr")),
                    attr.get(ValueLayout.JAVA_INT, ATTR.offset("cap", "max_recv_wr")),
                    attr.get(ValueLayout.JAVA_INT, ATTR.offset("cap", "max_send_sge")),
                    attr.get(ValueLayout.JAVA_INT, ATTR.offset("cap", "max_inline_data")));
        }
        MemorySegment qp = id.get(ValueLayout.ADDRESS, RdmaStructs.RDMA_CM_ID.offset("qp"))
                .reinterpret(RdmaStructs.IBV_QP.layout().byteSize());
        return new QueuePair(cm, id, qp, ContextOps.ofObject(qp), granted);
    }

    /** @return what the provider granted */
    public Capacities granted() {
        return granted;
    }

    /** @return the queue pair's number */
    public int number() {
        return qp.get(ValueLayout.JAVA_INT, RdmaStructs.IBV_QP.offset("qp_num"));
    }

    /**
     * Posts a Send, RDMA Write or RDMA Read.
     *
     * @throws IOException naming the refused request and the provider's errno (a full send
     *         queue is ENOMEM), with nothing posted
     */
    public void post(SendRequest request) throws IOException {
        int result = ops.postSend(qp, request.wr(), request.badWr());
        if (result != 0) {
            throw refused("ibv_post_send", request.wrId(), result);
        }
    }

    /**
     * Posts room for one incoming Send.
     *
     * @throws IOException naming the refused request and the provider's errno
     */
    public void post(ReceiveRequest request) throws IOException {
        int result = ops.postRecv(qp, request.wr(), request.badWr());
        if (result != 0) {
            throw refused("ibv_post_recv", request.wrId(), result);
        }
    }

    private static IOException refused(String verb, long wrId, int errno) {
        return new IOException(verb + " refused work request " + wrId + ": " + Libc.strerror(errno)
                + " (errno " + errno + ")");
    }

    /** Destroys the queue pair ({@code rdma_destroy_qp}); outstanding requests are gone with it. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            cm.destroyQp(id);
        }
    }
}

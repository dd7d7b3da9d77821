package io.extsock.rdma.verbs;

import io.extsock.rdma.ffi.ContextOps;
import io.extsock.rdma.ffi.Verbs;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * A completion queue and its own completion channel. Polling and arming go through the
 * provider's ops; waiting for an event is the device event thread's job. Close it only after
 * the event thread stopped watching its channel, so that every event it got was acknowledged
 * (ibv_destroy_cq waits for that).
 */
public final class CompletionQueue implements AutoCloseable {

    private final Verbs verbs;
    private final ContextOps ops;
    private final MemorySegment channel;
    private final MemorySegment cq;
    private boolean closed;

    CompletionQueue(Verbs verbs, ContextOps ops, MemorySegment channel, MemorySegment cq) {
        this.verbs = verbs;
        this.ops = ops;
        this.channel = channel;
        this.cq = cq;
    }

    /** @return the {@code struct ibv_cq *} */
    public MemorySegment cq() {
        return cq;
    }

    /** @return the {@code struct ibv_comp_channel *}, for the event thread */
    public MemorySegment channel() {
        return channel;
    }

    /**
     * Takes up to {@code into.capacity()} completions.
     *
     * @return how many were taken
     * @throws IOException if the provider reports an error polling
     */
    public int poll(WorkCompletions into) throws IOException {
        return poll(ops, cq, into);
    }

    static int poll(ContextOps ops, MemorySegment cq, WorkCompletions into) throws IOException {
        int taken = ops.pollCq(cq, into.capacity(), into.array());
        if (taken < 0) {
            throw new IOException("ibv_poll_cq failed (" + taken + ")");
        }
        into.filled(taken);
        return taken;
    }

    /**
     * Arms the queue: its next completion (or next solicited one) raises an event on the channel.
     * Poll once more after arming: a completion that arrived between the last poll and the arm
     * raises no event.
     *
     * @param solicitedOnly true to be woken only by completions the peer marked solicited
     */
    public void arm(boolean solicitedOnly) throws IOException {
        arm(ops, cq, solicitedOnly);
    }

    static void arm(ContextOps ops, MemorySegment cq, boolean solicitedOnly) throws IOException {
        int result = ops.reqNotifyCq(cq, solicitedOnly);
        if (result != 0) {
            throw new IOException("ibv_req_notify_cq failed (errno " + result + ")");
        }
    }

    /** Destroys the CQ, then its channel. */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            try {
                verbs.destroyCq(cq);
            } finally {
                verbs.destroyCompChannel(channel);
            }
        }
    }
}

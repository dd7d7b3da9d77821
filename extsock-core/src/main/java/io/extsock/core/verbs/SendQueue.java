package io.extsock.core.verbs;

import io.extsock.core.rdmap.ReadRequestHeader;
import io.extsock.core.rdmap.TerminateHeader;
import io.extsock.core.terminate.ErrorLayer;
import io.extsock.core.terminate.TerminateCause;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.WorkOpcode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A queue pair's send queue: the requests posted and not yet completed, in posting order, which
 * is the order of their completions; those not yet framed; those whose last bytes are in the
 * gathering write being written; and our RDMA Reads on the wire, oldest first (ORD). Every
 * method runs under the queue pair's lock ({@link WorkQueues}).
 */
final class SendQueue {

    private final WorkPools pools;
    private final ConnectionCounters counters;
    private final CompletionRecord completion;
    /** The most Reads we may have on the wire (the ORD the peer agreed to). */
    private final int ord;
    private final ArrayDeque<SendWork> inFlight = new ArrayDeque<>();
    private final ArrayDeque<SendWork> unframed = new ArrayDeque<>();
    private final List<SendWork> lastSegmentInGather = new ArrayList<>();
    private final ArrayDeque<SendWork> outstandingReads = new ArrayDeque<>();

    /** @param completion filled for each completion reported (one will do: they are reported under the lock) */
    SendQueue(WorkPools pools, ConnectionCounters counters, CompletionRecord completion, int ord) {
        this.pools = pools;
        this.counters = counters;
        this.completion = completion;
        this.ord = ord;
    }

    /** Requests posted and not yet completed. */
    int outstanding() {
        return inFlight.size();
    }

    /** That {@code count} more requests may be posted, all of them (one request's, or a posting list's). */
    void requireRoom(int count) {
        int depth = QueuePair.SEND_QUEUE_DEPTH;
        if (inFlight.size() + count > depth) {
            throw new IllegalStateException("send queue full: " + (count == 1 ? depth + " requests outstanding"
                    : "room for " + (depth - inFlight.size()) + " of " + depth + " requests, not the list's " + count)
                    + "; wait for completions before posting more");
        }
    }

    /** A request joins the queue; one that failed its local checks completes in its turn, and never goes out. */
    void add(SendWork work) {
        inFlight.add(work);
        if (work.done) {
            deliverCompletions();
        } else {
            unframed.add(work);
        }
    }

    /** Whether every request posted has been framed (or has finished without going out). */
    boolean allFramed() {
        return unframed.isEmpty();
    }

    /** The oldest request not yet framed, if it may go now (a Read only within ORD); else null. */
    SendWork readyToFrame() {
        SendWork next = unframed.peek();
        return next != null && (next.opcode != WorkOpcode.RDMA_READ || outstandingReads.size() < ord) ? next : null;
    }

    /** The request {@link #readyToFrame} named is being framed now; a Read is then on the wire. */
    void framing(SendWork head) {
        unframed.poll();
        if (head.opcode == WorkOpcode.RDMA_READ) {
            outstandingReads.add(head);
        }
    }

    /** The request's last bytes are in the gathering write: it completes when the write is done. */
    void inGather(SendWork request) {
        lastSegmentInGather.add(request);
    }

    /** The gathering write is done, whole or not: the requests whose last bytes were in it finish. */
    void gatherDone(CompletionStatus status, String detail, CompletionCause cause) {
        for (int i = 0; i < lastSegmentInGather.size(); i++) {  // indexed: no iterator per write
            lastSegmentInGather.get(i).finish(status, detail, cause);
        }
        lastSegmentInGather.clear();
        deliverCompletions();
    }

    /** Reports finished requests in the order they were posted; their entries go back to the pool. */
    void deliverCompletions() {
        SendWork head;
        while ((head = inFlight.peek()) != null && head.done) {
            inFlight.poll();
            counters.completed(head.status);
            head.completer.complete(completion.set(head.tag, head.opcode, head.status, head.length, false, 0,
                    head.detail, head.cause));
            pools.recycle(head);
        }
    }

    /** Our oldest Read on the wire, which the next Read Response answers (RFC 5040 section 5.2), or null. */
    SendWork oldestRead() {
        return outstandingReads.peek();
    }

    /** Its Read Response arrived: the oldest Read leaves the wire. */
    SendWork removeOldestRead() {
        return outstandingReads.poll();
    }

    int readsOutstanding() {
        return outstandingReads.size();
    }

    /**
     * The outstanding RDMA Read a peer's Terminate is about (RFC 5040 section 4.8): the one its
     * copied Read Request header names, else, for an RDMAP remote protection error (which only a
     * Read Request of ours can cause), the oldest; none for other errors (our Writes and Sends
     * left already).
     */
    SendWork readTheTerminateIsAbout(TerminateHeader terminate) {
        if (terminate.hasTerminatedReadRequest()) {
            ReadRequestHeader copied = terminate.terminatedReadRequest();
            for (SendWork read : outstandingReads) {
                if (read.sinkRegion != null && read.sinkRegion.stag() == copied.sinkStag()
                        && read.sinkOffset == copied.sinkTaggedOffset() && read.length == copied.readSize()) {
                    return read;
                }
            }
        }
        TerminateCause cause = terminate.cause();
        if (cause != null && cause.layer() == ErrorLayer.RDMAP && cause.errorType() == 1) {
            return outstandingReads.peek();
        }
        return null;
    }

    /**
     * The connection ended: every request not done finishes, {@code culprit} with {@code
     * culpritStatus}, the rest FLUSHED, except those whose last bytes are in the gathering write
     * being written: they wait for it ({@link #gatherDone}).
     */
    void flush(String reason, CompletionCause cause, SendWork culprit, CompletionStatus culpritStatus) {
        for (SendWork work : inFlight) {
            if (!work.done && !lastSegmentInGather.contains(work)) {
                work.finish(work == culprit ? culpritStatus : CompletionStatus.FLUSHED, reason, cause);
            }
        }
        unframed.clear();
        outstandingReads.clear();
        deliverCompletions();
    }
}

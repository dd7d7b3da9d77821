package io.extsock.core.verbs;

import io.extsock.core.rdmap.ReadRequestHeader;
import java.util.ArrayDeque;

/**
 * The peer's RDMA Reads this side serves (RFC 5040 section 5.2, IRD): the slots in use (claimed
 * by the Read Request handler when it accepts a request, released by the transmit side when the
 * response is framed or dropped) and the accepted requests waiting for their response, oldest
 * first, with a pool of their entries. Every method runs under the queue pair's lock.
 */
final class InboundReads {

    private final ArrayDeque<InboundRead> waiting = new ArrayDeque<>();
    private final ArrayDeque<InboundRead> pool = new ArrayDeque<>();
    private int slotsClaimed;

    /** Whether another request may be accepted under the given limit. */
    boolean slotFree(int limit) {
        return slotsClaimed < limit;
    }

    void claimSlot() {
        slotsClaimed++;
    }

    /** Queues an accepted request's response for the transmit side, in an entry from the pool. */
    void add(ReadRequestHeader accepted) {
        InboundRead read = pool.poll();
        if (read == null) {
            read = new InboundRead();
        }
        read.sinkStag = accepted.sinkStag();
        read.sinkTaggedOffset = accepted.sinkTaggedOffset();
        read.sourceStag = accepted.sourceStag();
        read.sourceTaggedOffset = accepted.sourceTaggedOffset();
        read.size = accepted.readSize();
        waiting.add(read);
    }

    /** The oldest accepted request, to respond to now; null if none. */
    InboundRead poll() {
        return waiting.poll();
    }

    boolean isEmpty() {
        return waiting.isEmpty();
    }

    int size() {
        return waiting.size();
    }

    /** A response was framed (or dropped): its slot and its entry are free again. */
    void release(InboundRead read) {
        slotsClaimed--;
        read.clear();
        pool.add(read);
    }

    /** The connection ended: the waiting requests will never be answered. */
    void clear() {
        waiting.clear();
    }
}

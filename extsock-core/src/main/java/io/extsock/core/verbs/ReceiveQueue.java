package io.extsock.core.verbs;

import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.WorkOpcode;
import java.util.ArrayDeque;

/**
 * A queue pair's receive queue: the Receives posted, oldest first; the peer's next Send takes
 * the head. Every method runs under the queue pair's lock ({@link WorkQueues}).
 */
final class ReceiveQueue {

    private final WorkPools pools;
    private final ConnectionCounters counters;
    private final CompletionRecord completion;
    private final ArrayDeque<ReceiveWork> queue = new ArrayDeque<>();

    /** @param completion filled for each Receive flushed (one will do: they complete under the lock) */
    ReceiveQueue(WorkPools pools, ConnectionCounters counters, CompletionRecord completion) {
        this.pools = pools;
        this.counters = counters;
        this.completion = completion;
    }

    /** That {@code count} more Receives may be posted, all of them (one request's, or a posting list's). */
    void requireRoom(int count) {
        int depth = QueuePair.RECEIVE_QUEUE_DEPTH;
        if (queue.size() + count > depth) {
            throw new IllegalStateException("receive queue full: " + (count == 1 ? depth + " receives outstanding"
                    : "room for " + (depth - queue.size()) + " of " + depth + " receives, not the list's " + count));
        }
    }

    void add(ReceiveWork work) {
        queue.add(work);
    }

    /** The Receive the next Send goes into, or null. */
    ReceiveWork head() {
        return queue.peek();
    }

    /** The Send into the head completed: it leaves the queue (its entry goes back to the pool by {@link #recycle}). */
    ReceiveWork removeHead() {
        return queue.poll();
    }

    void recycle(ReceiveWork work) {
        pools.recycle(work);
    }

    /**
     * The connection ended: every Receive completes, {@code receiving} (the one a Send is being
     * placed into, if at the head) with {@code receiveStatus}, the rest FLUSHED. That one stays
     * out of the pool: the receive side may be placing into it.
     */
    void flush(String reason, CompletionCause cause, ReceiveWork receiving, CompletionStatus receiveStatus) {
        boolean first = true;
        ReceiveWork work;
        while ((work = queue.poll()) != null) {
            CompletionStatus status = first && work == receiving ? receiveStatus : CompletionStatus.FLUSHED;
            counters.completed(status);
            work.completer.complete(completion.set(work.tag, WorkOpcode.RECEIVE, status, 0, false, 0, reason,
                    cause));
            if (work != receiving) {
                pools.recycle(work);
            }
            first = false;
        }
    }
}

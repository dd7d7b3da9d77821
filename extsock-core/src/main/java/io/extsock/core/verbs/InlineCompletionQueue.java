package io.extsock.core.verbs;

import io.extsock.verbs.CompletionHandler;
import io.extsock.verbs.CompletionQueue;
import io.extsock.verbs.WorkCompletion;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The completion queue an application sees: the connection's {@link CompletionRing}, whose
 * waits receive on the waiting thread ({@link InlineWait#await}) instead of parking until
 * another thread delivers, so that a completion costs no thread hand-off.
 */
final class InlineCompletionQueue implements CompletionQueue {

    private final CompletionRing ring;
    private final InlineWait waiting;
    /** What {@link #await} waits for, made once: a lambda made in the call would be allocated per wait. */
    private final BooleanSupplier completionAvailable;

    InlineCompletionQueue(CompletionRing ring, InlineWait waiting) {
        this.ring = ring;
        this.waiting = waiting;
        // Written, not only claimed: a wait that ended at the claim would leave the poll after it nothing.
        this.completionAvailable = ring::hasCompletion;
    }

    @Override
    public int poll(CompletionHandler handler, int max) {
        return ring.poll(handler, max);
    }

    @Override
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        boolean available = waiting.await(completionAvailable, Math.max(1, unit.toNanos(timeout)), true);
        if (!available && Thread.interrupted()) {
            throw new InterruptedException();
        }
        return available;
    }

    @Override
    public WorkCompletion take(long timeout, TimeUnit unit) throws InterruptedException {
        WorkCompletion[] taken = new WorkCompletion[1];
        CompletionHandler intoTaken = view -> taken[0] = WorkCompletion.of(view);
        if (ring.poll(intoTaken, 1) == 1) {
            return taken[0];  // there already: no clock read (a bulk sender's takes mostly end here)
        }
        long remaining = unit.toNanos(timeout);
        long deadline = System.nanoTime() + remaining;
        while (true) {
            if (remaining <= 0 || !await(remaining, TimeUnit.NANOSECONDS)) {
                return ring.poll(intoTaken, 1) == 1 ? taken[0] : null;
            }
            if (ring.poll(intoTaken, 1) == 1) {
                return taken[0];
            }
            remaining = deadline - System.nanoTime();
        }
    }

    @Override
    public int size() {
        return ring.size();
    }
}

package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.WorkOpcode;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

class InlineCompletionQueueTest {

    private static final int COMPLETIONS = 300_000;

    /**
     * A completion is claimed in the ring before it is written: an await that answered yes at
     * the claim would leave a poll that finds nothing, and a loop of await-then-poll (perftest's
     * shape) would take that for a stall. Against a producer adding as fast as it can, every yes
     * must leave a completion to poll.
     */
    @Test
    void anAwaitThatSaysYesLeavesACompletionToPoll() throws Exception {
        CompletionRing ring = new CompletionRing(1024);
        InlineCompletionQueue queue = new InlineCompletionQueue(ring, new SpinningWait());
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread producer = new Thread(() -> {
            CompletionRecord completion = new CompletionRecord();
            try {
                for (int i = 0; i < COMPLETIONS; i++) {
                    completion.set(i, WorkOpcode.SEND, CompletionStatus.SUCCESS, 64, false, 0, null, CompletionCause.NONE);
                    while (!ring.add(completion)) {
                        Thread.onSpinWait();  // full: the consumer catches up
                    }
                }
            } catch (Throwable e) {
                failed.set(e);
            }
        });
        producer.start();
        long[] next = {0};
        int emptyPolls = 0;
        while (next[0] < COMPLETIONS) {
            assertTrue(queue.await(10, TimeUnit.SECONDS), "no completion after " + next[0]);
            int taken = queue.poll(view -> assertEquals(next[0]++, view.tag()), 1);
            if (taken == 0) {
                emptyPolls++;
            }
        }
        producer.join();
        assertEquals(null, failed.get());
        assertEquals(0, emptyPolls, "polls that found nothing after an await said yes");
    }

    /** The engine's wait without a connection: looks at the condition until it holds or the time is up. */
    private static final class SpinningWait implements InlineWait {
        @Override
        public boolean await(BooleanSupplier condition, long timeoutNanos, boolean interruptible) {
            long deadline = System.nanoTime() + timeoutNanos;
            while (!condition.getAsBoolean()) {
                if (System.nanoTime() - deadline >= 0) {
                    return false;
                }
                Thread.onSpinWait();
            }
            return true;
        }

        @Override
        public void wakeWaiters() {
        }
    }
}

package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionHandler;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.CompletionView;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import java.lang.invoke.MethodHandle;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import io.extsock.core.ThreadAllocations;

/**
 * The steady state allocates nothing on the completion path, as counted by
 * {@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes} (reached by method
 * handle: the test is compiled inside the io.extsock.core module, which does not read
 * jdk.management). Only {@code take}, which returns a new {@link WorkCompletion}, allocates.
 */
class CompletionAllocationTest {

    private static final int OPERATIONS = 20_000;
    private static final int WARM_UP_ROUNDS = 10;
    private static final int MEASURED_ROUNDS = 25;  // stops at the first clean round
    private static final String DETAIL = "peer sent Terminate: remote access error";
    private static ThreadAllocations allocations;
    private static long measuringCost;

    @BeforeAll
    static void allocationCounter() throws ReflectiveOperationException {
        allocations = ThreadAllocations.counter();
        measuringCost = allocations.measuringCost();
    }

    private static long allocated() {
        return allocations.now();
    }

    @Test
    void addAndPollOneAtATimeAllocatesNothing() throws InterruptedException {
        CompletionRing ring = new CompletionRing(64);
        TagSum handler = new TagSum();
        assertEquals(0, leastAllocated(() -> assertEquals(OPERATIONS, addAndPoll(ring, handler, 1))),
                "octets allocated for " + OPERATIONS + " completions added and polled");
    }

    @Test
    void addAndPollInBatchesOf16AllocatesNothing() throws InterruptedException {
        CompletionRing ring = new CompletionRing(64);
        TagSum handler = new TagSum();
        assertEquals(0, leastAllocated(() -> assertEquals(OPERATIONS, addAndPoll(ring, handler, 16))),
                "octets allocated for " + OPERATIONS + " completions added and polled");
    }

    @Test
    void failuresWithTheirDetailAllocateNothing() throws InterruptedException {
        CompletionRing ring = new CompletionRing(8);
        DetailLength handler = new DetailLength();
        assertEquals(0, leastAllocated(() -> assertEquals((long) OPERATIONS * DETAIL.length(),
                addAndPollFailures(ring, handler))), "octets allocated for " + OPERATIONS + " failures");
    }

    /** One round of {@link #OPERATIONS} operations. */
    private interface Round {
        void run() throws InterruptedException;
    }

    /**
     * The fewest octets one round allocated, out of a few measured after warming up. A JIT
     * compilation that finishes during a round can show once in this thread's counter (about 150
     * octets, never with -Xint or C1 alone); an allocation per operation, or per few thousand,
     * shows in every round. On a loaded machine compilations lag, so up to 25 rounds are measured.
     */
    private static long leastAllocated(Round round) throws InterruptedException {
        for (int warmUp = 0; warmUp < WARM_UP_ROUNDS; warmUp++) {
            round.run();
        }
        long least = Long.MAX_VALUE;
        for (int measured = 0; measured < MEASURED_ROUNDS && least > 0; measured++) {
            long before = allocated();
            round.run();
            least = Math.min(least, allocated() - before - measuringCost);
        }
        return least;
    }

    /** Filled for each add, as the queue pair reuses its own: adding allocates nothing. */
    private static final CompletionRecord COMPLETION = new CompletionRecord();

    private static long addAndPoll(CompletionRing ring, TagSum handler, int batch) {
        long polled = 0;
        for (int i = 0; i < OPERATIONS; i += batch) {
            for (int j = 0; j < batch; j++) {
                ring.add(COMPLETION.set(i + j, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, 1448, false, 0, null,
                        CompletionCause.NONE));
            }
            polled += ring.poll(handler, batch);
        }
        return polled;
    }

    private static long addAndPollFailures(CompletionRing ring, DetailLength handler) {
        handler.octets = 0;
        for (int i = 0; i < OPERATIONS; i++) {
            ring.add(COMPLETION.set(i, WorkOpcode.RDMA_READ, CompletionStatus.REMOTE_ACCESS_ERROR, 0, false, 0, DETAIL,
                    CompletionCause.NONE));
            ring.poll(handler, 1);
        }
        return handler.octets;
    }

    /** A handler that keeps nothing but a sum, as an application's polling loop would. */
    private static final class TagSum implements CompletionHandler {
        long sum;

        @Override
        public void onCompletion(CompletionView completion) {
            sum += completion.tag();
        }
    }

    private static final class DetailLength implements CompletionHandler {
        long octets;

        @Override
        public void onCompletion(CompletionView completion) {
            octets += completion.detail().length();
        }
    }
}

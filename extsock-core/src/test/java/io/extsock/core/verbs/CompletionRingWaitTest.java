package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * await and take: at once when a completion is there, on a timeout, woken from another thread
 * while spinning or parked, and interrupted. Waits that should end early are given far longer
 * than they need ({@link #PATIENCE_SECONDS}): one that times out has found a lost wake-up.
 */
class CompletionRingWaitTest {

    private static final long PATIENCE_SECONDS = 20;
    private static final long HOUR = TimeUnit.HOURS.toNanos(1);
    private static final WorkCompletion RECEIVED =
            new WorkCompletion(42, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, 1448, true, 0x5501, null);

    @Test
    void awaitAndTakeReturnAtOnceWhenACompletionIsThere() throws InterruptedException {
        CompletionRing ring = new CompletionRing(4, HOUR);
        add(ring, RECEIVED);
        assertTrue(ring.await(0, TimeUnit.NANOSECONDS));
        assertTrue(ring.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
        assertEquals(1, ring.size(), "await consumes nothing");
        assertEquals(RECEIVED, ring.take(0, TimeUnit.NANOSECONDS));
        assertEquals(1, ring.consumed());
    }

    @ParameterizedTest
    @ValueSource(longs = {-1, 0, 1, 2_000_000})
    void awaitAndTakeTimeOutOnAnEmptyRing(long timeoutNanos) throws InterruptedException {
        for (long spinNanos : new long[] {0, 1_000, CompletionRing.DEFAULT_SPIN_NANOS}) {
            CompletionRing ring = new CompletionRing(4, spinNanos);
            assertFalse(ring.await(timeoutNanos, TimeUnit.NANOSECONDS));
            assertNull(ring.take(timeoutNanos, TimeUnit.NANOSECONDS));
            assertFalse(ring.consumersRegistered(), "a timed-out waiter left no registration behind");
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {0, CompletionRing.DEFAULT_SPIN_NANOS})
    void aParkedAwaitIsWokenByAnotherThreadsAdd(long spinNanos) throws Exception {
        CompletionRing ring = new CompletionRing(4, spinNanos);
        Started<Boolean> waiting = start(() -> ring.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
        awaitParked(waiting);
        assertTrue(ring.consumersRegistered());
        add(ring, RECEIVED);
        assertTrue(waiting.get());
        assertFalse(ring.consumersRegistered(), "the producer took the woken waiter out");
        assertEquals(1, ring.size());
    }

    @Test
    void aParkedTakeIsWokenByAnotherThreadsAdd() throws Exception {
        CompletionRing ring = new CompletionRing(4, 0);
        Started<WorkCompletion> taking = start(() -> ring.take(PATIENCE_SECONDS, TimeUnit.SECONDS));
        awaitParked(taking);
        add(ring, RECEIVED);
        assertEquals(RECEIVED, taking.get());
        assertEquals(0, ring.size());
    }

    @Test
    void aSpinningAwaitSeesAnotherThreadsAddWithoutParking() throws Exception {
        CompletionRing ring = new CompletionRing(4, HOUR);
        Started<Boolean> waiting = start(() -> ring.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
        Thread.sleep(1); // likely spinning by now; either way it must see the add
        add(ring, RECEIVED);
        assertTrue(waiting.get());
        assertFalse(ring.consumersRegistered(), "a waiter that spins never registers");
    }

    @Test
    void moreWaitersThanParkingSlotsAllWake() throws Exception {
        CompletionRing ring = new CompletionRing(4, 0, 1);
        List<Started<Boolean>> waiting = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            waiting.add(start(() -> ring.await(PATIENCE_SECONDS, TimeUnit.SECONDS)));
        }
        for (Started<Boolean> waiter : waiting) {
            awaitParked(waiter);
        }
        add(ring, RECEIVED);
        for (Started<Boolean> waiter : waiting) {
            assertTrue(waiter.get());
        }
        assertFalse(ring.consumersRegistered());
    }

    @Test
    void twoParkedTakersShareTwoCompletions() throws Exception {
        CompletionRing ring = new CompletionRing(4, 0);
        Started<WorkCompletion> first = start(() -> ring.take(PATIENCE_SECONDS, TimeUnit.SECONDS));
        Started<WorkCompletion> second = start(() -> ring.take(PATIENCE_SECONDS, TimeUnit.SECONDS));
        awaitParked(first);
        awaitParked(second);
        ring.add(1, WorkOpcode.SEND, CompletionStatus.SUCCESS, 0, false, 0, null);
        ring.add(2, WorkOpcode.SEND, CompletionStatus.SUCCESS, 0, false, 0, null);
        WorkCompletion one = first.get();
        WorkCompletion other = second.get();
        assertNotNull(one, "lost wake-up");
        assertNotNull(other, "lost wake-up");
        assertEquals(3, one.tag() + other.tag(), "each took one, neither took both");
        assertEquals(2, ring.consumed());
    }

    @ParameterizedTest
    @ValueSource(longs = {0, Long.MAX_VALUE})
    void anInterruptEndsAParkedOrSpinningAwait(long spinNanos) throws Exception {
        CompletionRing ring = new CompletionRing(4, spinNanos);
        Started<Boolean> waiting = start(() -> {
            try {
                ring.await(PATIENCE_SECONDS, TimeUnit.SECONDS);
                return false;
            } catch (InterruptedException expected) {
                return !Thread.currentThread().isInterrupted();
            }
        });
        if (spinNanos == 0) {
            awaitParked(waiting);
        } else {
            Thread.sleep(1); // likely spinning by now; an interrupt on entry must end it too
        }
        waiting.runner.interrupt();
        assertTrue(waiting.get(), "InterruptedException, with the interrupt status cleared");
        assertFalse(ring.consumersRegistered());
    }

    @Test
    void anInterruptEndsAParkedTake() throws Exception {
        CompletionRing ring = new CompletionRing(4, 0);
        Started<WorkCompletion> taking = start(() -> ring.take(PATIENCE_SECONDS, TimeUnit.SECONDS));
        awaitParked(taking);
        taking.runner.interrupt();
        ExecutionException thrown = assertThrows(ExecutionException.class, taking::get);
        assertTrue(thrown.getCause() instanceof InterruptedException, thrown.toString());
        add(ring, RECEIVED);
        assertEquals(1, ring.size(), "the interrupted take consumed nothing");
    }

    @Test
    void anInterruptedThreadCannotWaitOrTakeEvenWhenACompletionIsThere() throws InterruptedException {
        // As java.util.concurrent's blocking queues: the interrupt is seen on entry.
        CompletionRing ring = new CompletionRing(4);
        add(ring, RECEIVED);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> ring.await(1, TimeUnit.SECONDS));
        assertFalse(Thread.interrupted(), "the interrupt status was cleared");
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> ring.take(1, TimeUnit.SECONDS));
        assertFalse(Thread.interrupted());
        assertEquals(1, ring.size());
        assertEquals(RECEIVED, ring.take(0, TimeUnit.SECONDS));
    }

    private static void add(CompletionRing ring, WorkCompletion completion) {
        assertTrue(ring.add(completion.tag(), completion.opcode(), completion.status(), completion.byteLength(),
                completion.solicited(), completion.invalidatedStag(), completion.detail()));
    }

    /** A task on its own thread; {@link #runner} is that thread. */
    private static final class Started<V> extends FutureTask<V> {
        final Thread runner;

        Started(Callable<V> work) {
            super(work);
            runner = new Thread(this, "completion-waiter");
            runner.setDaemon(true);
        }
    }

    private static <V> Started<V> start(Callable<V> work) {
        Started<V> task = new Started<>(work);
        task.runner.start();
        return task;
    }

    /** Returns once the task's thread is parked in a timed wait (the ring parks with a timeout). */
    private static void awaitParked(Started<?> task) {
        Thread runner = task.runner;
        while (runner.getState() != Thread.State.TIMED_WAITING) {
            assertFalse(task.isDone(), "the waiter returned instead of parking");
            Thread.onSpinWait();
        }
    }
}

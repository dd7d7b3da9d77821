package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.ThreadProbe;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The progress loop is woken only when it would otherwise sleep past what a task needs
 * ({@link ProgressThread#executeSoon}, {@link ProgressThread#schedule}): a loop that sleeps
 * without a limit still runs such tasks, and so does the loop for tasks it gives itself; after
 * a task it ticks for a while, since more tend to follow. The waits are guards against a task
 * that never runs, not timings.
 */
@Timeout(30)
class ProgressThreadWakeUpTest {

    private static final long NO_HANG_SECONDS = 10;

    private ProgressThread thread;

    @BeforeEach
    void start() throws InterruptedException {
        thread = new ProgressThread("wake-up-test");
        CountDownLatch ran = new CountDownLatch(1);
        Thread[] loop = new Thread[1];
        thread.execute(() -> {
            loop[0] = Thread.currentThread();
            ran.countDown();
        });
        assertTrue(ran.await(NO_HANG_SECONDS, TimeUnit.SECONDS));
        // Back in its select, sleeping: no timers, nothing handed back.
        ThreadProbe.awaitStack(loop[0], "selecting", stack -> ThreadProbe.inside(stack, "sun.nio.ch.SelectorImpl",
                "select"));
    }

    @AfterEach
    void stop() {
        thread.shutdown();
    }

    @Test
    void aTaskForSoonWakesALoopThatWouldSleepLonger() throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        thread.executeSoon(ran::countDown);
        assertTrue(ran.await(NO_HANG_SECONDS, TimeUnit.SECONDS), "the sleeping loop was woken for it");
    }

    @Test
    void aTimerFromAnotherThreadWakesALoopThatWouldSleepPastIt() throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        thread.schedule(20, ran::countDown);
        assertTrue(ran.await(NO_HANG_SECONDS, TimeUnit.SECONDS), "the loop woke to take the timer");
    }

    @Test
    void afterATaskTheLoopTicksForAWhileSoThatTasksForSoonNeedNoWakeUp() throws InterruptedException {
        // Tasks every few milliseconds, and the loop looked at in between: a select that ends
        // within about a millisecond, where a loop without the busy ticking sleeps without a
        // limit once each task ran. (Looked at for a while, not once: a looker the machine
        // stalls right after a task would see nothing.)
        long bounded = 0;
        long nextTask = System.nanoTime();
        long lookedUntil = nextTask + TimeUnit.MILLISECONDS.toNanos(200);
        while (System.nanoTime() - lookedUntil < 0 && bounded == 0) {
            if (System.nanoTime() - nextTask >= 0) {
                thread.execute(() -> { });
                nextTask = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3);
            }
            long until = thread.sleepingUntil();
            if (until != Long.MIN_VALUE && until - System.nanoTime() < TimeUnit.MILLISECONDS.toNanos(2)) {
                bounded++;
            }
            Thread.onSpinWait();
        }
        assertTrue(bounded > 0, "the loop slept without a limit after each task");
        // The ticking ends: the loop sleeps without a limit again.
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(NO_HANG_SECONDS);
        while (!sleepsWithoutALimit() && System.nanoTime() - giveUp < 0) {
            Thread.sleep(1);  // a polling interval
        }
        assertTrue(sleepsWithoutALimit(), "the loop still ticks " + NO_HANG_SECONDS + " s after its last task");
    }

    private boolean sleepsWithoutALimit() {
        long until = thread.sleepingUntil();  // Long.MIN_VALUE: awake
        return until != Long.MIN_VALUE && until - System.nanoTime() > TimeUnit.SECONDS.toNanos(1);
    }

    @Test
    void whatTheLoopGivesItselfRunsWithoutAWakeUp() throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(3);
        thread.execute(() -> {
            thread.execute(ran::countDown);
            thread.executeSoon(ran::countDown);
            thread.schedule(5, ran::countDown);
        });
        assertTrue(ran.await(NO_HANG_SECONDS, TimeUnit.SECONDS), "tasks and a timer queued from the loop ran");
    }
}

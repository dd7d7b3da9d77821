package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The progress loop is woken only when it would otherwise sleep past what a task needs
 * ({@link ProgressThread#executeSoon}, {@link ProgressThread#schedule}): a loop that sleeps
 * without a limit still runs such tasks, and so does the loop for tasks it gives itself. The
 * waits are guards against a task that never runs, not timings.
 */
@Timeout(30)
class ProgressThreadWakeUpTest {

    private static final long NO_HANG_SECONDS = 10;

    private ProgressThread thread;

    @BeforeEach
    void start() throws InterruptedException {
        thread = new ProgressThread("wake-up-test");
        CountDownLatch ran = new CountDownLatch(1);
        thread.execute(ran::countDown);
        assertTrue(ran.await(NO_HANG_SECONDS, TimeUnit.SECONDS));
        Thread.sleep(50);  // back in a select without a limit: no timers, nothing handed back
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

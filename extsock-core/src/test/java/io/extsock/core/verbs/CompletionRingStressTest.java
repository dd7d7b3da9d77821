package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.CompletionView;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Races between producers and consumers. Every wait is given far longer than it needs
 * ({@link #PATIENCE_SECONDS}): a wait that times out while a completion was due is a lost
 * wake-up, and is reported as one. Spin times of 0 (every wait parks), 1 µs (spinning ends in
 * the middle of the race) and the default are all tried.
 */
class CompletionRingStressTest {

    private static final long PATIENCE_SECONDS = 20;
    private static final long PILL = -1;

    /**
     * One completion in flight at a time, bounced between two threads through two rings: each
     * hop is a fresh race between a producer's add and a consumer about to park. The echo comes
     * back after a random delay of up to twice the spin time, so that it lands, round after
     * round, at every point of the waiter's passage from spinning to parked.
     */
    @ParameterizedTest
    @ValueSource(longs = {0, 1_000, CompletionRing.DEFAULT_SPIN_NANOS})
    void pingPongNeverLosesAWakeUp(long spinNanos) throws InterruptedException {
        int rounds = 20_000;
        CompletionRing there = new CompletionRing(1, spinNanos);
        CompletionRing back = new CompletionRing(1, spinNanos);
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        Thread ponger = new Thread(() -> {
            SplittableRandom random = new SplittableRandom(rounds);
            try {
                for (int round = 0; round < rounds; round++) {
                    WorkCompletion ping = there.take(PATIENCE_SECONDS, TimeUnit.SECONDS);
                    if (ping == null) {
                        failures.add("lost wake-up: take timed out in round " + round);
                        return;
                    }
                    busyWait(random.nextLong(2 * spinNanos + 1));
                    if (!back.add(ping.tag(), WorkOpcode.SEND, CompletionStatus.SUCCESS, 0, false, 0, null)) {
                        failures.add("back full in round " + round);
                    }
                }
            } catch (InterruptedException e) {
                failures.add("interrupted");
            }
        }, "ponger");
        ponger.start();
        long[] echoed = new long[1];
        for (int round = 0; round < rounds && failures.isEmpty(); round++) {
            assertTrue(there.add(round, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, 0, false, 0, null));
            assertTrue(back.await(PATIENCE_SECONDS, TimeUnit.SECONDS), "lost wake-up: await timed out in round " + round);
            assertEquals(1, back.poll(view -> echoed[0] = view.tag(), 1));
            assertEquals(round, echoed[0]);
        }
        ponger.join();
        assertEquals(List.of(), List.copyOf(failures));
        assertEquals(rounds, there.consumed());
        assertEquals(rounds, back.consumed());
        assertFalse(there.consumersRegistered() || back.consumersRegistered());
    }

    /**
     * Three producers (admitting work as the engine does, so add must never find the ring
     * full) and three consumers (two polling and awaiting, one taking), in bursts with pauses
     * that let the consumers park. Every completion must be consumed exactly once, and each
     * consumer must see each producer's completions in the order they were added.
     */
    @ParameterizedTest
    @ValueSource(longs = {0, 1_000, CompletionRing.DEFAULT_SPIN_NANOS})
    void manyProducersAndConsumersConsumeEachCompletionExactlyOnce(long spinNanos) throws InterruptedException {
        int producers = 3;
        int consumers = 3;
        int perProducer = 20_000;
        CompletionRing ring = new CompletionRing(16, spinNanos);
        AtomicLong posted = new AtomicLong();
        AtomicIntegerArray deliveries = new AtomicIntegerArray(producers * perProducer);
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();

        List<Thread> producing = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int producer = p;
            producing.add(new Thread(() -> {
                SplittableRandom random = new SplittableRandom(producer);
                for (int i = 0; i < perProducer && admit(ring, posted, failures); i++) {
                    if (!ring.add(producer * (long) perProducer + i, WorkOpcode.SEND, CompletionStatus.SUCCESS, i,
                            false, producer, null)) {
                        failures.add("add found the ring full despite admission control");
                    }
                    if (random.nextInt(64) == 0) {
                        LockSupport.parkNanos(random.nextLong(200_000)); // a pause: consumers go idle
                    }
                }
            }, "producer-" + p));
        }
        List<Thread> consuming = new ArrayList<>();
        for (int c = 0; c < consumers; c++) {
            Consumer consumer = new Consumer(ring, posted, producers, perProducer, deliveries, failures, c);
            consuming.add(new Thread(c == 0 ? consumer::take : consumer::pollAndAwait, "consumer-" + c));
        }
        consuming.forEach(Thread::start);
        producing.forEach(Thread::start);
        for (Thread producer : producing) {
            producer.join();
        }
        for (int c = 0; c < consumers && admit(ring, posted, failures); c++) {
            assertTrue(ring.add(PILL, WorkOpcode.SEND, CompletionStatus.FLUSHED, 0, false, 0, "stop"));
        }
        for (Thread consumer : consuming) {
            consumer.join(TimeUnit.SECONDS.toMillis(4 * PATIENCE_SECONDS));
            assertFalse(consumer.isAlive(), consumer.getName() + " is stuck");
        }

        assertEquals(List.of(), List.copyOf(failures));
        for (int i = 0; i < deliveries.length(); i++) {
            assertEquals(1, deliveries.get(i), "deliveries of completion " + i);
        }
        assertEquals(posted.get(), ring.consumed());
        assertEquals(0, ring.size());
        assertFalse(ring.consumersRegistered());
    }

    private static void busyWait(long nanos) {
        long start = System.nanoTime();
        while (System.nanoTime() - start < nanos) {
            Thread.onSpinWait();
        }
    }

    /**
     * The engine's admission control: take a slot only while fewer than capacity() are
     * unconsumed. False, to stop the test early, once something failed.
     */
    private static boolean admit(CompletionRing ring, AtomicLong posted, ConcurrentLinkedQueue<String> failures) {
        while (failures.isEmpty()) {
            long already = posted.get();
            if (already - ring.consumed() < ring.capacity()) {
                if (posted.compareAndSet(already, already + 1)) {
                    return true;
                }
            } else {
                Thread.yield(); // two vCPUs: let a consumer run
            }
        }
        return false;
    }

    /** Records deliveries; stops at a pill (passing on any further pill it is handed) or at the first failure. */
    private static final class Consumer {
        private final CompletionRing ring;
        private final AtomicLong posted;
        private final int perProducer;
        private final AtomicIntegerArray deliveries;
        private final ConcurrentLinkedQueue<String> failures;
        private final long[] lastFromProducer;
        private final SplittableRandom random;
        private boolean stopped;

        Consumer(CompletionRing ring, AtomicLong posted, int producers, int perProducer,
                 AtomicIntegerArray deliveries, ConcurrentLinkedQueue<String> failures, int seed) {
            this.ring = ring;
            this.posted = posted;
            this.perProducer = perProducer;
            this.deliveries = deliveries;
            this.failures = failures;
            this.lastFromProducer = new long[producers];
            Arrays.fill(lastFromProducer, -1);
            this.random = new SplittableRandom(100 + seed);
        }

        void pollAndAwait() {
            try {
                while (!stopped && failures.isEmpty()) {
                    if (ring.poll(this::record, 1 + random.nextInt(8)) == 0
                            && !ring.await(PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                        failures.add("lost wake-up: await timed out with " + ring.size() + " in the ring");
                    }
                }
            } catch (InterruptedException e) {
                failures.add("interrupted");
            }
        }

        void take() {
            try {
                while (!stopped && failures.isEmpty()) {
                    WorkCompletion completion = ring.take(PATIENCE_SECONDS, TimeUnit.SECONDS);
                    if (completion == null) {
                        failures.add("lost wake-up: take timed out with " + ring.size() + " in the ring");
                    } else {
                        record(completion.tag(), completion.invalidatedStag(), completion.byteLength());
                    }
                }
            } catch (InterruptedException e) {
                failures.add("interrupted");
            }
        }

        private void record(CompletionView view) {
            record(view.tag(), view.invalidatedStag(), view.byteLength());
        }

        private void record(long tag, int producer, long index) {
            if (tag == PILL) {
                if (stopped) {
                    // The pill's slot was freed before this handler ran: there is room to pass it on.
                    posted.incrementAndGet();
                    if (!ring.add(PILL, WorkOpcode.SEND, CompletionStatus.FLUSHED, 0, false, 0, "stop")) {
                        failures.add("could not pass on a pill");
                    }
                }
                stopped = true;
                return;
            }
            if (tag != producer * (long) perProducer + index) {
                failures.add("fields of different completions mixed: " + tag + " " + producer + " " + index);
            }
            if (index <= lastFromProducer[producer]) {
                failures.add("producer " + producer + ": " + index + " after " + lastFromProducer[producer]);
            }
            lastFromProducer[producer] = index;
            deliveries.incrementAndGet((int) tag);
        }
    }
}

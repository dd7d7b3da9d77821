package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.CompletionView;
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
import org.junit.jupiter.api.Test;

/**
 * Races between producers and consumers: every completion consumed exactly once, in each
 * producer's order, however adds and polls interleave. (The ring only adds and polls; waiting
 * is the engine's, tested with it.)
 */
class CompletionRingStressTest {

    private static final long PATIENCE_SECONDS = 20;
    private static final long PILL = -1;

    /**
     * Three producers (admitting work as the engine does, so add must never find the ring
     * full) and three consumers polling batches of 1 to 8, in bursts with pauses that leave the
     * consumers idle. Every completion must be consumed exactly once, and each
     * consumer must see each producer's completions in the order they were added.
     */
    @Test
    void manyProducersAndConsumersConsumeEachCompletionExactlyOnce() throws InterruptedException {
        int producers = 3;
        int consumers = 3;
        int perProducer = 20_000;
        CompletionRing ring = new CompletionRing(16);
        AtomicLong posted = new AtomicLong();
        AtomicIntegerArray deliveries = new AtomicIntegerArray(producers * perProducer);
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();

        List<Thread> producing = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int producer = p;
            producing.add(new Thread(() -> {
                SplittableRandom random = new SplittableRandom(producer);
                for (int i = 0; i < perProducer && admit(ring, posted, failures); i++) {
                    if (!ring.add(completion(producer * (long) perProducer + i, WorkOpcode.SEND,
                            CompletionStatus.SUCCESS, i, false, producer, null))) {
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
            consuming.add(new Thread(consumer::poll, "consumer-" + c));
        }
        consuming.forEach(Thread::start);
        producing.forEach(Thread::start);
        for (Thread producer : producing) {
            producer.join();
        }
        for (int c = 0; c < consumers && admit(ring, posted, failures); c++) {
            assertTrue(ring.add(completion(PILL, WorkOpcode.SEND, CompletionStatus.FLUSHED, 0, false, 0, "stop")));
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

        void poll() {
            while (!stopped && failures.isEmpty()) {
                if (ring.poll(this::record, 1 + random.nextInt(8)) == 0) {
                    Thread.yield();  // two vCPUs: let a producer run
                }
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
                    if (!ring.add(completion(PILL, WorkOpcode.SEND, CompletionStatus.FLUSHED, 0, false, 0, "stop"))) {
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

    /** A completion with no cause, as the ring's callers fill one. */
    private static CompletionRecord completion(long tag, WorkOpcode opcode, CompletionStatus status, long byteLength,
                                               boolean solicited, int invalidatedStag, String detail) {
        return new CompletionRecord().set(tag, opcode, status, byteLength, solicited, invalidatedStag, detail,
                CompletionCause.NONE);
    }
}

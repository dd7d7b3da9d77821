package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.verbs.Access;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Application threads register and deregister (growing the table from its first 16 slots) while
 * an engine thread looks STags up: no exception, a lookup never answers with a region issued
 * under another STag, and once a deregistration is visible its region is never found again.
 */
@Timeout(30)
class ConcurrentRegistryTest {

    private static final Set<Access> RIGHTS = EnumSet.of(Access.REMOTE_READ, Access.REMOTE_WRITE);
    private static final int PUBLISHED = 512;
    private static final int ROUNDS_PER_WRITER = 40;
    private static final int BURST = 1500;

    private final MemoryRegistry registry = new MemoryRegistry();
    private final AtomicReferenceArray<RegisteredRegion> published = new AtomicReferenceArray<>(PUBLISHED);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicBoolean writing = new AtomicBoolean(true);
    private final AtomicLong lookups = new AtomicLong();
    private final AtomicLong hits = new AtomicLong();
    /** Regions whose close() has returned (identity: regions do not override equals). */
    private final Set<RegisteredRegion> closed = ConcurrentHashMap.newKeySet();

    @Test
    void lookupsRaceRegistrationAndDeregistration() throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            long seed = w;
            writers.add(thread("writer-" + w, start, () -> write(new SplittableRandom(seed))));
        }
        Thread reader = thread("reader", start, this::read);
        start.countDown();
        for (Thread writer : writers) {
            writer.join();
        }
        writing.set(false);
        reader.join();
        assertNull(failure.get(), () -> "failed: " + failure.get());
        assertTrue(lookups.get() > 10_000, "too few lookups to mean anything: " + lookups.get());
        assertTrue(hits.get() > 0, "no lookup ever found a live region");
        for (int i = 0; i < PUBLISHED; i++) {
            RegisteredRegion region = published.get(i);
            if (region != null) {
                region.close();
            }
        }
        assertEquals(0, registry.registeredCount(), "every registration was deregistered exactly once");
    }

    /** Bursts of registrations, each published for the reader, then all deregistered. */
    private void write(SplittableRandom random) {
        try {
            for (int round = 0; round < ROUNDS_PER_WRITER; round++) {
                List<RegisteredRegion> burst = new ArrayList<>(BURST);
                for (int i = 0; i < BURST; i++) {
                    RegisteredRegion region = registry.register(ByteBuffer.allocate(1), RIGHTS, false);
                    burst.add(region);
                    RegisteredRegion replaced = published.getAndSet(random.nextInt(PUBLISHED), region);
                    if (replaced != null && random.nextBoolean()) {
                        close(replaced);
                    }
                }
                for (RegisteredRegion region : burst) {
                    close(region);
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            failure.compareAndSet(null, e);
        }
    }

    private void read() {
        SplittableRandom random = new SplittableRandom(99);
        while (writing.get() && failure.get() == null) {
            for (int i = 0; i < 1000; i++) {
                RegisteredRegion region = published.get(random.nextInt(PUBLISHED));
                if (region == null) {
                    continue;
                }
                int stag = region.stag();
                boolean deadBefore = closed.contains(region);
                RegisteredRegion found = registry.lookup(stag);
                lookups.incrementAndGet();
                if (found == null) {
                    continue;
                }
                hits.incrementAndGet();
                if (found.stag() != stag) {
                    failure.compareAndSet(null, new AssertionError("lookup of " + Stag.toString(stag)
                            + " answered " + found));
                }
                if (deadBefore && found == region) {
                    failure.compareAndSet(null, new AssertionError("deregistered " + region + " was found again"));
                }
            }
        }
    }

    private void close(RegisteredRegion region) {
        region.close();
        closed.add(region);
    }

    private Thread thread(String name, CountDownLatch start, Runnable work) {
        Thread thread = new Thread(() -> {
            try {
                start.await();
                work.run();
            } catch (InterruptedException e) {
                failure.compareAndSet(null, e);
            } catch (RuntimeException | Error e) {
                failure.compareAndSet(null, e);
            }
        }, name);
        thread.start();
        return thread;
    }
}

package io.extsock.core.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Long run only ({@code -Dextsock.long=true}): IWARP_MODE connections echoing without pause for
 * {@code extsock.soak.minutes} (10 by default), the JVM sampled every 10 s after a collection.
 * After a minute's warm-up, the last sample's heap, direct memory, the engine's pool, threads
 * and descriptors are no higher than the first's, give or take a small tolerance: nothing grows
 * with the traffic.
 *
 * <pre>
 * mvn -B -o -pl extsock-core -am test -Dtest=SoakTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dextsock.long=true [-Dextsock.soak.minutes=10] [-Dextsock.soak.connections=64]
 * </pre>
 */
class SoakTest {

    private static final long MINUTES = Long.getLong("extsock.soak.minutes", 10);
    private static final int CONNECTIONS = Integer.getInteger("extsock.soak.connections", 64);
    private static final int CLIENT_THREADS = 8;
    private static final int MESSAGE = 4096;
    private static final long SAMPLE_SECONDS = 10;
    private static final long WARM_UP_SECONDS = Math.min(60, MINUTES * 60 / 4);
    /** Heap after a collection moves with what happens to be in flight at that instant. */
    private static final long HEAP_TOLERANCE = 16L << 20;
    private static final long DIRECT_TOLERANCE = 1L << 20;
    private static final int THREAD_TOLERANCE = 2;
    private static final int DESCRIPTOR_TOLERANCE = 2;

    @Test
    @Timeout(value = 6, unit = TimeUnit.HOURS)  // the run's own length rules; this only stops a hang
    void resourcesStayFlatUnderSteadyEcho() throws Exception {
        assumeTrue(Boolean.getBoolean("extsock.long"), "a long run: -Dextsock.long=true");
        try (ThreadPerConnectionEchoServer server = new ThreadPerConnectionEchoServer(10_000, CONNECTIONS + 10);
             EchoClients clients = EchoClients.open(server.address(), CONNECTIONS)) {
            ResourceSample opened = ResourceSample.takeAfterGc();
            clients.start(CLIENT_THREADS, MESSAGE);
            long start = System.nanoTime();
            long end = start + TimeUnit.MINUTES.toNanos(MINUTES);
            List<ResourceSample> samples = new ArrayList<>();
            List<Long> echoCounts = new ArrayList<>();
            System.out.println(ResourceSample.HEADER + "   echoes");
            System.out.println(opened.row("opened"));
            while (System.nanoTime() < end && clients.errors.isEmpty() && server.errors.isEmpty()) {
                Thread.sleep(TimeUnit.SECONDS.toMillis(SAMPLE_SECONDS));
                ResourceSample sample = ResourceSample.takeAfterGc();
                long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
                echoCounts.add(clients.echoes());
                System.out.println(sample.row(seconds + " s") + String.format(" %8d", clients.echoes()));
                if (seconds >= WARM_UP_SECONDS) {
                    samples.add(sample);
                }
            }
            clients.stop();
            assertEquals(List.of(), List.copyOf(clients.errors));
            assertEquals(List.of(), List.copyOf(server.errors));
            assertTrue(samples.size() >= 2, "too short a run to compare: " + samples.size() + " samples");
            ResourceSample first = samples.get(0);
            ResourceSample last = samples.get(samples.size() - 1);
            System.out.printf("soak: %d connections, %d echoes of %d octets in %d min, 0 errors; after warm-up"
                    + " first %s%n      last  %s%n", CONNECTIONS, clients.echoes(), MESSAGE, MINUTES,
                    first.row(""), last.row(""));
            assertTrue(last.heapBytes() <= first.heapBytes() + HEAP_TOLERANCE, "heap grew");
            assertTrue(last.directBytes() <= first.directBytes() + DIRECT_TOLERANCE, "direct memory grew");
            assertTrue(last.poolInUseBytes() <= first.poolInUseBytes() + DIRECT_TOLERANCE, "the pool grew");
            assertTrue(last.threads() <= first.threads() + THREAD_TOLERANCE, "threads grew");
            assertTrue(last.descriptors() <= first.descriptors() + DESCRIPTOR_TOLERANCE, "descriptors grew");
            assertTrue(last.engineThreads() <= 2, "engine threads: " + last.engineThreads());
            for (int i = 1; i < echoCounts.size(); i++) {
                assertTrue(echoCounts.get(i) > echoCounts.get(i - 1), "echoes stalled at sample " + i);
            }
        }
    }
}

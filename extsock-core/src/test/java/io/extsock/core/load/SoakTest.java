package io.extsock.core.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.extsock.core.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The stress tier and the long runs only ({@code -Dextsock.tier=stress}, {@code
 * -Dextsock.long=true}): IWARP_MODE connections echoing without pause for {@code
 * extsock.soak.minutes} (3 in the stress tier, 10 in the long run), the JVM sampled every 10 s
 * after a collection. After a warm-up (a minute, or a quarter of a shorter run), the last
 * sample's heap, direct memory, the engine's pool, threads and descriptors are no higher than
 * the first's, give or take a small tolerance: nothing grows with the traffic.
 *
 * <pre>
 * mvn -B -o -pl extsock-core -am test -Dtest=SoakTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dextsock.tier=stress [-Dextsock.soak.minutes=3] [-Dextsock.soak.connections=64]
 * </pre>
 */
@Tag("stress")
class SoakTest {

    private static final Tier TIER = Tier.current();
    private static final long MINUTES = Long.getLong("extsock.soak.minutes", TIER.pick(0, 3, 10));
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
        assumeTrue(TIER.scaledUp(), "the stress tier or a long run: -Dextsock.tier=stress or -Dextsock.long=true");
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
                Thread.sleep(TimeUnit.SECONDS.toMillis(SAMPLE_SECONDS));  // the sampling period of the soak
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
            TIER.figures("soak: %d connections, %d echoes of %d octets in %d min, 0 errors; after warm-up, first"
                    + " and last sample: heap %d and %d MiB, direct %d and %d KiB, pool %d and %d KiB, threads %d and %d,"
                    + " descriptors %d and %d", CONNECTIONS, clients.echoes(), MESSAGE, MINUTES,
                    first.heapBytes() >> 20, last.heapBytes() >> 20, first.directBytes() >> 10,
                    last.directBytes() >> 10, first.poolInUseBytes() >> 10, last.poolInUseBytes() >> 10,
                    first.threads(), last.threads(), first.descriptors(), last.descriptors());
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

package io.extsock.core.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.extsock.core.Tier;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The stress tier and the long runs only ({@code -Dextsock.tier=stress}, {@code
 * -Dextsock.long=true}): 1,000 IWARP_MODE connections through one IWARP_MODE server socket, all
 * echoing for {@code extsock.load.seconds} (20 in the stress tier, 60 in the long run), with
 * no error on either side; every connection echoed, in rounds, all along; the engine on its
 * two threads.
 *
 * <pre>
 * mvn -B -o -pl extsock-core -am test -Dtest=ThousandConnectionsEchoLoadTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dextsock.tier=stress
 * </pre>
 */
@Tag("stress")
class ThousandConnectionsEchoLoadTest {

    private static final Tier TIER = Tier.current();
    private static final int CONNECTIONS = Integer.getInteger("extsock.load.connections", 1000);
    private static final long SECONDS = Long.getLong("extsock.load.seconds", TIER.pick(0, 20, 60));
    private static final int CLIENT_THREADS = 32;
    private static final int MESSAGE = 1024;

    @Test
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void aThousandConnectionsEchoWithoutAnError() throws Exception {
        assumeTrue(TIER.scaledUp(), "the stress tier or a long run: -Dextsock.tier=stress or -Dextsock.long=true");
        try (ThreadPerConnectionEchoServer server = new ThreadPerConnectionEchoServer(30_000, CONNECTIONS + 10)) {
            ResourceSample before = ResourceSample.takeAfterGc();
            long start = System.nanoTime();
            try (EchoClients clients = EchoClients.open(server.address(), CONNECTIONS)) {
                long opened = System.nanoTime();
                ResourceSample open = ResourceSample.takeAfterGc();
                clients.start(CLIENT_THREADS, MESSAGE);
                long echoStart = System.nanoTime();
                long[] perTen = new long[(int) ((SECONDS + 9) / 10)];
                for (int i = 0; i < perTen.length && clients.errors.isEmpty(); i++) {
                    // The run goes on (its length, not synchronisation): echoes are counted every 10 s.
                    Thread.sleep(TimeUnit.SECONDS.toMillis(Math.min(10, SECONDS - 10L * i)));
                    perTen[i] = clients.echoes();
                }
                clients.stop();
                long echoed = System.nanoTime();
                ResourceSample loaded = ResourceSample.take();
                TIER.figures("echo load: %d connections opened in %d ms; %d echoes of %d octets in %d ms (%.0f/s),"
                        + " cumulative every 10 s %s; client errors %d, server errors %d", CONNECTIONS,
                        (opened - start) / 1_000_000, clients.echoes(), MESSAGE, (echoed - echoStart) / 1_000_000,
                        clients.echoes() / ((echoed - echoStart) / 1e9), java.util.Arrays.toString(perTen),
                        clients.errors.size(), server.errors.size());
                System.out.println(ResourceSample.HEADER);
                System.out.println(before.row("before"));
                System.out.println(open.row("open"));
                System.out.println(loaded.row("echoing"));
                assertEquals(List.of(), List.copyOf(clients.errors));
                assertEquals(List.of(), List.copyOf(server.errors));
                assertEquals(CONNECTIONS, server.accepted());
                assertEquals(0, server.negotiationFailures());
                assertTrue(clients.echoes() >= 10L * CONNECTIONS, "every connection echoed, many times over");
                for (int i = 1; i < perTen.length; i++) {
                    assertTrue(perTen[i] > perTen[i - 1], "echoes stalled in the 10 s before " + (i + 1) * 10);
                }
                assertTrue(loaded.engineThreads() <= 2, "engine threads: " + loaded.engineThreads());
            }
        }
    }
}

package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.AllThreadsAllocations;
import io.extsock.testkit.pair.IwarpSocketPair;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a new IWARP_MODE connection's first round trips allocate, after its first: the whole
 * life of a connection in a request/response load of many short connections (`perf compare`'s
 * many-connections rows do 100 round trips each). Per-message state made at its first use and
 * then gone through in turn (a slot per Send in flight, a pool's entries taken oldest first)
 * allocates on every message of such a connection and finds its memory cold each time, where
 * reusing what the last message used allocates nothing after the first.
 */
@Timeout(120)
class FreshConnectionAllocationTest {

    private static final int SIZE = 64;
    private static final int WARM_UP = 20_000;
    private static final int CONNECTIONS = 20;
    private static final int ROUND_TRIPS = 100;
    /** Octets per round trip allowed, both ends and the engine: the hot paths' goal. */
    private static final long LIMIT = HotPathAllocationTest.GOAL;

    @Test
    void aNewConnectionsRoundTripsAllocateNextToNothing() throws Exception {
        AllThreadsAllocations allocations = AllThreadsAllocations.counter();
        try (Echo warm = new Echo()) {
            warm.roundTrips(WARM_UP);  // compiled before anything is counted
        }
        long allocated = 0;
        for (int connection = 0; connection < CONNECTIONS; connection++) {
            try (Echo fresh = new Echo()) {
                fresh.roundTrips(1);  // the connection's first: what it makes once
                long[] threads = allocations.liveThreads();
                long before = allocations.of(threads);
                fresh.roundTrips(ROUND_TRIPS);
                allocated += allocations.of(threads) - before;
            }
        }
        double perRoundTrip = (double) allocated / (CONNECTIONS * ROUND_TRIPS);
        String report = String.format("octets allocated per round trip over %d new connections' round trips 2 to %d:"
                + " %.1f", CONNECTIONS, ROUND_TRIPS + 1, perRoundTrip);
        System.out.println(report);
        assertTrue(perRoundTrip <= LIMIT, report + "; at most " + LIMIT + " wanted");
    }

    /** A connection whose accepted end echoes each 64-octet message until the client closes. */
    private static final class Echo implements AutoCloseable {
        private final IwarpSocketPair pair = IwarpSocketPair.open();
        private final InputStream in = pair.client().getInputStream();
        private final OutputStream out = pair.client().getOutputStream();
        private final byte[] ping = new byte[SIZE];
        private final byte[] pong = new byte[SIZE];
        private final Thread echo;

        Echo() throws IOException {
            echo = new Thread(() -> {
                try {
                    InputStream echoIn = pair.accepted().getInputStream();
                    OutputStream echoOut = pair.accepted().getOutputStream();
                    byte[] message = new byte[SIZE];
                    while (echoIn.readNBytes(message, 0, SIZE) == SIZE) {
                        echoOut.write(message, 0, SIZE);
                    }
                } catch (IOException closedByTheClient) {
                    // the measurement is over
                }
            }, "fresh-echo");
            echo.setDaemon(true);
            echo.start();
        }

        void roundTrips(int count) throws IOException {
            for (int i = 0; i < count; i++) {
                ping[0] = (byte) i;
                out.write(ping, 0, SIZE);
                if (in.readNBytes(pong, 0, SIZE) != SIZE) {
                    throw new EOFException("the echo ended");
                }
                if (pong[0] != ping[0]) {
                    throw new IllegalStateException("round trip " + i + " came back as " + pong[0]);
                }
            }
        }

        @Override
        public void close() throws Exception {
            pair.client().close();
            echo.join(TimeUnit.SECONDS.toMillis(10));
            pair.close();
        }
    }
}

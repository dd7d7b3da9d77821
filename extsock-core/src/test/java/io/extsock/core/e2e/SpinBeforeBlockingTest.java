package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.core.engine.AssumedSpareCpu;
import io.extsock.internal.IwarpOptionValues;
import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.IwarpStatistics;
import io.extsock.verbs.MessageType;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A thread that waits on an IWARP_MODE socket first polls it a while (on a machine with more
 * than one CPU, while one is spare), and blocks if nothing comes: the connection's statistics
 * count the waits that spun and those whose spin found input. A connection's SPIN_MICROS of 0
 * turns that off for it alone, before the switch or on the live connection.
 */
@Timeout(60)
class SpinBeforeBlockingTest {

    /**
     * Whether a spin happens at all also depends on a CPU being free (SpareCpu, tested on its
     * own): these tests are of the policy, so one always is.
     */
    private AssumedSpareCpu spareCpu;

    @BeforeEach
    void assumeACpuToSpare() {
        spareCpu = AssumedSpareCpu.assume();
    }

    @AfterEach
    void countAgain() {
        spareCpu.close();
    }

    /** As the engine decides: more than one CPU, and spinning not turned off by default. */
    private static final boolean SPINS = Runtime.getRuntime().availableProcessors() > 1
            && IwarpOptionValues.defaultValue(IwarpOptions.SPIN_MICROS) > 0;

    @Test
    void aReadThatTimesOutSpunAndFoundNothing() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            echoOnce(pair);
            awaitEverySendArrived(pair);  // whatever the peer sends after the echo (credits) has come
            IwarpStatistics before = pair.client().iwarp().statistics();
            pair.client().setSoTimeout(50);
            // A few tries: a wait spins only when its turn among the JVM's spinners comes.
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            IwarpStatistics after;
            int reads = 0;
            do {
                assertThrows(SocketTimeoutException.class, () -> pair.client().getInputStream().read());
                reads++;
                after = pair.client().iwarp().statistics();
            } while (SPINS && after.spins() == before.spins() && System.nanoTime() - until < 0);

            long spins = after.spins() - before.spins();
            if (SPINS) {
                assertTrue(spins >= 1, "a wait spun first, in " + reads + " reads: " + after);
            } else {
                assertEquals(0, spins, "one CPU: no spin");
            }
            assertEquals(0, after.spinsFound() - before.spinsFound(), "nothing came: " + after);
        }
    }

    @Test
    void aPingPongsWaitsFindTheRepliesWhileSpinning() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            CompletableFuture<Void> echo = CompletableFuture.runAsync(() -> echoUntilClosed(pair));
            // Until a spin found the reply.
            int roundTrips = pingPong(pair.client(), () -> pair.client().iwarp().statistics().spinsFound() > 0);
            IwarpStatistics client = pair.client().iwarp().statistics();
            if (SPINS) {
                assertTrue(client.spinsFound() > 0 && client.spinsFound() <= client.spins(),
                        "in " + roundTrips + " round trips: " + client);
            } else {
                assertEquals(0, client.spins(), "one CPU: no spin");
            }
            pair.close();
            echo.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aConnectionWhoseSpinIsZeroNeverSpinsWhileItsPeerDoes() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open(Map.of(IwarpOptions.SPIN_MICROS, 0), Map.of())) {
            CompletableFuture<Void> echo = CompletableFuture.runAsync(() -> echoUntilClosed(pair));
            // Until the echoing end's waits spun.
            int roundTrips = pingPong(pair.client(), () -> pair.accepted().iwarp().statistics().spins() > 0);
            IwarpStatistics client = pair.client().iwarp().statistics();
            IwarpStatistics accepted = pair.accepted().iwarp().statistics();
            assertEquals(0, client.spins(), "SPIN_MICROS 0, in " + roundTrips + " round trips: " + client);
            if (SPINS) {
                assertTrue(accepted.spins() > 0, "the default, in " + roundTrips + " round trips: " + accepted);
            }
            pair.close();
            echo.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void spinMicrosChangesOnALiveConnection() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open(Map.of(IwarpOptions.SPIN_MICROS, 0), Map.of())) {
            CompletableFuture<Void> echo = CompletableFuture.runAsync(() -> echoUntilClosed(pair));
            pingPong(pair.client(), () -> true);
            assertEquals(0, pair.client().iwarp().statistics().spins(), "off from the start");

            pair.client().setOption(IwarpOptions.SPIN_MICROS, 50);
            assertEquals(50, pair.client().getOption(IwarpOptions.SPIN_MICROS));
            // On, live: until a wait spun.
            int roundTrips = pingPong(pair.client(), () -> pair.client().iwarp().statistics().spins() > 0);
            IwarpStatistics on = pair.client().iwarp().statistics();
            if (SPINS) {
                assertTrue(on.spins() > 0, "in " + roundTrips + " round trips after it was set: " + on);
            } else {
                assertEquals(0, on.spins(), "one CPU: no spin");
            }

            pair.client().setOption(IwarpOptions.SPIN_MICROS, 0);  // this thread's next wait on is off
            long spinsBefore = pair.client().iwarp().statistics().spins();
            pingPong(pair.client(), () -> true);
            assertEquals(spinsBefore, pair.client().iwarp().statistics().spins(), "off again, live");

            IllegalArgumentException outOfRange = assertThrows(IllegalArgumentException.class,
                    () -> pair.client().setOption(IwarpOptions.SPIN_MICROS, -1));
            assertTrue(outOfRange.getMessage().contains("IWARP_SPIN_MICROS"), outOfRange.getMessage());
            assertEquals(0, pair.client().getOption(IwarpOptions.SPIN_MICROS));
            assertThrows(java.net.SocketException.class, () -> pair.client().setOption(IwarpOptions.IRD, 8),
                    "the negotiated options still cannot change");
            pair.close();
            echo.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aServerSocketsSpinMicrosReachesTheConnectionsItAcceptsOnFirstUse() throws Exception {
        assertTheAcceptedNeverSpin(false);
    }

    @Test
    void aServerSocketsSpinMicrosReachesTheConnectionsItNegotiatesBeforeAccept() throws Exception {
        assertTheAcceptedNeverSpin(true);
    }

    /** A server socket with SPIN_MICROS 0: its accepted end never spins while its client (the default) does. */
    private static void assertTheAcceptedNeverSpin(boolean negotiateBeforeAccept) throws Exception {
        try (ExtendedServerSocket server = new ExtendedServerSocket()) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            server.setOption(IwarpOptions.NEGOTIATE_BEFORE_ACCEPT, negotiateBeforeAccept);
            server.setOption(IwarpOptions.SPIN_MICROS, 0);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            CompletableFuture<ExtendedSocket> accepted = new CompletableFuture<>();
            Thread echo = new Thread(() -> {
                try (ExtendedSocket socket = server.accept()) {
                    accepted.complete(socket);
                    echoUntilClosed(socket);  // on first use, its first read switches it
                } catch (java.io.IOException | RuntimeException e) {
                    accepted.completeExceptionally(e);
                }
            }, "spin-test-echo");
            echo.start();
            try (ExtendedSocket client = new ExtendedSocket()) {
                client.setOption(IwarpOptions.IWARP_MODE, true);
                client.connect(server.getLocalSocketAddress(), 10_000);
                // Until the client's waits spun.
                int roundTrips = pingPong(client, () -> client.iwarp().statistics().spins() > 0);
                ExtendedSocket serverEnd = accepted.get(10, TimeUnit.SECONDS);
                assertEquals(0, serverEnd.getOption(IwarpOptions.SPIN_MICROS));
                IwarpStatistics acceptedStatistics = serverEnd.iwarp().statistics();
                assertEquals(0, acceptedStatistics.spins(), "the server socket's 0, in " + roundTrips
                        + " round trips: " + acceptedStatistics);
                if (SPINS) {
                    assertTrue(client.iwarp().statistics().spins() > 0, "the client's default, in " + roundTrips
                            + " round trips: " + client.iwarp().statistics());
                }
            }
            echo.join(10_000);
        }
    }

    /** What a ping-pong waits for, read from the connections' statistics. */
    private interface Condition {
        boolean holds() throws java.io.IOException;
    }

    /**
     * Round trips of 64 octets through an echoing peer, each answer checked: at least 1,000, and
     * where waits spin, more until {@code enough} says so (at once, unless this machine is
     * swamped: a wait spins only while a CPU is spare) or 10 s have passed.
     *
     * @return the round trips made
     */
    private static int pingPong(java.net.Socket socket, Condition enough) throws java.io.IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        OutputStream out = socket.getOutputStream();
        byte[] sent = new byte[64];
        byte[] received = new byte[64];
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int roundTrips = 0;
        while (roundTrips < 1_000 || SPINS && !enough.holds() && System.nanoTime() < until) {
            sent[roundTrips % 64] = (byte) roundTrips;
            out.write(sent);
            in.readFully(received);
            assertArrayEquals(sent, received, "round trip " + roundTrips);
            roundTrips++;
        }
        return roundTrips;
    }

    /** The accepted end answers every 64-octet message with itself, until the test ends the connection. */
    private static void echoUntilClosed(IwarpSocketPair pair) {
        echoUntilClosed(pair.accepted());
    }

    /** The socket answers every 64-octet message with itself, until the peer ends the connection. */
    private static void echoUntilClosed(java.net.Socket socket) {
        try {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            byte[] message = new byte[64];
            while (true) {
                in.readFully(message);
                out.write(message);
            }
        } catch (java.io.IOException closed) {
            // the test ended the connection
        }
    }

    private static void echoOnce(IwarpSocketPair pair) throws Exception {
        pair.client().getOutputStream().write(1);
        assertEquals(1, pair.accepted().getInputStream().read());
        pair.accepted().getOutputStream().write(2);
        assertEquals(2, pair.client().getInputStream().read());
    }
    /** Waits until every Send of the accepted end has arrived at the client. */
    private static void awaitEverySendArrived(IwarpSocketPair pair) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (pair.accepted().iwarp().statistics().messagesSent(MessageType.SEND)
                != pair.client().iwarp().statistics().messagesReceived(MessageType.SEND)) {
            assertTrue(System.nanoTime() < deadline, "Sends still in flight after 20 s");
            Thread.sleep(1);  // a polling interval
        }
    }
}

package io.extsock.testkit.fault;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The relay itself, between two plain sockets: it does exactly what its plan says and nothing else. */
@Timeout(60)
class FaultRelayTest {

    @Test
    void relaysEveryOctetUntouchedThroughAnySegmentation() throws Exception {
        byte[] data = random(300_000, 1);
        byte[] received = sendThrough(FaultPlan.none().segments(1, 700, 9), data);
        assertArrayEquals(data, received);
    }

    @Test
    void flipsExactlyTheOctetAtAnOffset() throws Exception {
        byte[] data = random(100_000, 2);
        try (Harness harness = new Harness(FaultPlan.none().corruptAt(70_000, 0x10))) {
            byte[] received = harness.send(data);
            assertEquals(List.of(70_000L), harness.relay.upstream().corruptedOffsets());
            assertEquals((byte) (data[70_000] ^ 0x10), received[70_000]);
            received[70_000] = data[70_000];
            assertArrayEquals(data, received, "nothing else changed");
        }
    }

    @Test
    void flipsTheOctetBeforeThePatternWhenBothCameInOneRead() throws Exception {
        byte[] pattern = "PAYLOAD-MARK".getBytes(StandardCharsets.US_ASCII);
        byte[] data = new byte[4000];
        System.arraycopy(pattern, 0, data, 1000, pattern.length);
        System.arraycopy(pattern, 0, data, 3000, pattern.length);
        try (Harness harness = new Harness(FaultPlan.none().corruptNear(pattern, 2, -5, 0x01))) {
            byte[] received = harness.send(data);
            assertEquals(List.of(2995L), harness.relay.upstream().corruptedOffsets());
            assertEquals(1, received[2995]);
        }
    }

    @Test
    void findsAPatternThatStraddlesTwoReads() throws Exception {
        byte[] pattern = "SPLIT-ACROSS".getBytes(StandardCharsets.US_ASCII);
        byte[] data = new byte[200];
        System.arraycopy(pattern, 0, data, 94, pattern.length);
        // Segments of 100 upstream of a relay whose plan cuts again: the pattern arrives in two reads.
        try (Harness harness = new Harness(FaultPlan.none().corruptNear(pattern, 1, 20, 0x02))) {
            harness.client.getOutputStream().write(data, 0, 100);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (harness.relay.upstream().relayedOctets() < 100) {  // the first read is done and passed on
                assertTrue(System.nanoTime() < deadline, "the relay never passed the first 100 octets on");
                Thread.sleep(1);  // a polling interval
            }
            harness.client.getOutputStream().write(data, 100, 100);
            harness.client.shutdownOutput();
            byte[] received = harness.readAll();
            assertEquals(List.of(114L), harness.relay.upstream().corruptedOffsets());
            assertEquals(2, received[114]);
        }
    }

    @Test
    void halfClosesAfterTheNamedOctet() throws Exception {
        byte[] data = random(50_000, 3);
        try (Harness harness = new Harness(FaultPlan.none().segments(1000, 5000, 4).halfCloseAt(12_345))) {
            byte[] received = harness.send(data);
            assertEquals(12_345, received.length);
            assertArrayEquals(java.util.Arrays.copyOf(data, 12_345), received);
            assertTrue(harness.relay.upstream().ending().contains("half-closed at 12345"));
        }
    }

    @Test
    void resetsBothPeers() throws Exception {
        byte[] data = random(50_000, 5);
        try (Harness harness = new Harness(FaultPlan.none().resetAt(20_000))) {
            harness.client.getOutputStream().write(data);
            InputStream serverIn = harness.server().getInputStream();
            byte[] first = serverIn.readNBytes(20_000);
            assertArrayEquals(java.util.Arrays.copyOf(data, 20_000), first);
            assertThrows(SocketException.class, () -> serverIn.read(), "the server sees the reset");
            assertThrows(SocketException.class, () -> harness.client.getInputStream().read(), "so does the client");
        }
    }

    @Test
    void delaysEachSegment() throws Exception {
        long started = System.nanoTime();
        byte[] received = sendThrough(FaultPlan.none().segments(10, 10, 1).delayEachSegment(Duration.ofMillis(20)),
                new byte[50]);
        assertEquals(50, received.length);
        assertTrue(System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(100), "five segments, 20 ms each");
    }

    @Test
    void refusesPlansThatCannotWork() {
        assertThrows(IllegalArgumentException.class, () -> FaultPlan.none().corruptAt(5, 0));
        assertThrows(IllegalArgumentException.class, () -> FaultPlan.none().segments(0, 5, 1));
        assertThrows(IllegalArgumentException.class, () -> FaultPlan.none().corruptNear(new byte[0], 1, 0, 1));
    }

    private static byte[] sendThrough(FaultPlan plan, byte[] data) throws Exception {
        try (Harness harness = new Harness(plan)) {
            return harness.send(data);
        }
    }

    private static byte[] random(int size, long seed) {
        byte[] data = new byte[size];
        new SplittableRandom(seed).nextBytes(data);
        return data;
    }

    /** A server, a relay in front of it with the plan upstream, and a client through the relay. */
    private static final class Harness implements AutoCloseable {
        final ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        final FaultRelay relay;
        final Socket client = new Socket();
        final CompletableFuture<Socket> accepted;

        Harness(FaultPlan upstream) throws IOException {
            relay = FaultRelay.start(new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort()),
                    upstream, FaultPlan.none());
            accepted = CompletableFuture.supplyAsync(() -> {
                try {
                    return listener.accept();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            client.connect(relay.address());
            relay.awaitConnected(10, TimeUnit.SECONDS);
        }

        Socket server() throws Exception {
            return accepted.get(10, TimeUnit.SECONDS);
        }

        byte[] send(byte[] data) throws Exception {
            CompletableFuture<byte[]> reading = CompletableFuture.supplyAsync(() -> {
                try {
                    return readAll();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            client.getOutputStream().write(data);
            client.shutdownOutput();
            return reading.get(30, TimeUnit.SECONDS);
        }

        byte[] readAll() throws Exception {
            return server().getInputStream().readAllBytes();
        }

        @Override
        public void close() throws IOException {
            client.close();
            relay.close();
            listener.close();
        }
    }
}

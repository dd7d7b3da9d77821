package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpNegotiationException.Reason;
import io.extsock.IwarpOptions;
import io.extsock.core.events.IwarpFallbackEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * IwarpOptions.FALLBACK: an IWARP_MODE socket whose peer is plain TCP goes on as plain TCP, the
 * same socket object, with no octet of either application lost or duplicated, IWARP_MODE reading
 * false afterwards and the cause kept. The peers here are java.net sockets on loopback. Where a
 * peer must stay silent, FALLBACK_WAIT is short (300 ms) to keep the suite fast; no test times
 * anything, and the 10 s read timeouts only guard against a hang.
 */
@Timeout(60)
class IwarpFallbackTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final int NO_HANG_MILLIS = 10_000;
    private static final int SHORT_WAIT_MILLIS = 300;
    private static final byte[] GREETING = ascii("220 plain server ready\r\n");

    @TempDir
    Path temp;

    // ---- the side that connects ------------------------------------------------------------

    @Test
    void anInitiatorReconnectsPlainToAServerThatSpeaksFirstAndGetsItsGreetingOnTheNewConnection() throws Exception {
        try (ServerSocketChannel server = plainServer()) {
            // Each connection: greet, answer one line, then record everything the client sent.
            CompletableFuture<List<byte[]>> received = CompletableFuture.supplyAsync(() -> serveGreetingThenRecord(
                    server, 2));
            try (ExtendedSocket client = fallbackClient()) {
                client.connect(server.getLocalAddress());
                InputStream in = client.getInputStream();
                assertArrayEquals(GREETING, in.readNBytes(GREETING.length), "the greeting of the new connection");
                client.getOutputStream().write(ascii("HELO me\n"));
                assertArrayEquals(ascii("250 HELO me\n"), in.readNBytes(12));
                assertFalse(client.getOption(IwarpOptions.IWARP_MODE));
                assertEquals(Reason.NOT_AN_IWARP_PEER, client.iwarpFallbackCause().orElseThrow().reason());
                assertTrue(client.iwarpFallbackCause().get().getMessage().contains("220 plain"),
                        client.iwarpFallbackCause().get().getMessage());
                assertThrows(SocketException.class, client::iwarp);
            }
            List<byte[]> connections = received.get(20, TimeUnit.SECONDS);
            assertEquals(2, connections.size());
            assertTrue(ascii(connections.get(0)).startsWith("MPA ID Req Frame"), "the first carried the MPA Request");
            assertEquals("HELO me\n", ascii(connections.get(1)), "the second carried exactly the application's bytes");
            assertNull(server.accept(), "no third connection");
        }
    }

    @Test
    void theReconnectKeepsTheBoundLocalAddressAndTheOptionsTheApplicationSet() throws Exception {
        InetAddress otherLoopback = InetAddress.getByName("127.0.0.2");  // Linux routes all of 127/8 to lo
        try (ServerSocketChannel server = plainServer()) {
            CompletableFuture<List<InetSocketAddress>> clients = CompletableFuture.supplyAsync(() -> {
                List<InetSocketAddress> remotes = new java.util.ArrayList<>();
                forEachConnection(server, 2, socket -> {
                    remotes.add((InetSocketAddress) socket.getRemoteSocketAddress());
                    socket.getOutputStream().write(GREETING);
                    try {
                        return socket.getInputStream().readAllBytes();
                    } catch (SocketException reset) {
                        return new byte[0];
                    }
                });
                return remotes;
            });
            try (ExtendedSocket client = fallbackClient()) {
                client.setKeepAlive(true);
                client.setTcpNoDelay(false);  // the engine turned it on for the negotiation
                client.bind(new InetSocketAddress(otherLoopback, 0));
                int firstPort = client.getLocalPort();
                client.connect(server.getLocalAddress());
                assertArrayEquals(GREETING, client.getInputStream().readNBytes(GREETING.length));
                assertEquals(otherLoopback, client.getLocalAddress());
                assertTrue(client.getKeepAlive(), "SO_KEEPALIVE as set before connect");
                assertFalse(client.getTcpNoDelay());
                assertTrue(client.getLocalPort() != firstPort, "a fresh ephemeral port");
                client.shutdownOutput();
                List<InetSocketAddress> remotes = clients.get(20, TimeUnit.SECONDS);
                assertEquals(otherLoopback, remotes.get(0).getAddress());
                assertEquals(firstPort, remotes.get(0).getPort());
                assertEquals(new InetSocketAddress(otherLoopback, client.getLocalPort()), remotes.get(1));
            }
        }
    }

    @Test
    void anInitiatorReconnectsPlainToAnEchoServer() throws Exception {
        try (ServerSocketChannel server = plainServer()) {
            CompletableFuture<List<byte[]>> echoed = CompletableFuture.supplyAsync(() -> echo(server, 2));
            byte[] message = ascii("ping over plain TCP");
            try (ExtendedSocket client = fallbackClient()) {
                client.connect(server.getLocalAddress());
                client.getOutputStream().write(message);
                assertArrayEquals(message, client.getInputStream().readNBytes(message.length));
                assertFalse(client.getOption(IwarpOptions.IWARP_MODE));
                // It echoed our MPA Request: an MPA Request where a Reply belongs is no iWARP peer.
                IwarpNegotiationException cause = client.iwarpFallbackCause().orElseThrow();
                assertEquals(Reason.NOT_AN_IWARP_PEER, cause.reason());
                assertTrue(cause.getMessage().contains("it echoes"), cause.getMessage());
            }
            List<byte[]> connections = echoed.get(20, TimeUnit.SECONDS);
            assertEquals("ping over plain TCP", ascii(connections.get(1)));
        }
    }

    @Test
    void anInitiatorWaitsForASilentServerThenReconnectsPlain() throws Exception {
        try (ServerSocketChannel server = plainServer()) {
            // A request-response server: silent until the client's command, which the MPA Request is not.
            CompletableFuture<List<byte[]>> received = CompletableFuture.supplyAsync(
                    () -> answerPingAndRecord(server, 2));
            try (ExtendedSocket client = fallbackClient()) {
                client.setOption(IwarpOptions.FALLBACK_WAIT, SHORT_WAIT_MILLIS);
                client.connect(server.getLocalAddress());
                client.getOutputStream().write(ascii("PING\n"));
                assertArrayEquals(ascii("PONG\n"), client.getInputStream().readNBytes(5));
                assertFalse(client.getOption(IwarpOptions.IWARP_MODE));
                IwarpNegotiationException cause = client.iwarpFallbackCause().orElseThrow();
                assertEquals(Reason.TIMEOUT, cause.reason());
                assertTrue(cause.getMessage().contains("FALLBACK_WAIT"), cause.getMessage());
            }
            List<byte[]> connections = received.get(20, TimeUnit.SECONDS);
            assertEquals(2, connections.size());
            assertEquals("PING\n", ascii(connections.get(1)));
        }
    }

    @Test
    void anInitiatorReconnectsPlainToAServerThatClosesAtOnce() throws Exception {
        try (ServerSocketChannel server = plainServer()) {
            CompletableFuture<Integer> accepted = CompletableFuture.supplyAsync(() -> {
                try {
                    for (int i = 0; i < 2; i++) {
                        server.configureBlocking(true);
                        server.accept().close();
                    }
                    return 2;
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            try (ExtendedSocket client = fallbackClient()) {
                client.connect(server.getLocalAddress());
                client.setSoTimeout(NO_HANG_MILLIS);
                assertEquals(-1, client.getInputStream().read(), "the plain connection's end, as the server closed it");
                assertEquals(Reason.CONNECTION_CLOSED, client.iwarpFallbackCause().orElseThrow().reason());
                assertFalse(client.getOption(IwarpOptions.IWARP_MODE));
            }
            assertEquals(2, accepted.get(20, TimeUnit.SECONDS));
        }
    }

    @Test
    void anInitiatorWhoseReconnectIsRefusedGetsTheConnectErrorAndIsClosed() throws Exception {
        ServerSocket server = new ServerSocket(0, 50, LOOPBACK);
        CompletableFuture<Void> once = CompletableFuture.runAsync(() -> {
            try (Socket first = server.accept()) {
                server.close();  // before the first closes: the reconnect finds no listener
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        try (ExtendedSocket client = fallbackClient()) {
            ConnectException refused = assertThrows(ConnectException.class,
                    () -> client.connect(server.getLocalSocketAddress()));
            assertTrue(client.isClosed());
            assertTrue(Arrays.stream(refused.getSuppressed()).anyMatch(s -> s instanceof IwarpNegotiationException
                    && ((IwarpNegotiationException) s).reason() == Reason.CONNECTION_CLOSED),
                    "the negotiation's end is kept: " + Arrays.toString(refused.getSuppressed()));
        } finally {
            server.close();
        }
        once.get(20, TimeUnit.SECONDS);
    }

    @Test
    void anUnreachablePeerIsAPlainConnectError() throws Exception {
        InetSocketAddress nobody;
        try (ServerSocket gone = new ServerSocket(0, 50, LOOPBACK)) {
            nobody = (InetSocketAddress) gone.getLocalSocketAddress();
        }
        try (ExtendedSocket client = fallbackClient()) {
            assertThrows(ConnectException.class, () -> client.connect(nobody));
            assertTrue(client.iwarpFallbackCause().isEmpty(), "no negotiation took place");
        }
    }

    @Test
    void anMpaPeerThatRejectsIsAnIwarpPeerAndTheSwitchFails() throws Exception {
        try (ServerSocketChannel server = plainServer()) {
            // An MPA responder that rejects every Request (RFC 5044 section 7.1: the R bit).
            CompletableFuture<List<byte[]>> received = CompletableFuture.supplyAsync(() -> forEachConnection(server,
                    1, socket -> {
                        java.io.DataInputStream in = new java.io.DataInputStream(socket.getInputStream());
                        byte[] header = new byte[20];
                        in.readFully(header);
                        in.readFully(new byte[((header[18] & 0xff) << 8) | (header[19] & 0xff)]);
                        socket.getOutputStream().write(ascii("MPA ID Rep Frame"));
                        socket.getOutputStream().write(new byte[] {0x20, 1, 0, 0});
                        try {
                            return in.readAllBytes();
                        } catch (SocketException reset) {
                            return new byte[0];
                        }
                    }));
            try (ExtendedSocket client = fallbackClient()) {
                IwarpNegotiationException failure = assertThrows(IwarpNegotiationException.class,
                        () -> client.connect(server.getLocalAddress()));
                assertEquals(Reason.REJECTED, failure.reason());
                assertTrue(client.isClosed());
                assertTrue(client.iwarpFallbackCause().isEmpty());
            }
            assertEquals(1, received.get(20, TimeUnit.SECONDS).size());
            assertNull(server.accept(), "no plain reconnect");
        }
    }

    @Test
    void withoutFallbackAnInitiatorFailsAsBefore() throws Exception {
        try (ServerSocketChannel server = plainServer()) {
            CompletableFuture<List<byte[]>> received = CompletableFuture.supplyAsync(() -> serveGreetingThenRecord(
                    server, 1));
            try (ExtendedSocket client = new ExtendedSocket()) {
                client.setOption(IwarpOptions.IWARP_MODE, true);
                IwarpNegotiationException failure = assertThrows(IwarpNegotiationException.class,
                        () -> client.connect(server.getLocalAddress()));
                assertEquals(Reason.NOT_AN_IWARP_PEER, failure.reason());
                assertTrue(client.isClosed());
                assertTrue(client.iwarpFallbackCause().isEmpty());
            }
            assertEquals(1, received.get(20, TimeUnit.SECONDS).size());
            assertNull(server.accept(), "no second connection");
        }
    }

    @Test
    void aSwitchOfAConnectedSocketCannotFallBack() throws Exception {
        try (ServerSocketChannel server = plainServer()) {
            CompletableFuture<List<byte[]>> received = CompletableFuture.supplyAsync(() -> serveGreetingThenRecord(
                    server, 1));
            try (ExtendedSocket client = new ExtendedSocket()) {
                client.connect(server.getLocalAddress());
                client.setOption(IwarpOptions.FALLBACK, true);
                client.setOption(IwarpOptions.MPA_TIMEOUT, SHORT_WAIT_MILLIS);
                // The greeting may be stream written before the peer's switch: no MPA frame follows it.
                IwarpNegotiationException failure = assertThrows(IwarpNegotiationException.class,
                        () -> client.setOption(IwarpOptions.IWARP_MODE, true));
                assertEquals(Reason.TIMEOUT, failure.reason());
                assertTrue(client.isClosed());
                assertTrue(client.iwarpFallbackCause().isEmpty());
            }
            assertEquals(1, received.get(20, TimeUnit.SECONDS).size());
            assertNull(server.accept(), "no reconnect");
        }
    }

    @Test
    void theOptionsHaveTheirDefaultsAndRefuseAWaitOfZero() throws Exception {
        try (ExtendedSocket client = new ExtendedSocket(); ExtendedServerSocket server = new ExtendedServerSocket()) {
            assertFalse(client.getOption(IwarpOptions.FALLBACK));
            assertEquals(1_000, client.getOption(IwarpOptions.FALLBACK_WAIT));
            assertTrue(IwarpOptions.ALL.contains(IwarpOptions.FALLBACK));
            assertTrue(IwarpOptions.ALL.contains(IwarpOptions.FALLBACK_WAIT));
            IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                    () -> client.setOption(IwarpOptions.FALLBACK_WAIT, 0));
            assertTrue(zero.getMessage().contains("IWARP_FALLBACK_WAIT"), zero.getMessage());
            assertThrows(IllegalArgumentException.class, () -> server.setOption(IwarpOptions.FALLBACK_WAIT, -1));
            server.setOption(IwarpOptions.FALLBACK, true);
            assertTrue(server.getOption(IwarpOptions.FALLBACK));
        }
    }

    // ---- the side that accepts -------------------------------------------------------------

    @Test
    void aResponderServesAPlainClientThatSpeaksFirstWithItsBytesInOrder() throws Exception {
        try (ExtendedServerSocket server = fallbackServer(); Socket plain = new Socket(LOOPBACK, server.getLocalPort())) {
            plain.setSoTimeout(NO_HANG_MILLIS);
            plain.getOutputStream().write(ascii("GET / HTTP/1.0\r\n\r\n"));
            try (ExtendedSocket accepted = server.accept()) {
                accepted.setSoTimeout(NO_HANG_MILLIS);
                assertArrayEquals(ascii("GET / HTTP/1.0\r\n\r\n"), accepted.getInputStream().readNBytes(18));
                accepted.getOutputStream().write(ascii("HTTP/1.0 200 OK\r\n\r\n"));
                accepted.shutdownOutput();
                assertFalse(accepted.getOption(IwarpOptions.IWARP_MODE));
                assertEquals(Reason.NOT_AN_IWARP_PEER, accepted.iwarpFallbackCause().orElseThrow().reason());
                assertEquals("HTTP/1.0 200 OK\r\n\r\n", ascii(plain.getInputStream().readAllBytes()));
                plain.shutdownOutput();
                assertEquals(-1, accepted.getInputStream().read(), "nothing more than the client sent");
            }
        }
    }

    @Test
    void aResponderWaitsForASilentClientThenSendsItsGreetingPlain() throws Exception {
        try (ExtendedServerSocket server = fallbackServer()) {
            server.setOption(IwarpOptions.FALLBACK_WAIT, SHORT_WAIT_MILLIS);
            try (Socket plain = new Socket(LOOPBACK, server.getLocalPort()); ExtendedSocket accepted = server.accept()) {
                plain.setSoTimeout(NO_HANG_MILLIS);
                accepted.setSoTimeout(NO_HANG_MILLIS);
                assertTrue(accepted.getOption(IwarpOptions.IWARP_MODE), "undecided before its first use");
                accepted.getOutputStream().write(GREETING);  // waits for the client's key, then goes plain
                assertArrayEquals(GREETING, plain.getInputStream().readNBytes(GREETING.length));
                plain.getOutputStream().write(ascii("QUIT\r\n"));
                assertArrayEquals(ascii("QUIT\r\n"), accepted.getInputStream().readNBytes(6));
                assertFalse(accepted.getOption(IwarpOptions.IWARP_MODE));
                IwarpNegotiationException cause = accepted.iwarpFallbackCause().orElseThrow();
                assertEquals(Reason.TIMEOUT, cause.reason());
                assertTrue(cause.getMessage().contains("it sent nothing"), cause.getMessage());
            }
        }
    }

    @Test
    void aResponderGetsAMegabyteFirstWriteByteForByte() throws Exception {
        byte[] data = new byte[1 << 20];
        new Random(14).nextBytes(data);
        // It starts as an MPA key would and then does not: the switch reads some of it before it knows.
        byte[] almostKey = ascii("MPA ID Re");
        System.arraycopy(almostKey, 0, data, 0, almostKey.length);
        data[almostKey.length] = 'x';
        try (ExtendedServerSocket server = fallbackServer(); Socket plain = new Socket(LOOPBACK, server.getLocalPort())) {
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    plain.getOutputStream().write(data);
                    plain.shutdownOutput();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            try (ExtendedSocket accepted = server.accept()) {
                accepted.setSoTimeout(NO_HANG_MILLIS);
                byte[] read = accepted.getInputStream().readAllBytes();
                assertEquals(data.length, read.length);
                assertArrayEquals(data, read);
                assertEquals(Reason.NOT_AN_IWARP_PEER, accepted.iwarpFallbackCause().orElseThrow().reason());
            }
            writer.get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void aResponderRecordsTheFallback() throws Exception {
        List<RecordedEvent> events;
        try (Recording recording = EventRecording.start(IwarpFallbackEvent.class);
             ExtendedServerSocket server = fallbackServer()) {
            try (Socket plain = new Socket(LOOPBACK, server.getLocalPort()); ExtendedSocket accepted = server.accept()) {
                plain.getOutputStream().write(ascii("hello"));
                accepted.setSoTimeout(NO_HANG_MILLIS);
                assertArrayEquals(ascii("hello"), accepted.getInputStream().readNBytes(5));
            }
            events = EventRecording.named(EventRecording.stop(recording, temp), "io.extsock.IwarpFallback");
        }
        assertEquals(1, events.size(), events.toString());
        assertEquals("responder", events.get(0).getString("role"));
        assertEquals("NOT_AN_IWARP_PEER", events.get(0).getString("reason"));
        assertTrue(events.get(0).getInt("octetsReceived") > 0);
    }

    // ---- both ends -------------------------------------------------------------------------

    @Test
    void twoFallbackEndsStillRunIwarp() throws Exception {
        try (ExtendedServerSocket server = fallbackServer()) {
            CompletableFuture<Boolean> served = CompletableFuture.supplyAsync(() -> {
                try (ExtendedSocket accepted = server.accept()) {
                    byte[] line = accepted.getInputStream().readNBytes(5);
                    accepted.getOutputStream().write(line);
                    accepted.iwarp();
                    return accepted.getOption(IwarpOptions.IWARP_MODE) && accepted.iwarpFallbackCause().isEmpty();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            try (ExtendedSocket client = fallbackClient()) {
                client.connect(new InetSocketAddress(LOOPBACK, server.getLocalPort()));
                assertTrue(client.getOption(IwarpOptions.IWARP_MODE));
                assertTrue(client.iwarp().settings().initiator());
                client.getOutputStream().write(ascii("iwarp"));
                assertArrayEquals(ascii("iwarp"), client.getInputStream().readNBytes(5));
                assertTrue(client.iwarpFallbackCause().isEmpty());
            }
            assertTrue(served.get(20, TimeUnit.SECONDS), "the accepted end ran iWARP too");
        }
    }

    // ---- helpers ---------------------------------------------------------------------------

    private static ExtendedSocket fallbackClient() throws IOException {
        ExtendedSocket client = new ExtendedSocket();
        client.setOption(IwarpOptions.IWARP_MODE, true);
        client.setOption(IwarpOptions.FALLBACK, true);
        return client;
    }

    private static ExtendedServerSocket fallbackServer() throws IOException {
        ExtendedServerSocket server = new ExtendedServerSocket(0, 50, LOOPBACK);
        server.setOption(IwarpOptions.IWARP_MODE, true);
        server.setOption(IwarpOptions.FALLBACK, true);
        return server;
    }

    /** A plain server; blocking for its accept loop, non-blocking for the check that no more came. */
    private static ServerSocketChannel plainServer() throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(LOOPBACK, 0));
        server.configureBlocking(false);
        return server;
    }

    private static SocketChannel acceptBlocking(ServerSocketChannel server) throws IOException {
        synchronized (server.blockingLock()) {
            server.configureBlocking(true);
            SocketChannel accepted = server.accept();
            server.configureBlocking(false);
            return accepted;
        }
    }

    /** Greets each of {@code count} connections and answers its first line; returns what each sent. */
    private static List<byte[]> serveGreetingThenRecord(ServerSocketChannel server, int count) {
        return forEachConnection(server, count, socket -> {
            socket.getOutputStream().write(GREETING);
            ByteArrayOutputStream sent = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            try {
                for (int b; (b = in.read()) != -1; ) {
                    sent.write(b);
                    if (b == '\n') {
                        socket.getOutputStream().write(ascii("250 "));
                        socket.getOutputStream().write(sent.toByteArray());
                    }
                }
            } catch (SocketException reset) {
                // a client that closed with our greeting unread
            }
            return sent.toByteArray();
        });
    }

    /** Echoes what each of {@code count} connections sends; returns what each sent. */
    private static List<byte[]> echo(ServerSocketChannel server, int count) {
        return forEachConnection(server, count, socket -> {
            ByteArrayOutputStream sent = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = socket.getInputStream().read(buffer)) != -1; ) {
                    sent.write(buffer, 0, n);
                    socket.getOutputStream().write(buffer, 0, n);
                }
            } catch (SocketException reset) {
                // a client that closed with our echo unread
            }
            return sent.toByteArray();
        });
    }

    /** Answers "PING\n" with "PONG\n" and says nothing to anything else; returns what each sent. */
    private static List<byte[]> answerPingAndRecord(ServerSocketChannel server, int count) {
        return forEachConnection(server, count, socket -> {
            ByteArrayOutputStream sent = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = socket.getInputStream().read(buffer)) != -1; ) {
                    sent.write(buffer, 0, n);
                    if (ascii(sent.toByteArray()).endsWith("PING\n")) {
                        socket.getOutputStream().write(ascii("PONG\n"));
                    }
                }
            } catch (SocketException reset) {
                // a client that closed with our bytes unread
            }
            return sent.toByteArray();
        });
    }

    private interface Conversation {
        byte[] run(Socket socket) throws IOException;
    }

    /** Accepts {@code count} connections one after the other and holds each conversation to its end. */
    private static List<byte[]> forEachConnection(ServerSocketChannel server, int count, Conversation conversation) {
        try {
            List<byte[]> received = new java.util.ArrayList<>();
            for (int i = 0; i < count; i++) {
                try (SocketChannel channel = acceptBlocking(server)) {
                    Socket socket = channel.socket();
                    socket.setSoTimeout(NO_HANG_MILLIS);
                    received.add(conversation.run(socket));
                }
            }
            return received;
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static String ascii(byte[] octets) {
        return new String(octets, StandardCharsets.US_ASCII);
    }
}

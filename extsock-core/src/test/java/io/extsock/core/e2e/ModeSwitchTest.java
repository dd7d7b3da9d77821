package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpOptions.ReadyToReceive;
import io.extsock.IwarpOptions;
import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.IwarpSettings;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketOption;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The switch to IWARP_MODE: when it can happen, what it keeps, what the options change, and how
 * it fails (with a typed exception and the socket closed, never half switched).
 */
@Timeout(60)
class ModeSwitchTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @Test
    @DisplayName("IWARP_MODE set before connect, and on the server socket: both ends switch by themselves")
    void switchBeforeConnectAndOnTheServerSocket() throws Exception {
        try (ExtendedServerSocket server = new ExtendedServerSocket()) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            server.bind(new java.net.InetSocketAddress(LOOPBACK, 0));
            CompletableFuture<String> served = CompletableFuture.supplyAsync(() -> {
                try (Socket accepted = server.accept()) {
                    assertTrue(accepted.getOption(IwarpOptions.IWARP_MODE));
                    String line = new DataInputStream(accepted.getInputStream()).readUTF();
                    accepted.getOutputStream().write(("echo " + line).getBytes(StandardCharsets.UTF_8));
                    accepted.shutdownOutput();
                    return line;
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            try (ExtendedSocket client = new ExtendedSocket()) {
                client.setOption(IwarpOptions.IWARP_MODE, true);
                client.connect(server.getLocalSocketAddress());
                assertTrue(client.iwarp().settings().initiator());
                new java.io.DataOutputStream(client.getOutputStream()).writeUTF("ping");
                assertEquals("echo ping", new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
            assertEquals("ping", served.get(20, TimeUnit.SECONDS));
        }
    }

    @Test
    @DisplayName("Bytes written before the switch stay readable first, on both sides")
    void bytesBeforeTheSwitchStayReadableFirst() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.builder().connect()) {
            ExtendedSocket client = pair.client();
            ExtendedSocket accepted = pair.accepted();
            // Each side writes in plain TCP and switches at once, without reading first.
            client.getOutputStream().write("from the client, before".getBytes(StandardCharsets.US_ASCII));
            accepted.getOutputStream().write("from the server, before".getBytes(StandardCharsets.US_ASCII));
            pair.switchBoth();
            client.getOutputStream().write(" and after".getBytes(StandardCharsets.US_ASCII));
            client.shutdownOutput();
            accepted.getOutputStream().write(" and after".getBytes(StandardCharsets.US_ASCII));
            accepted.shutdownOutput();
            assertEquals("from the client, before and after", text(accepted.getInputStream()));
            assertEquals("from the server, before and after", text(client.getInputStream()));
        }
    }

    @Test
    @DisplayName("RFC 6581 peer-to-peer mode: a server that speaks first works")
    void serverSpeaksFirst() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            pair.accepted().getOutputStream().write("220 ready\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] greeting = new byte[11];
            new DataInputStream(pair.client().getInputStream()).readFully(greeting);
            assertEquals("220 ready\r\n", new String(greeting, StandardCharsets.US_ASCII));
        }
    }

    @ParameterizedTest
    @EnumSource(ReadyToReceive.class)
    @DisplayName("Every ready-to-receive kind (and none) gets both sides talking")
    void everyReadyToReceiveKind(ReadyToReceive kind) throws Exception {
        Map<SocketOption<?>, Object> options = Map.of(IwarpOptions.READY_TO_RECEIVE, kind);
        try (IwarpSocketPair pair = IwarpSocketPair.open(options, options)) {
            assertEchoWorks(pair);
        }
    }

    @Test
    @DisplayName("Options shape the negotiation: CRC, markers, revision, IRD/ORD, FPDU size, private data")
    void optionsShapeTheNegotiation() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open(Map.of(IwarpOptions.CRC, false),
                Map.of(IwarpOptions.CRC, false))) {
            assertFalse(pair.clientVerbs().settings().crc());
            assertEchoWorks(pair);
        }
        try (IwarpSocketPair pair = IwarpSocketPair.open(Map.of(IwarpOptions.CRC, true), Map.of(IwarpOptions.CRC, false))) {
            assertTrue(pair.serverVerbs().settings().crc(), "CRC is on when either side asks");
        }
        try (IwarpSocketPair pair = IwarpSocketPair.open(Map.of(IwarpOptions.MARKERS, true), Map.of())) {
            IwarpSettings client = pair.clientVerbs().settings();
            IwarpSettings server = pair.serverVerbs().settings();
            assertTrue(client.markersReceived() && !client.markersSent());
            assertTrue(server.markersSent() && !server.markersReceived());
            assertEchoWorks(pair);
        }
        try (IwarpSocketPair pair = IwarpSocketPair.open(Map.of(IwarpOptions.MPA_REVISION, 1), Map.of())) {
            assertEquals(1, pair.clientVerbs().settings().mpaRevision());
            assertEchoWorks(pair);
        }
        try (IwarpSocketPair pair = IwarpSocketPair.open(Map.of(IwarpOptions.IRD, 3, IwarpOptions.ORD, 5),
                Map.of(IwarpOptions.IRD, 4, IwarpOptions.ORD, 2))) {
            IwarpSettings client = pair.clientVerbs().settings();
            assertTrue(client.ord() <= 4, "the client may not read more at once than the server serves");
            assertTrue(pair.serverVerbs().settings().ord() <= 3);
        }
        try (IwarpSocketPair pair = IwarpSocketPair.open(Map.of(IwarpOptions.MAX_FPDU_SIZE, 200),
                Map.of(IwarpOptions.MAX_FPDU_SIZE, 9000))) {
            assertEquals(200, pair.clientVerbs().settings().maxFpduSize());
            assertEquals(9000, pair.serverVerbs().settings().maxFpduSize());
            assertEchoWorks(pair);
        }
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            // By default one TCP segment of the path: loopback's MTU less IPv4, TCP and timestamps.
            int mtu = java.net.NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress()).getMTU();
            assertEquals(Math.min(mtu - 52, 65_544) & ~3, pair.clientVerbs().settings().maxFpduSize());
            assertEchoWorks(pair);
        }
        byte[] hello = "hello, peer".getBytes(StandardCharsets.US_ASCII);
        try (IwarpSocketPair pair = IwarpSocketPair.open(Map.of(IwarpOptions.PRIVATE_DATA, hello), Map.of())) {
            assertArrayEquals(hello, pair.serverVerbs().peerPrivateData());
            assertArrayEquals(new byte[0], pair.clientVerbs().peerPrivateData());
        }
    }

    @Test
    void optionValuesAreChecked() throws Exception {
        try (ExtendedSocket socket = new ExtendedSocket()) {
            assertThrows(IllegalArgumentException.class, () -> socket.setOption(IwarpOptions.IRD, -1));
            assertThrows(IllegalArgumentException.class, () -> socket.setOption(IwarpOptions.MPA_REVISION, 3));
            assertThrows(IllegalArgumentException.class, () -> socket.setOption(IwarpOptions.MAX_FPDU_SIZE, 10));
            assertThrows(IllegalArgumentException.class, () -> socket.setOption(IwarpOptions.PRIVATE_DATA, new byte[300]));
            IllegalArgumentException tooSmall = assertThrows(IllegalArgumentException.class,
                    () -> socket.setOption(IwarpOptions.MAX_FPDU_SIZE, 63));
            assertTrue(tooSmall.getMessage().contains("one TCP segment of the path"), tooSmall.getMessage());
            assertEquals(0, socket.getOption(IwarpOptions.MAX_FPDU_SIZE), "0: sized from the path at the switch");
            assertEquals(ReadyToReceive.ZERO_LENGTH_WRITE, socket.getOption(IwarpOptions.READY_TO_RECEIVE));

            long property = Long.getLong("extsock.spin.micros", 50);
            assertEquals((int) Math.max(0, Math.min(property, 10_000)), socket.getOption(IwarpOptions.SPIN_MICROS),
                    "the JVM's property, within the option's range; else 50");
            IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                    () -> socket.setOption(IwarpOptions.SPIN_MICROS, -1));
            assertTrue(negative.getMessage().contains("IWARP_SPIN_MICROS must be in [0, 10000]"), negative.getMessage());
            assertThrows(IllegalArgumentException.class, () -> socket.setOption(IwarpOptions.SPIN_MICROS, 10_001));
            socket.setOption(IwarpOptions.SPIN_MICROS, 0);
            assertEquals(0, socket.getOption(IwarpOptions.SPIN_MICROS));
            socket.setOption(IwarpOptions.SPIN_MICROS, 10_000);
            assertEquals(10_000, socket.getOption(IwarpOptions.SPIN_MICROS));
        }
    }

    @Test
    @DisplayName("TCP_NODELAY reads as the application set it, before and after the switch")
    void tcpNoDelayIsTheApplications() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.builder().connect()) {
            ExtendedSocket client = pair.client();
            ExtendedSocket accepted = pair.accepted();
            client.setTcpNoDelay(false);
            accepted.setTcpNoDelay(true);
            pair.switchBoth();
            assertFalse(client.getTcpNoDelay());
            assertTrue(accepted.getTcpNoDelay());
            client.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
            assertTrue(client.getOption(java.net.StandardSocketOptions.TCP_NODELAY));
            accepted.setTcpNoDelay(false);
            assertFalse(accepted.getTcpNoDelay());
            assertEchoWorks(client, accepted);
        }
    }

    // ---- failures -----------------------------------------------------------------------

    @Test
    @DisplayName("A peer that echoes (not in IWARP_MODE) is named at once; the socket is closed")
    void echoingPeer() throws Exception {
        IwarpNegotiationException e = switchAgainstPlainPeer(socket -> {
            byte[] buffer = new byte[64];
            for (int n; (n = socket.getInputStream().read(buffer)) > 0; ) {
                socket.getOutputStream().write(buffer, 0, n);
            }
        }, 10_000);
        assertEquals(IwarpNegotiationException.Reason.NOT_AN_IWARP_PEER, e.reason());
        assertTrue(e.getMessage().contains("echoes"), e.getMessage());
    }

    @Test
    @DisplayName("A peer that answers with text and closes: the text is in the message")
    void peerAnsweringWithText() throws Exception {
        IwarpNegotiationException e = switchAgainstPlainPeer(socket -> {
            socket.getOutputStream().write("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            socket.close();
        }, 10_000);
        assertEquals(IwarpNegotiationException.Reason.NOT_AN_IWARP_PEER, e.reason());
        assertTrue(e.getMessage().contains("HTTP/1.1 400 Bad Request"), e.getMessage());
    }

    @Test
    @DisplayName("A silent peer: the MPA timeout")
    void silentPeer() throws Exception {
        IwarpNegotiationException e = switchAgainstPlainPeer(socket -> {
            socket.getInputStream().readAllBytes();  // says nothing, until the client gives up and closes
        }, 300);
        assertEquals(IwarpNegotiationException.Reason.TIMEOUT, e.reason());
        assertTrue(e.getMessage().contains("300 ms"), e.getMessage());
    }

    @Test
    @DisplayName("A peer that just closes")
    void peerThatCloses() throws Exception {
        IwarpNegotiationException e = switchAgainstPlainPeer(Socket::close, 10_000);
        assertEquals(IwarpNegotiationException.Reason.CONNECTION_CLOSED, e.reason());
    }

    @Test
    @DisplayName("A peer that read part of what we sent, then closed (a FIN, then a reset): CONNECTION_CLOSED")
    void peerThatClosedWithOurBytesUnread() throws Exception {
        try (ServerSocket plain = new ServerSocket(0, 1, LOOPBACK)) {
            ExtendedSocket client = new ExtendedSocket(LOOPBACK, plain.getLocalPort());
            try (Socket peer = plain.accept()) {
                client.getOutputStream().write(new byte[36]);
                assertEquals(20, peer.getInputStream().readNBytes(20).length);
            }  // 16 bytes left unread: the peer's TCP resets the connection after its FIN
            IwarpNegotiationException e = assertThrows(IwarpNegotiationException.class,
                    () -> client.setOption(IwarpOptions.IWARP_MODE, true));
            assertEquals(IwarpNegotiationException.Reason.CONNECTION_CLOSED, e.reason(), e.getMessage());
            assertTrue(client.isClosed(), "never half switched: the socket is closed");
        }
    }

    @Test
    @DisplayName("A peer that resets the connection (SO_LINGER 0) during negotiation: CONNECTION_CLOSED")
    void peerThatResets() throws Exception {
        IwarpNegotiationException e = switchAgainstPlainPeer(socket -> {
            socket.getInputStream().readNBytes(1);
            socket.setSoLinger(true, 0);
            socket.close();
        }, 10_000);
        assertEquals(IwarpNegotiationException.Reason.CONNECTION_CLOSED, e.reason(), e.getMessage());
    }

    @Test
    @DisplayName("An accepted socket's switch fails on its first use, not in accept()")
    void failedSwitchOfAnAcceptedSocket() throws Exception {
        try (ExtendedServerSocket server = new ExtendedServerSocket()) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            server.setOption(IwarpOptions.MPA_TIMEOUT, 300);
            server.bind(new java.net.InetSocketAddress(LOOPBACK, 0));
            try (Socket plainClient = new Socket(LOOPBACK, server.getLocalPort());
                 ExtendedSocket accepted = server.accept()) {
                plainClient.getOutputStream().write("not MPA at all".getBytes(StandardCharsets.US_ASCII));
                IwarpNegotiationException e = assertThrows(IwarpNegotiationException.class,
                        () -> accepted.getInputStream().read());
                assertTrue(e.getMessage().contains("not MPA at all"), e.getMessage());
                assertTrue(accepted.isClosed());
            }
            assertFalse(server.isClosed(), "the server socket carries on");
        }
    }

    private interface PlainPeer {
        void serve(Socket socket) throws Exception;
    }

    private static IwarpNegotiationException switchAgainstPlainPeer(PlainPeer peer, int mpaTimeoutMillis)
            throws Exception {
        try (ServerSocket plain = new ServerSocket(0, 1, LOOPBACK)) {
            CompletableFuture<Void> serving = CompletableFuture.runAsync(() -> {
                try (Socket socket = plain.accept()) {
                    peer.serve(socket);
                } catch (Exception ignored) {
                    // the peer's own fate does not matter here
                }
            });
            ExtendedSocket client = new ExtendedSocket(LOOPBACK, plain.getLocalPort());
            client.setOption(IwarpOptions.MPA_TIMEOUT, mpaTimeoutMillis);
            IwarpNegotiationException e = assertThrows(IwarpNegotiationException.class,
                    () -> client.setOption(IwarpOptions.IWARP_MODE, true));
            assertTrue(client.isClosed(), "never half switched: the socket is closed");
            serving.get(10, TimeUnit.SECONDS);
            return e;
        }
    }

    private static void assertEchoWorks(IwarpSocketPair pair) throws Exception {
        assertEchoWorks(pair.client(), pair.accepted());
    }

    private static void assertEchoWorks(Socket client, Socket accepted) throws Exception {
        byte[] message = new byte[100_000];
        new java.util.SplittableRandom(5).nextBytes(message);
        CompletableFuture<Void> echo = CompletableFuture.runAsync(() -> {
            try {
                InputStream in = accepted.getInputStream();
                OutputStream out = accepted.getOutputStream();
                out.write(in.readNBytes(message.length));
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        client.getOutputStream().write(message);
        byte[] back = new DataInputStream(client.getInputStream()).readNBytes(message.length);
        echo.get(20, TimeUnit.SECONDS);
        assertArrayEquals(message, back);
    }

    private static String text(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }
}

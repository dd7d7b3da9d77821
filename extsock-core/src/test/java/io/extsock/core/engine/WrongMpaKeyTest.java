package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpOptions;
import io.extsock.core.e2e.EventRecording;
import io.extsock.core.events.NegotiationFailedEvent;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RFC 5044 section 7.1.1: a wrong MPA key closes the connection at once. Where the connection
 * carried no stream before the switch (an accepted socket of an IWARP_MODE server, a socket in
 * IWARP_MODE before connect), the peer's first octet must start its frame: a wrong key or any
 * garbage fails the switch as it arrives, not at the 10 s negotiation timeout. Where the switch
 * came later, stream written before it may precede the frame, but only as much as TCP could
 * have taken: past that the switch fails too. The 5 s read timeouts below only guard against a
 * hang (the negotiation timeout is 10 s); they time nothing.
 */
@Timeout(60)
class WrongMpaKeyTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final int NO_HANG_MILLIS = 5_000;

    @TempDir
    Path temp;

    @Test
    void aWrongKeyOnAnAcceptedConnectionClosesItAtOnceAndTheServerServesTheNext() throws Exception {
        try (ExtendedServerSocket server = iwarpServer()) {
            // One octet off: "MPA ID Req Frame" with a lower-case 'f'.
            assertRefused(server, "MPA ID Req frame\u0040\u0001\u0000\u0000", "the key of an MPA Request");
            assertServesAGoodClient(server);
        }
    }

    @Test
    void garbageOnAnAcceptedConnectionClosesItAtOnce() throws Exception {
        try (ExtendedServerSocket server = iwarpServer()) {
            assertRefused(server, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", "GET / HTTP/1.1");
            assertServesAGoodClient(server);
        }
    }

    @Test
    void aSingleWrongOctetIsEnough() throws Exception {
        try (ExtendedServerSocket server = iwarpServer()) {
            // No need to wait for 16 octets: no key starts with 'X'.
            assertRefused(server, "X", "\"X\" (58)");
            assertServesAGoodClient(server);
        }
    }

    @Test
    void theFailureIsRecordedAsNegotiationFailed() throws Exception {
        List<RecordedEvent> events;
        try (Recording recording = EventRecording.start(NegotiationFailedEvent.class);
             ExtendedServerSocket server = iwarpServer()) {
            assertRefused(server, "MPA ID Rep Frame", "it sent an MPA Reply");
            events = EventRecording.named(EventRecording.stop(recording, temp), "io.extsock.NegotiationFailed");
        }
        assertEquals(1, events.size(), events.toString());
        assertEquals("NOT_AN_IWARP_PEER", events.get(0).getString("reason"));
        assertEquals("responder", events.get(0).getString("role"));
    }

    @Test
    void aWrongKeyInTheReplyFailsTheConnectAtOnce() throws Exception {
        try (ServerSocket plain = new ServerSocket(0, 50, LOOPBACK)) {
            CompletableFuture<Integer> peer = CompletableFuture.supplyAsync(() -> {
                try (Socket socket = plain.accept()) {
                    socket.setSoTimeout(NO_HANG_MILLIS);
                    new DataInputStream(socket.getInputStream()).readFully(new byte[20]);  // the Request
                    OutputStream out = socket.getOutputStream();
                    out.write("MPA ID Rep Fxxxx".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    try {
                        socket.getInputStream().readAllBytes();  // the rest of the Request, then the end
                    } catch (SocketException reset) {
                        // the end too: the client closed with our octets unread
                    }
                    return -1;
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            try (ExtendedSocket client = new ExtendedSocket()) {
                client.setOption(IwarpOptions.IWARP_MODE, true);
                IwarpNegotiationException failure = assertThrows(IwarpNegotiationException.class,
                        () -> client.connect(plain.getLocalSocketAddress()));
                assertEquals(IwarpNegotiationException.Reason.NOT_AN_IWARP_PEER, failure.reason());
                assertTrue(failure.getMessage().contains("the key of an MPA Reply"), failure.getMessage());
                assertTrue(client.isClosed());
            }
            assertEquals(-1, peer.get(20, TimeUnit.SECONDS), "the peer saw the connection end");
        }
    }

    @Test
    void afterALaterSwitchStreamPastWhatTcpCouldHoldFailsTheSwitch() throws Exception {
        try (ExtendedServerSocket server = new ExtendedServerSocket(0, 50, LOOPBACK);
             Socket peer = new Socket(LOOPBACK, server.getLocalPort());
             ExtendedSocket accepted = server.accept()) {
            // The server switches after accept, so stream may come first; the peer sends nothing
            // but stream, for ever.
            AtomicLong sent = new AtomicLong();
            CompletableFuture<Void> flood = CompletableFuture.runAsync(() -> {
                byte[] chunk = new byte[64 * 1024];
                try {
                    OutputStream out = peer.getOutputStream();
                    while (true) {
                        out.write(chunk);
                        sent.addAndGet(chunk.length);
                    }
                } catch (IOException e) {
                    // the switch failed and closed the connection
                }
            });
            IwarpNegotiationException failure = assertThrows(IwarpNegotiationException.class,
                    () -> accepted.setOption(IwarpOptions.IWARP_MODE, true));
            assertEquals(IwarpNegotiationException.Reason.NOT_AN_IWARP_PEER, failure.reason());
            assertTrue(failure.getMessage().contains("more than it can have written before its switch"),
                    failure.getMessage());
            assertTrue(accepted.isClosed());
            flood.get(20, TimeUnit.SECONDS);
            assertTrue(sent.get() > 0);
        }
    }

    private static ExtendedServerSocket iwarpServer() throws IOException {
        ExtendedServerSocket server = new ExtendedServerSocket(0, 50, LOOPBACK);
        server.setOption(IwarpOptions.IWARP_MODE, true);
        return server;
    }

    /**
     * A raw peer sends {@code octets} and nothing more; the accepted socket's first use fails
     * with a message that contains {@code named}, and the peer sees the connection end (end of
     * stream or reset) well before the negotiation timeout.
     */
    private static void assertRefused(ExtendedServerSocket server, String octets, String named) throws Exception {
        try (Socket peer = new Socket(LOOPBACK, server.getLocalPort());
             ExtendedSocket accepted = server.accept()) {
            peer.setSoTimeout(NO_HANG_MILLIS);
            peer.getOutputStream().write(octets.getBytes(StandardCharsets.ISO_8859_1));
            peer.getOutputStream().flush();
            IwarpNegotiationException failure = assertThrows(IwarpNegotiationException.class,
                    () -> accepted.getInputStream().read());
            assertEquals(IwarpNegotiationException.Reason.NOT_AN_IWARP_PEER, failure.reason());
            assertTrue(failure.getMessage().contains(named), failure.getMessage());
            assertTrue(accepted.isClosed(), "the socket is closed, not half switched");
            assertEquals(-1, readToEnd(peer.getInputStream()), "the peer saw the connection end, and no Reply");
        }
    }

    /** Reads until the end: -1 at end of stream or on a reset; a read timeout fails the test. */
    private static int readToEnd(InputStream in) throws IOException {
        try {
            while (true) {
                int b = in.read();
                if (b < 0) {
                    return -1;
                }
                throw new AssertionError("the peer got octet " + b + ": nothing was to be sent");
            }
        } catch (SocketException e) {  // a read timeout is no SocketException: it fails the test
            return -1;  // reset: our unread input was discarded at close
        }
    }

    private static void assertServesAGoodClient(ExtendedServerSocket server) throws Exception {
        CompletableFuture<String> served = CompletableFuture.supplyAsync(() -> {
            try (ExtendedSocket accepted = server.accept()) {
                String line = new DataInputStream(accepted.getInputStream()).readUTF();
                new DataOutputStream(accepted.getOutputStream()).writeUTF("echo " + line);
                return line;
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        try (ExtendedSocket client = new ExtendedSocket()) {
            client.setOption(IwarpOptions.IWARP_MODE, true);
            client.connect(server.getLocalSocketAddress());
            new DataOutputStream(client.getOutputStream()).writeUTF("ping");
            assertEquals("echo ping", new DataInputStream(client.getInputStream()).readUTF());
        }
        assertEquals("ping", served.get(20, TimeUnit.SECONDS));
    }
}

package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpNegotiationException.Reason;
import io.extsock.IwarpOptions;
import io.extsock.core.ThreadProbe;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * IwarpOptions.NEGOTIATE_BEFORE_ACCEPT: an IWARP_MODE server socket negotiates each connection
 * as it arrives, so that clients' connects end while the application accepts nothing, and
 * accept returns sockets already switched. Hostile and plain clients are dealt with there:
 * closed at their MPA timeout or at their first wrong octet, or (FALLBACK) accepted as plain
 * TCP. Real sockets on loopback; the waits are guards against a hang, not timings.
 */
@Timeout(60)
class NegotiateBeforeAcceptTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    /** A client's MPA timeout: without negotiation ahead of accept its connect would fail after it. */
    private static final int CLIENT_MPA_TIMEOUT_MILLIS = 5_000;

    @Test
    void clientsFinishConnectingWhileTheServerAcceptsNothingAndAcceptReturnsThemSwitched() throws Exception {
        try (ExtendedServerSocket server = negotiatingServer(50)) {
            server.setOption(IwarpOptions.PRIVATE_DATA, ascii("server-options"));
            CompletableFuture<Socket> first = CompletableFuture.supplyAsync(() -> accept(server));
            List<ExtendedSocket> clients = new ArrayList<>();
            try {
                clients.add(connect(server));  // the first accept started the negotiations
                try (Socket firstAccepted = first.get(10, TimeUnit.SECONDS)) {
                    for (int i = 0; i < 5; i++) {
                        clients.add(connect(server));  // nobody accepts meanwhile
                    }
                    for (ExtendedSocket client : clients) {
                        assertArrayEquals(ascii("server-options"), client.iwarp().peerPrivateData(),
                                "negotiated with the server socket's options");
                    }
                    List<ExtendedSocket> accepted = new ArrayList<>();
                    accepted.add((ExtendedSocket) firstAccepted);
                    for (int i = 0; i < 5; i++) {
                        accepted.add(server.accept());
                    }
                    for (int i = 0; i < clients.size(); i++) {
                        ExtendedSocket socket = accepted.get(i);
                        assertTrue(socket.getOption(IwarpOptions.IWARP_MODE), "accepted in IWARP_MODE");
                        assertEquals(clients.get(i).getLocalPort(), socket.getPort(), "accepted in arrival order");
                        socket.iwarp();  // the verbs side is there, no switch pending
                        byte[] message = ascii("round trip " + i);
                        clients.get(i).getOutputStream().write(message);
                        assertArrayEquals(message, socket.getInputStream().readNBytes(message.length));
                        socket.getOutputStream().write(message);
                        assertArrayEquals(message, clients.get(i).getInputStream().readNBytes(message.length));
                        SocketException settled = assertThrows(SocketException.class,
                                () -> socket.setOption(IwarpOptions.CRC, false));
                        assertTrue(settled.getMessage().contains("before the switch"), settled.getMessage());
                        socket.close();
                    }
                }
            } finally {
                for (ExtendedSocket client : clients) {
                    client.close();
                }
            }
        }
    }

    @Test
    void theServerSocketsOptionsAreSettledAtItsFirstAccept() throws Exception {
        try (ExtendedServerSocket server = negotiatingServer(50)) {
            assertTrue(server.getOption(IwarpOptions.NEGOTIATE_BEFORE_ACCEPT));
            server.setOption(IwarpOptions.MPA_TIMEOUT, 2_000);  // before the first accept: allowed
            server.setSoTimeout(50);
            assertThrows(SocketTimeoutException.class, server::accept);
            SocketException settled = assertThrows(SocketException.class,
                    () -> server.setOption(IwarpOptions.CRC, false));
            assertTrue(settled.getMessage().contains("first accept"), settled.getMessage());
            assertThrows(SocketException.class, () -> server.setOption(IwarpOptions.NEGOTIATE_BEFORE_ACCEPT, false));
            assertThrows(SocketException.class, () -> server.setOption(IwarpOptions.IWARP_MODE, false));
            server.setSoTimeout(1_000);  // a plain socket option still changes
        }
    }

    @Test
    void aStalledClientHoldsUpNobodyAndIsClosedAtTheMpaTimeout() throws Exception {
        try (ExtendedServerSocket server = negotiatingServer(50)) {
            server.setOption(IwarpOptions.MPA_TIMEOUT, 500);
            server.setSoTimeout(10_000);
            CompletableFuture<Socket> acceptedFirst = CompletableFuture.supplyAsync(() -> accept(server));
            try (Socket staller = new Socket(LOOPBACK, server.getLocalPort())) {
                staller.getOutputStream().write(ascii("MPA ID Req"));  // half a key, then silence
                try (ExtendedSocket honest = connect(server); Socket accepted = acceptedFirst.get(10, TimeUnit.SECONDS)) {
                    assertEquals(honest.getLocalPort(), accepted.getPort(), "the honest client came first");
                }
                staller.setSoTimeout(10_000);
                PeerClose.assertClosedByPeer(staller, "the server closed the staller");
                server.setSoTimeout(300);
                assertThrows(SocketTimeoutException.class, server::accept, "the staller is never accepted");
            }
        }
    }

    @Test
    void aClientThatIsNotAnMpaPeerIsClosedAtOnceAndNeverAccepted() throws Exception {
        try (ExtendedServerSocket server = negotiatingServer(50)) {
            server.setSoTimeout(10_000);
            CompletableFuture<Socket> acceptedFirst = CompletableFuture.supplyAsync(() -> accept(server));
            try (Socket http = new Socket(LOOPBACK, server.getLocalPort())) {
                http.getOutputStream().write(ascii("GET / HTTP/1.0\r\n\r\n"));
                http.setSoTimeout(10_000);
                PeerClose.assertClosedByPeer(http, "closed at its first wrong octet");
                try (ExtendedSocket honest = connect(server); Socket accepted = acceptedFirst.get(10, TimeUnit.SECONDS)) {
                    assertEquals(honest.getLocalPort(), accepted.getPort());
                    assertTrue(accepted.getOption(IwarpOptions.IWARP_MODE));
                }
            }
        }
    }

    @Test
    void withFallbackAPlainClientIsAcceptedAsPlainTcpWithWhatItSentReadFirst() throws Exception {
        try (ExtendedServerSocket server = negotiatingServer(50)) {
            server.setOption(IwarpOptions.FALLBACK, true);
            server.setOption(IwarpOptions.FALLBACK_WAIT, 300);
            server.setSoTimeout(10_000);
            CompletableFuture<Socket> acceptedFirst = CompletableFuture.supplyAsync(() -> accept(server));
            try (Socket plain = new Socket(LOOPBACK, server.getLocalPort())) {
                plain.getOutputStream().write(ascii("HELO plain\n"));
                try (ExtendedSocket accepted = (ExtendedSocket) acceptedFirst.get(10, TimeUnit.SECONDS)) {
                    assertFalse(accepted.getOption(IwarpOptions.IWARP_MODE));
                    assertEquals(Reason.NOT_AN_IWARP_PEER, accepted.iwarpFallbackCause().orElseThrow().reason());
                    assertArrayEquals(ascii("HELO plain\n"), accepted.getInputStream().readNBytes(11));
                    accepted.getOutputStream().write(ascii("250 ok\n"));
                    plain.setSoTimeout(10_000);
                    assertArrayEquals(ascii("250 ok\n"), plain.getInputStream().readNBytes(7));
                }
            }
            // A silent plain client is accepted once the fallback wait has passed.
            try (Socket silent = new Socket(LOOPBACK, server.getLocalPort());
                 ExtendedSocket accepted = server.accept()) {
                assertFalse(accepted.getOption(IwarpOptions.IWARP_MODE));
                assertEquals(Reason.TIMEOUT, accepted.iwarpFallbackCause().orElseThrow().reason());
                accepted.getOutputStream().write(ascii("220 hello\n"));
                silent.setSoTimeout(10_000);
                assertArrayEquals(ascii("220 hello\n"), silent.getInputStream().readNBytes(10));
            }
        }
    }

    @Test
    void negotiatedConnectionsWaitingForAcceptAreBoundedByTheBacklog() throws Exception {
        try (ExtendedServerSocket server = negotiatingServer(2)) {
            CompletableFuture<Socket> first = CompletableFuture.supplyAsync(() -> accept(server));
            List<ExtendedSocket> clients = new ArrayList<>();
            try {
                clients.add(connect(server));
                first.get(10, TimeUnit.SECONDS).close();
                clients.add(connect(server));
                clients.add(connect(server));  // two negotiated, waiting: the backlog is full
                Thread[] connecting = new Thread[1];
                CountDownLatch started = new CountDownLatch(1);
                CompletableFuture<ExtendedSocket> third = CompletableFuture.supplyAsync(() -> {
                    connecting[0] = Thread.currentThread();
                    started.countDown();
                    try {
                        return connect(server);
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
                assertTrue(started.await(10, TimeUnit.SECONDS));
                // Its switch waits for the MPA Reply, which the server holds back while two wait:
                // seen waiting first, so that the half second below is spent on the server's side.
                ThreadProbe.awaitWaitingInside(connecting[0], "io.extsock", "connect");
                assertThrows(TimeoutException.class, () -> third.get(500, TimeUnit.MILLISECONDS),
                        "no third negotiation while two wait to be accepted");
                server.accept().close();
                clients.add(third.get(10, TimeUnit.SECONDS));  // room again: it was negotiated
                assertEquals(clients.get(2).getLocalPort(), server.accept().getPort());
                assertEquals(clients.get(3).getLocalPort(), server.accept().getPort());
            } finally {
                for (ExtendedSocket client : clients) {
                    client.close();
                }
            }
        }
    }

    @Test
    void closingTheServerSocketEndsAWaitingAccept() throws Exception {
        ExtendedServerSocket server = negotiatingServer(50);
        CompletableFuture<Socket> first = CompletableFuture.supplyAsync(() -> accept(server));
        try (ExtendedSocket client = connect(server)) {
            first.get(10, TimeUnit.SECONDS).close();
            Thread[] accepting = new Thread[1];
            CountDownLatch started = new CountDownLatch(1);
            CompletableFuture<Socket> blocked = CompletableFuture.supplyAsync(() -> {
                accepting[0] = Thread.currentThread();
                started.countDown();
                return accept(server);
            });
            assertTrue(started.await(10, TimeUnit.SECONDS));
            ThreadProbe.awaitWaitingInside(accepting[0], "io.extsock", "accept");
            assertFalse(blocked.isDone(), "the second accept waits");
            server.close();
            ExecutionException ended = assertThrows(ExecutionException.class, () -> blocked.get(10, TimeUnit.SECONDS));
            assertTrue(ended.getCause().getCause() instanceof SocketException, String.valueOf(ended.getCause()));
        }
    }

    @Test
    void closingTheServerSocketClosesConnectionsNegotiatedButNotAccepted() throws Exception {
        ExtendedServerSocket server = negotiatingServer(50);
        CompletableFuture<Socket> first = CompletableFuture.supplyAsync(() -> accept(server));
        try (ExtendedSocket client = connect(server); ExtendedSocket notAccepted = connect(server)) {
            first.get(10, TimeUnit.SECONDS).close();
            server.close();
            notAccepted.setSoTimeout(10_000);
            PeerClose.assertClosedByPeer(notAccepted, "its server end was closed");
        }
    }

    // ---- helpers ---------------------------------------------------------------------------

    private static ExtendedServerSocket negotiatingServer(int backlog) throws IOException {
        ExtendedServerSocket server = new ExtendedServerSocket();
        server.setOption(IwarpOptions.IWARP_MODE, true);
        server.setOption(IwarpOptions.NEGOTIATE_BEFORE_ACCEPT, true);
        server.bind(new InetSocketAddress(LOOPBACK, 0), backlog);
        return server;
    }

    private static ExtendedSocket connect(ExtendedServerSocket server) throws IOException {
        ExtendedSocket client = new ExtendedSocket();
        client.setOption(IwarpOptions.IWARP_MODE, true);
        client.setOption(IwarpOptions.MPA_TIMEOUT, CLIENT_MPA_TIMEOUT_MILLIS);
        client.connect(new InetSocketAddress(LOOPBACK, server.getLocalPort()), 10_000);
        return client;
    }

    private static Socket accept(ExtendedServerSocket server) {
        try {
            return server.accept();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}

package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedServerSocket;
import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpOptions;
import io.extsock.internal.ChannelServerSocketImpl;
import io.extsock.internal.ChannelSocketImpl;
import io.extsock.internal.ConnectionPolicy;
import io.extsock.internal.ImplSocket;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ChannelSocketImpl's hook for programs unaware of extsock (the agent): the policy decides each
 * connection once it is established, and hears its outcome exactly once.
 */
@Timeout(60)
class ConnectionPolicyTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final Map<SocketOption<?>, Object> IWARP = Map.of(IwarpOptions.IWARP_MODE, Boolean.TRUE);
    private static final Map<SocketOption<?>, Object> IWARP_OR_TCP = Map.of(IwarpOptions.IWARP_MODE, Boolean.TRUE,
            IwarpOptions.FALLBACK, Boolean.TRUE);

    /** Answers with fixed options and records what it was asked and told. */
    private static final class RecordingPolicy implements ConnectionPolicy {
        final Map<SocketOption<?>, Object> answer;
        final List<String> asked = new CopyOnWriteArrayList<>();
        final List<String> told = new CopyOnWriteArrayList<>();

        RecordingPolicy(Map<SocketOption<?>, Object> answer) {
            this.answer = answer;
        }

        @Override
        public Map<SocketOption<?>, Object> optionsFor(InetSocketAddress local, InetSocketAddress remote, boolean initiator) {
            asked.add((initiator ? "connect " : "accept ") + local.getPort() + " " + remote.getPort());
            return answer;
        }

        @Override
        public void outcome(Outcome outcome, String detail) {
            told.add(outcome + ": " + detail);
        }
    }

    /** A plain ServerSocket on extsock's implementation that accepts into a socket with a policy, as the agent's factories do. */
    private static final class PolicyServerSocket extends ServerSocket {
        PolicyServerSocket() throws IOException {
            super(new ChannelServerSocketImpl());
            bind(new InetSocketAddress(LOOPBACK, 0));
        }

        Socket accept(ConnectionPolicy policy) throws IOException {
            Socket socket = ImplSocket.on(new ChannelSocketImpl(policy));
            implAccept(socket);
            return socket;
        }
    }

    private static Socket connect(ConnectionPolicy policy, int port) throws IOException {
        Socket socket = ImplSocket.on(new ChannelSocketImpl(policy));
        socket.connect(new InetSocketAddress(LOOPBACK, port));
        return socket;
    }

    @Test
    void bothEndsSwitchAsTheirPoliciesSayAndHearSoOnce() throws Exception {
        RecordingPolicy clientPolicy = new RecordingPolicy(IWARP);
        RecordingPolicy serverPolicy = new RecordingPolicy(IWARP);
        try (PolicyServerSocket server = new PolicyServerSocket()) {
            CompletableFuture<String> served = CompletableFuture.supplyAsync(() -> {
                try (Socket accepted = server.accept(serverPolicy)) {
                    byte[] hello = accepted.getInputStream().readNBytes(5);   // the first use: the switch
                    accepted.getOutputStream().write(hello);
                    return accepted.getLocalPort() + " " + accepted.getPort();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            try (Socket client = connect(clientPolicy, server.getLocalPort())) {
                assertEquals(List.of("IWARP: negotiated"), clientPolicy.told, "the initiator switched inside connect");
                assertTrue(client.getOption(IwarpOptions.IWARP_MODE));
                client.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
                assertEquals("hello", new String(client.getInputStream().readNBytes(5), StandardCharsets.US_ASCII));
                assertEquals(List.of("connect " + client.getLocalPort() + " " + server.getLocalPort()), clientPolicy.asked);
                assertEquals(server.getLocalPort() + " " + client.getLocalPort(), served.get(10, TimeUnit.SECONDS));
                assertEquals(List.of("accept " + server.getLocalPort() + " " + client.getLocalPort()), serverPolicy.asked);
            }
            assertEquals(List.of("IWARP: negotiated"), clientPolicy.told, "nothing more at close");
            assertEquals(List.of("IWARP: negotiated"), serverPolicy.told);
        }
    }

    @Test
    void noOptionsMeansPlainTcpToldAtConnect() throws Exception {
        RecordingPolicy policy = new RecordingPolicy(Map.of());
        try (ServerSocket server = new ServerSocket(0, 50, LOOPBACK);
             Socket client = connect(policy, server.getLocalPort());
             Socket accepted = server.accept()) {
            assertEquals(List.of("PLAIN_TCP: no switch asked for"), policy.told);
            client.getOutputStream().write(7);
            assertEquals(7, accepted.getInputStream().read(), "plain TCP on the wire");
        }
        assertEquals(1, policy.told.size());
    }

    @Test
    void aPeerThatIsNoIwarpPeerFailsTheSwitchAndThePolicyHearsWhy() throws Exception {
        RecordingPolicy policy = new RecordingPolicy(IWARP);
        try (ServerSocket server = new ServerSocket(0, 50, LOOPBACK)) {
            CompletableFuture<Void> plainPeer = CompletableFuture.runAsync(() -> {
                try (Socket accepted = server.accept()) {
                    accepted.getOutputStream().write("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    InputStream in = accepted.getInputStream();
                    while (in.read() >= 0) {
                        // until the extsock end closes
                    }
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            IwarpNegotiationException e = assertThrows(IwarpNegotiationException.class,
                    () -> connect(policy, server.getLocalPort()));
            assertEquals(IwarpNegotiationException.Reason.NOT_AN_IWARP_PEER, e.reason());
            assertEquals(List.of("FAILED: " + e), policy.told);
            plainPeer.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void anInitiatorThatFellBackIsToldWhyAndFromWhereItReconnected() throws Exception {
        RecordingPolicy policy = new RecordingPolicy(IWARP_OR_TCP);
        try (ServerSocket server = new ServerSocket(0, 50, LOOPBACK)) {
            // A plain server that greets each connection first: the first one carries the MPA Request.
            CompletableFuture<Integer> firstClientPort = CompletableFuture.supplyAsync(() -> {
                try (Socket first = server.accept()) {
                    first.getOutputStream().write("220 ready\r\n".getBytes(StandardCharsets.US_ASCII));
                    InputStream in = first.getInputStream();
                    while (in.read() >= 0) {
                        // until the extsock end gives this connection up
                    }
                    return first.getPort();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            try (Socket client = connect(policy, server.getLocalPort());
                 Socket second = server.accept()) {
                int first = firstClientPort.get(10, TimeUnit.SECONDS);
                assertEquals(List.of("connect " + first + " " + server.getLocalPort()), policy.asked);
                assertEquals(List.of("FELL_BACK: IWARP_MODE negotiation failed (NOT_AN_IWARP_PEER): the peer's first octets"
                        + " are not the key of an MPA Reply (\"MPA ID Rep Frame\"): \"220 ready\\r\\n\" (32 32 30 20 72 65 61 64 79 0d 0a); the"
                        + " connection carried no stream before the switch, so nothing else may come first; reconnected from"
                        + " 127.0.0.1:" + client.getLocalPort()), policy.told);
                assertFalse(client.getOption(IwarpOptions.IWARP_MODE));
                assertEquals(second.getPort(), client.getLocalPort(), "the stream runs on the second connection");
            }
            assertEquals(1, policy.told.size(), "nothing more at close");
        }
    }

    @Test
    void anAcceptedConnectionWhosePlainClientSpeaksFirstIsToldItFellBack() throws Exception {
        RecordingPolicy policy = new RecordingPolicy(IWARP_OR_TCP);
        try (PolicyServerSocket server = new PolicyServerSocket();
             Socket client = new Socket(LOOPBACK, server.getLocalPort())) {
            client.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
            try (Socket accepted = server.accept(policy)) {
                assertEquals("hello", new String(accepted.getInputStream().readNBytes(5), StandardCharsets.US_ASCII));
                assertEquals(List.of("FELL_BACK: IWARP_MODE negotiation failed (NOT_AN_IWARP_PEER): the peer's first octets"
                        + " are not the key of an MPA Request (\"MPA ID Req Frame\"): \"hello\" (68 65 6c 6c 6f); the connection"
                        + " carried no stream before the switch, so nothing else may come first"), policy.told);
            }
            assertEquals(1, policy.told.size(), "nothing more at close");
        }
    }

    @Test
    void anAcceptedConnectionClosedBeforeItsFirstUseIsToldSo() throws Exception {
        RecordingPolicy policy = new RecordingPolicy(IWARP);
        try (PolicyServerSocket server = new PolicyServerSocket();
             Socket client = new Socket(LOOPBACK, server.getLocalPort())) {
            Socket accepted = server.accept(policy);
            assertEquals(List.of(), policy.told, "the switch waits for the first use");
            accepted.close();
            assertEquals(List.of("FAILED: closed before its first use, never switched"), policy.told);
            assertEquals(-1, client.getInputStream().read(), "closed, never switched");
        }
    }

    @Test
    void aPolicyMaySetIwarpOptionsOnly() throws Exception {
        RecordingPolicy policy = new RecordingPolicy(Map.of(StandardSocketOptions.TCP_NODELAY, Boolean.TRUE));
        try (ExtendedServerSocket server = new ExtendedServerSocket(0, 50, LOOPBACK)) {
            Socket socket = ImplSocket.on(new ChannelSocketImpl(policy));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> socket.connect(new InetSocketAddress(LOOPBACK, server.getLocalPort())));
            assertEquals("a ConnectionPolicy sets iWARP options only, each with a value of its type, not TCP_NODELAY = true",
                    e.getMessage());
            assertThrows(IOException.class, () -> socket.getOutputStream().write(1), "the connection was closed");
            assertEquals(List.of(), policy.told);
        }
    }
}

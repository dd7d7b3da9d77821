package io.extsock.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.agent.e2e.programs.GreetingServer;
import io.extsock.agent.e2e.programs.LineClient;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults under the agent, each ending in one clear line or a clean fallback, never a hang: a port
 * that refuses, a host that does not answer (a full backlog), a server silent to the MPA Request,
 * peers that close during the negotiation, and on the accepting side clients that say nothing or
 * close halfway through an MPA Request. The programs are ordinary line programs ({@link
 * LineClient}, {@link GreetingServer}) under the agent, with fallback on and off; the misbehaving
 * peers run in the test's JVM, plain. The fallback wait is 300 ms to keep this short; nothing here
 * is timed (the programs' 10 s timeouts only guard against a hang).
 */
class AgentFaultsIT {

    private static final Duration EXIT_LIMIT = Duration.ofSeconds(60);
    private static final String PROGRAM_TIMEOUT_MILLIS = "10000";
    private static final String WAIT = "fallback-wait=300";
    private static final String NO_CONNECTION_HINT = "extsock agent: no connection matched an iwarp rule: the program made"
            + " no connection on java.net sockets or NIO socket channels (asynchronous channels and native transports,"
            + " such as Netty's epoll, are not converted)";

    @TempDir
    Path directory;

    // ---- the connecting side: LineClient under "iwarp connect 127.0.0.1 *" ------------------------

    @Test
    void aRefusedConnectIsTheProgramsOwnErrorWithFallbackOnOrOff() throws Exception {
        int closedPort = H2UnderAgentIT.freePort();
        for (String fallback : List.of("fallback=on", "fallback=off")) {
            AgentJvm client = runClient(fallback, closedPort, PROGRAM_TIMEOUT_MILLIS);
            assertEquals(1, client.awaitExit(EXIT_LIMIT), client.toString());
            assertEquals("error: java.net.ConnectException: Connection refused\n", client.stdout(), client.toString());
            // No connection, nothing for a rule to decide: the hint after the summary says so.
            assertEquals(List.of("extsock agent: 0 iwarp, 0 fell back to tcp, 0 tcp by rule", NO_CONNECTION_HINT),
                    client.reportLines(), fallback);
        }
    }

    @Test
    void aHostThatDoesNotAnswerIsTheProgramsOwnConnectTimeout() throws Exception {
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Backlog backlog = Backlog.fill(full)) {
            // Linux drops the SYNs of a listener whose accept queue is full: no answer at all.
            AgentJvm client = runClient("fallback=on", full.getLocalPort(), "1000");
            assertEquals(1, client.awaitExit(EXIT_LIMIT), client.toString());
            assertEquals("error: java.net.SocketTimeoutException: Connect timed out\n", client.stdout(), client.toString());
            assertEquals(List.of("extsock agent: 0 iwarp, 0 fell back to tcp, 0 tcp by rule", NO_CONNECTION_HINT),
                    client.reportLines());
        }
    }

    @Test
    void aServerSilentToTheMpaRequestCostsTheWaitAndOneMoreConnectionOrWithFallbackOffFailsAfterTheWait()
            throws Exception {
        try (FaultServer server = new FaultServer(FaultServer.FirstConnection.SILENT)) {
            AgentJvm client = runClient("fallback=on", server.port(), PROGRAM_TIMEOUT_MILLIS);
            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertEquals("HELLO\n", client.stdout(), client.toString());
            assertFellBackOnce(client, server, "IWARP_MODE negotiation failed (TIMEOUT): no MPA Reply from the peer within"
                    + " 300 ms (IwarpOptions.FALLBACK_WAIT) (is it in IWARP_MODE?); it sent nothing");
            assertTrue(server.connections().get(0).mpaRequestAlone(), "the first carried the MPA Request alone");
        }
        try (FaultServer server = new FaultServer(FaultServer.FirstConnection.SILENT)) {
            AgentJvm client = runClient("fallback=off", server.port(), PROGRAM_TIMEOUT_MILLIS);
            assertFailedAlone(client, server, "IWARP_MODE negotiation failed (TIMEOUT): no MPA Reply from the peer within"
                    + " 300 ms (is it in IWARP_MODE?); it sent nothing");
        }
    }

    @Test
    void aServerThatClosesAtOnceIsReconnectedPlainOrWithFallbackOffFails() throws Exception {
        try (FaultServer server = new FaultServer(FaultServer.FirstConnection.CLOSED_AT_ONCE)) {
            AgentJvm client = runClient("fallback=on", server.port(), PROGRAM_TIMEOUT_MILLIS);
            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertEquals("HELLO\n", client.stdout(), client.toString());
            assertFellBackOnce(client, server, "IWARP_MODE negotiation failed (CONNECTION_CLOSED): the peer closed the"
                    + " connection before its MPA Reply");
        }
        try (FaultServer server = new FaultServer(FaultServer.FirstConnection.CLOSED_AT_ONCE)) {
            AgentJvm client = runClient("fallback=off", server.port(), PROGRAM_TIMEOUT_MILLIS);
            assertFailed(client, server, "IWARP_MODE negotiation failed (CONNECTION_CLOSED): the peer closed the"
                    + " connection before its MPA Reply");
        }
    }

    @Test
    void aServerThatClosesHalfwayThroughAnMpaReplyKeyIsNoIwarpPeer() throws Exception {
        String why = "IWARP_MODE negotiation failed (NOT_AN_IWARP_PEER): the peer closed the connection before its MPA"
                + " Reply; it sent \"MPA ID Rep\"";
        try (FaultServer server = new FaultServer(FaultServer.FirstConnection.HALF_A_REPLY_KEY)) {
            AgentJvm client = runClient("fallback=on", server.port(), PROGRAM_TIMEOUT_MILLIS);
            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertEquals("HELLO\n", client.stdout(), client.toString());
            assertFellBackOnce(client, server, why);
        }
        try (FaultServer server = new FaultServer(FaultServer.FirstConnection.HALF_A_REPLY_KEY)) {
            AgentJvm client = runClient("fallback=off", server.port(), PROGRAM_TIMEOUT_MILLIS);
            assertFailed(client, server, why);
        }
    }

    @Test
    void anIwarpPeerThatClosesAfterItsReplyKeyFailsTheSwitchEvenWithFallback() throws Exception {
        // Its whole key came: it is an iWARP peer, and a plain reconnect would find the same.
        try (FaultServer server = new FaultServer(FaultServer.FirstConnection.WHOLE_REPLY_KEY)) {
            AgentJvm client = runClient("fallback=on", server.port(), PROGRAM_TIMEOUT_MILLIS);
            assertFailed(client, server, "IWARP_MODE negotiation failed (CONNECTION_CLOSED): the peer closed the"
                    + " connection in the middle of its MPA Reply; it sent \"MPA ID Rep Frame\"");
        }
    }

    /** The client went on plain over a second connection, the first having carried no byte of the program's. */
    private static void assertFellBackOnce(AgentJvm client, FaultServer server, String why) throws Exception {
        List<FaultServer.Received> connections = server.connections();
        assertEquals(2, connections.size(), "one more connection, no more: " + client);
        assertTrue(!connections.get(0).text().contains("hello"), "no byte of the program's on the first: " + client);
        assertEquals("hello\n", connections.get(1).text(), "the program's bytes, on the second only");
        AgentLog log = AgentLog.of(client);
        assertEquals(new AgentLog.Summary(0, 1, 0, 0), log.summary(), client.toString());
        log.assertSummaryCountsTheLines();
        String line = log.connectionLines().get(0);
        assertTrue(line.startsWith("extsock agent: connect to 127.0.0.1:" + server.port() + " from 127.0.0.1:"), line);
        assertTrue(line.contains(": fell back to tcp (" + why), line);
        assertTrue(line.endsWith("; reconnected from 127.0.0.1:" + portOf(line, "reconnected from 127.0.0.1:")
                + "), by line 1 'iwarp connect 127.0.0.1 *'"), line);
    }

    /** As {@link #assertFailed}, and the one connection carried the MPA Request alone. */
    private static void assertFailedAlone(AgentJvm client, FaultServer server, String why) throws Exception {
        assertFailed(client, server, why);
        assertTrue(server.connections().get(0).mpaRequestAlone(), "no byte of the program's went out");
    }

    /** The program's connect failed with the negotiation's error, in one line, over one connection. */
    private static void assertFailed(AgentJvm client, FaultServer server, String why) throws Exception {
        assertEquals(1, client.awaitExit(EXIT_LIMIT), client.toString());
        assertTrue(client.stdout().startsWith("error: io.extsock.IwarpNegotiationException: " + why), client.toString());
        assertEquals(1, client.stdout().lines().count(), client.toString());
        List<FaultServer.Received> connections = server.connections();
        assertEquals(1, connections.size(), "no second connection: " + client);
        assertTrue(!connections.get(0).text().contains("hello"), "no byte of the program's went out: " + client);
        AgentLog log = AgentLog.of(client);
        assertEquals(new AgentLog.Summary(0, 0, 0, 1), log.summary(), client.toString());
        log.assertSummaryCountsTheLines();
        String line = log.connectionLines().get(0);
        assertTrue(line.startsWith("extsock agent: connect to 127.0.0.1:" + server.port() + " from 127.0.0.1:"), line);
        assertTrue(line.contains(": failed, socket closed (io.extsock.IwarpNegotiationException: " + why), line);
        assertTrue(line.endsWith(", by line 1 'iwarp connect 127.0.0.1 *'"), line);
    }

    private AgentJvm runClient(String fallback, int port, String timeoutMillis) throws IOException {
        Path rules = Files.write(directory.resolve("client.rules"), List.of("iwarp connect 127.0.0.1 *"));
        return AgentJvm.start("rules=" + rules + ",log=debug," + fallback + "," + WAIT,
                List.of(AgentJvm.locationOf(LineClient.class)), directory, LineClient.class.getName(), "127.0.0.1",
                String.valueOf(port), timeoutMillis, "no-greeting", "hello");
    }

    private static int portOf(String line, String after) {
        int start = line.indexOf(after) + after.length();
        int end = start;
        while (end < line.length() && Character.isDigit(line.charAt(end))) {
            end++;
        }
        return Integer.parseInt(line.substring(start, end));
    }

    // ---- the accepting side: GreetingServer under "iwarp accept * PORT" ---------------------------

    @Test
    void aServerThatSpeaksFirstGreetsASilentClientAfterTheWaitAndHandsOnOctetsOfAHalfMpaRequest() throws Exception {
        int port = H2UnderAgentIT.freePort();
        try (AgentJvm server = startGreetingServer("fallback=on", port)) {
            try (Socket silent = plainClient(port)) {
                // It says nothing: after the wait the server goes on plain and its greeting comes.
                assertEquals("220 greeting\n", readLine(silent.getInputStream()));
                silent.getOutputStream().write("hello\n".getBytes(StandardCharsets.US_ASCII));
                assertEquals("HELLO\n", readLine(silent.getInputStream()));
            }
            int halfPort;
            try (Socket half = plainClient(port)) {
                halfPort = half.getLocalPort();
                half.getOutputStream().write("MPA ID Re\n".getBytes(StandardCharsets.US_ASCII));
                half.shutdownOutput();
                // Not an MPA Request: the server reads those octets as its line, on plain TCP.
                assertEquals("220 greeting\n", readLine(half.getInputStream()));
                assertEquals("MPA ID RE\n", readLine(half.getInputStream()));
            }
            server.awaitOutput("served MPA ID Re", EXIT_LIMIT);
            server.stop(EXIT_LIMIT);
            assertEquals("listening on " + port + "\nserved hello\nserved MPA ID Re\n", server.stdout());
            AgentLog log = AgentLog.of(server);
            assertEquals(new AgentLog.Summary(0, 2, 0, 0), log.summary(), server.toString());
            log.assertSummaryCountsTheLines();
            assertTrue(log.connectionLines().get(0).contains(": fell back to tcp (IWARP_MODE negotiation failed (TIMEOUT): no"
                    + " MPA Request from the peer within 300 ms (IwarpOptions.FALLBACK_WAIT) (is it in IWARP_MODE?); it sent"
                    + " nothing), by line 1 'iwarp accept * " + port + "'"), log.connectionLines().get(0));
            assertTrue(log.lineOfPeerPort(halfPort).contains(": fell back to tcp (IWARP_MODE negotiation failed"
                    + " (NOT_AN_IWARP_PEER): the peer's first octets are not the key of an MPA Request"), log.lineOfPeerPort(halfPort));
        }
    }

    @Test
    void withFallbackOffAServerSendsNoByteToAClientThatIsNoIwarpPeerAndServesTheNextOverIwarp() throws Exception {
        int port = H2UnderAgentIT.freePort();
        try (AgentJvm server = startGreetingServer("fallback=off", port)) {
            try (Socket silent = plainClient(port)) {
                // After the wait the server's switch fails: its greeting never goes out.
                assertEquals(-1, silent.getInputStream().read(), "closed with no byte sent");
            }
            try (Socket half = plainClient(port)) {
                half.getOutputStream().write("MPA ID Re".getBytes(StandardCharsets.US_ASCII));
                half.shutdownOutput();
                assertEquals(-1, half.getInputStream().read(), "closed with no byte sent");
            }
            Path rules = Files.write(directory.resolve("client.rules"), List.of("iwarp connect 127.0.0.1 " + port));
            AgentJvm client = AgentJvm.start("rules=" + rules + ",log=info", List.of(AgentJvm.locationOf(LineClient.class)),
                    directory, LineClient.class.getName(), "127.0.0.1", String.valueOf(port), PROGRAM_TIMEOUT_MILLIS,
                    "greeting", "hello");
            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertEquals("220 greeting\nHELLO\n", client.stdout(), "a server-speaks-first program over iWARP");
            assertEquals(List.of("extsock agent: 1 iwarp, 0 fell back to tcp, 0 tcp by rule"), client.reportLines());

            server.awaitOutput("served hello", EXIT_LIMIT);
            server.stop(EXIT_LIMIT);
            List<String> printed = server.stdout().lines().toList();
            assertEquals(4, printed.size(), server.toString());
            assertTrue(printed.get(1).startsWith("error: io.extsock.IwarpNegotiationException: IWARP_MODE negotiation"
                    + " failed (TIMEOUT): no MPA Request from the peer within 300 ms (is it in IWARP_MODE?); it sent nothing"),
                    server.toString());
            assertTrue(printed.get(2).startsWith("error: io.extsock.IwarpNegotiationException: IWARP_MODE negotiation"
                    + " failed (NOT_AN_IWARP_PEER): the peer closed the connection before its MPA Request; it sent \"MPA ID"
                    + " Re\""), server.toString());
            assertEquals("served hello", printed.get(3));
            AgentLog log = AgentLog.of(server);
            assertEquals(new AgentLog.Summary(1, 0, 0, 2), log.summary(), server.toString());
            log.assertSummaryCountsTheLines();
        }
    }

    private AgentJvm startGreetingServer(String fallback, int port) throws IOException, InterruptedException {
        Path rules = Files.write(directory.resolve("server.rules"), List.of("iwarp accept * " + port));
        AgentJvm server = AgentJvm.start("rules=" + rules + ",log=debug," + fallback + "," + WAIT,
                List.of(AgentJvm.locationOf(GreetingServer.class)), directory, GreetingServer.class.getName(),
                String.valueOf(port));
        server.awaitOutput("listening on " + port, EXIT_LIMIT);
        return server;
    }

    private static Socket plainClient(int port) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(Integer.parseInt(PROGRAM_TIMEOUT_MILLIS));
        return socket;
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int octet;
        while ((octet = in.read()) >= 0) {
            line.append((char) octet);
            if (octet == '\n') {
                break;
            }
        }
        return line.toString();
    }

    /** Plain connections that fill a listener's accept queue (it never accepts), closed at the end. */
    private static final class Backlog implements AutoCloseable {
        private final List<Socket> queued = new ArrayList<>();

        static Backlog fill(ServerSocket listener) throws IOException {
            Backlog backlog = new Backlog();
            for (int i = 0; i < 64; i++) {
                Socket socket = new Socket();
                try {
                    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort()), 300);
                    backlog.queued.add(socket);
                } catch (SocketTimeoutException full) {
                    socket.close();
                    return backlog;
                }
            }
            backlog.close();
            throw new IllegalStateException("64 connections and the accept queue of backlog 1 is still not full");
        }

        @Override
        public void close() throws IOException {
            for (Socket socket : queued) {
                socket.close();
            }
        }
    }
}

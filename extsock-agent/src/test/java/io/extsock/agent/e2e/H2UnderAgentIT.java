package io.extsock.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * H2's TCP server and H2's own SQL shell (its JDBC client), both unmodified and each in a JVM of
 * its own, under the agent or one of them without it, through a relay that records the first
 * octets of each connection. Both use blocking java.net sockets (H2's NetUtils: {@code new
 * ServerSocket}, {@code new Socket}); H2's client speaks first.
 */
class H2UnderAgentIT {

    private static final Duration START_LIMIT = Duration.ofSeconds(30);
    private static final Duration EXIT_LIMIT = Duration.ofSeconds(30);
    private static final String SQL = "CREATE TABLE T(A INT); INSERT INTO T VALUES (40), (2); SELECT SUM(A) AS TOTAL FROM T";

    @TempDir
    Path directory;

    private final List<Path> h2 = List.of(AgentJvm.locationOf(org.h2.Driver.class));

    @Test
    void aServerUnderAnIwarpRuleServesAClientUnderTheAgentOverIwarpAndAPlainClientOverTcp() throws Exception {
        int serverPort = freePort();
        Path serverRules = rules("server", "iwarp accept * " + serverPort);
        try (AgentJvm server = startServer(serverRules, "debug", serverPort);
             RecordingRelay relay = new RecordingRelay(serverPort)) {
            Path clientRules = rules("client", "tcp connect 10.0.0.0/8 *", "iwarp connect 127.0.0.1 " + relay.port());
            AgentJvm client = runShell(clientRules, "log=info", relay.port());

            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertTrue(client.stdout().contains("TOTAL\n42\n"), client.toString());
            assertEquals(List.of("extsock agent: 1 iwarp, 0 fell back to tcp, 0 tcp by rule"), client.reportLines());

            RecordingRelay.Connection wire = relay.connections().get(0);
            assertEquals(RecordingRelay.MPA_REQUEST_KEY, wire.clientOpening(), "the client's first octets");
            assertEquals(RecordingRelay.MPA_REPLY_KEY, wire.serverOpening(), "the server's first octets");

            // The same server, a client without the agent: H2's client speaks first, so the server's
            // first read finds H2's protocol instead of an MPA Request and goes on as plain TCP.
            AgentJvm plainClient = AgentJvm.withoutAgent(h2, directory, "org.h2.tools.Shell", shellArguments(relay.port()));
            assertEquals(0, plainClient.awaitExit(EXIT_LIMIT), plainClient.toString());
            assertTrue(plainClient.stdout().contains("TOTAL\n42\n"), plainClient.toString());
            assertEquals(List.of(), plainClient.stderrLines(), "no agent, no line");
            RecordingRelay.Connection plainWire = relay.connections().get(1);
            assertNotEquals(RecordingRelay.MPA_REQUEST_KEY, plainWire.clientOpening());
            assertNotEquals(RecordingRelay.MPA_REPLY_KEY, plainWire.serverOpening());
            assertEquals(2, relay.connections().size(), "one connection each");

            server.stop(EXIT_LIMIT);
            AgentLog serverLog = AgentLog.of(server);
            assertEquals("extsock agent: accept from 127.0.0.1:" + wire.portTowardsServer() + " on 127.0.0.1:" + serverPort
                    + ": iwarp, by line 1 'iwarp accept * " + serverPort + "'", serverLog.lineOfPeerPort(wire.portTowardsServer()));
            String fellBack = serverLog.lineOfPeerPort(plainWire.portTowardsServer());
            assertTrue(fellBack.startsWith("extsock agent: accept from 127.0.0.1:" + plainWire.portTowardsServer() + " on 127.0.0.1:"
                    + serverPort + ": fell back to tcp (IWARP_MODE negotiation failed (NOT_AN_IWARP_PEER): the peer's first"
                    + " octets are not the key of an MPA Request (\"MPA ID Req Frame\")"), fellBack);
            assertTrue(fellBack.endsWith(", by line 1 'iwarp accept * " + serverPort + "'"), fellBack);
            // H2 probes its own port (a plain connection, no connect rule) and those fall back too.
            assertEquals(1, serverLog.summary().iwarp(), server.toString());
            assertEquals(serverLog.summary().tcpByRule() + 1, serverLog.summary().fellBack(),
                    "each probe once connected plain, once accepted and fallen back: " + server);
            serverLog.assertSummaryCountsTheLines();
        }
    }

    @Test
    void aClientUnderAnIwarpRuleFallsBackToAPlainServerOrWithFallbackOffFailsSendingNoByteOfItsOwn() throws Exception {
        int serverPort = freePort();
        try (AgentJvm server = startServerWithoutAgent(serverPort);
             RecordingRelay relay = new RecordingRelay(serverPort)) {
            Path clientRules = rules("client", "iwarp connect 127.0.0.1 " + relay.port());

            AgentJvm strictClient = runShell(clientRules, "log=debug,fallback=off", relay.port());
            assertEquals(1, strictClient.awaitExit(EXIT_LIMIT), strictClient.toString());
            assertFalse(strictClient.stdout().contains("TOTAL"), strictClient.toString());
            AgentLog strictLog = AgentLog.of(strictClient);
            strictLog.assertSummaryCountsTheLines();
            // H2's client tries its connect again (h2.socketConnectRetry, 16 by default): each attempt
            // failed at the server's answer to the MPA Request, which is all the server got.
            int attempts = relay.connections().size();
            assertEquals(new AgentLog.Summary(0, 0, 0, attempts), strictLog.summary(), strictClient.toString());
            for (RecordingRelay.Connection attempt : relay.connections()) {
                assertTrue(attempt.clientSentAnMpaRequestAlone(), "attempt from relay port " + attempt.portTowardsServer());
            }
            assertTrue(strictLog.connectionLines().get(0).matches("extsock agent: connect to 127\\.0\\.0\\.1:" + relay.port()
                    + " from 127\\.0\\.0\\.1:[0-9]+: failed, socket closed \\(io\\.extsock\\.IwarpNegotiationException: IWARP_MODE"
                    + " negotiation failed \\(NOT_AN_IWARP_PEER\\): the peer's first octets are not the key of an MPA Reply .*"),
                    strictLog.connectionLines().get(0));

            AgentJvm client = runShell(clientRules, "log=debug", relay.port());
            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertTrue(client.stdout().contains("TOTAL\n42\n"), client.toString());
            AgentLog log = AgentLog.of(client);
            assertEquals(new AgentLog.Summary(0, 1, 0, 0), log.summary(), client.toString());
            log.assertSummaryCountsTheLines();
            List<RecordingRelay.Connection> fallback = relay.connections().subList(attempts, relay.connections().size());
            assertEquals(2, fallback.size(), "the MPA Request's connection and the plain one: " + client);
            assertTrue(fallback.get(0).clientSentAnMpaRequestAlone());
            assertNotEquals(RecordingRelay.MPA_REQUEST_KEY, fallback.get(1).clientOpening(), "H2's protocol");
            assertTrue(log.connectionLines().get(0).matches("extsock agent: connect to 127\\.0\\.0\\.1:" + relay.port()
                    + " from 127\\.0\\.0\\.1:[0-9]+: fell back to tcp \\(IWARP_MODE negotiation failed \\(NOT_AN_IWARP_PEER\\):"
                    + " the peer's first octets are not the key of an MPA Reply .*; reconnected from 127\\.0\\.0\\.1:"
                    + fallback.get(1).clientPort() + "\\), by line 1 'iwarp connect 127\\.0\\.0\\.1 " + relay.port() + "'"),
                    log.connectionLines().get(0));
        }
    }

    @Test
    void tcpRulesAndUnmatchedConnectionsStayPlainTcp() throws Exception {
        int serverPort = freePort();
        Path serverRules = rules("server", "tcp accept * " + serverPort, "iwarp accept * *");
        try (AgentJvm server = startServer(serverRules, "debug", serverPort);
             RecordingRelay relay = new RecordingRelay(serverPort)) {
            Path clientRules = rules("client", "iwarp connect 127.0.0.1 " + (relay.port() == 65535 ? 1 : relay.port() + 1));
            AgentJvm client = runShell(clientRules, "log=debug", relay.port());

            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertTrue(client.stdout().contains("TOTAL\n42\n"), client.toString());
            List<String> clientLog = client.reportLines();
            assertEquals(3, clientLog.size(), client.toString());
            assertTrue(clientLog.get(0).matches("extsock agent: connect to 127\\.0\\.0\\.1:" + relay.port()
                    + " from 127\\.0\\.0\\.1:[0-9]+: tcp, no rule matched"), clientLog.get(0));
            assertEquals("extsock agent: 0 iwarp, 0 fell back to tcp, 1 tcp by rule", clientLog.get(1));
            // Its one iwarp rule names another port: the hint after the summary says what to check.
            assertEquals("extsock agent: no connection matched an iwarp rule: check the rules' hosts and ports against"
                    + " the 1 connection the program made (log=debug prints each)", clientLog.get(2));

            RecordingRelay.Connection wire = relay.connections().get(0);
            assertEquals(16, wire.clientOpening().length(), "H2's client speaks first");
            assertNotEquals(RecordingRelay.MPA_REQUEST_KEY, wire.clientOpening());
            assertNotEquals(RecordingRelay.MPA_REPLY_KEY, wire.serverOpening());

            server.stop(EXIT_LIMIT);
            assertTrue(server.stderrLines().contains("extsock agent: accept from 127.0.0.1:" + wire.portTowardsServer()
                    + " on 127.0.0.1:" + serverPort + ": tcp, by line 1 'tcp accept * " + serverPort + "'"), server.toString());
        }
    }

    private AgentJvm startServer(Path rules, String log, int port) throws IOException, InterruptedException {
        AgentJvm server = AgentJvm.start("rules=" + rules + ",log=" + log, h2, directory, "org.h2.tools.Server",
                "-tcp", "-tcpPort", String.valueOf(port), "-ifNotExists");
        server.awaitOutput("TCP server running at", START_LIMIT);
        return server;
    }

    private AgentJvm startServerWithoutAgent(int port) throws IOException, InterruptedException {
        AgentJvm server = AgentJvm.withoutAgent(h2, directory, "org.h2.tools.Server", "-tcp", "-tcpPort",
                String.valueOf(port), "-ifNotExists");
        server.awaitOutput("TCP server running at", START_LIMIT);
        return server;
    }

    /** H2's shell under the agent, with the rules and more agent arguments ({@code log=debug,...}). */
    private AgentJvm runShell(Path rules, String moreArguments, int port) throws IOException {
        return AgentJvm.start("rules=" + rules + "," + moreArguments, h2, directory, "org.h2.tools.Shell", shellArguments(port));
    }

    private static String[] shellArguments(int port) {
        return new String[] {"-url", "jdbc:h2:tcp://127.0.0.1:" + port + "/mem:agent", "-user", "sa", "-password", "",
            "-sql", SQL};
    }

    private Path rules(String name, String... lines) throws IOException {
        return Files.write(directory.resolve(name + ".rules"), List.of(lines));
    }

    /** A port free a moment ago, for a server that takes its port as an argument. */
    static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }
}

package io.extsock.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * its own under the agent, through a relay that records the first octets of the connection. Both
 * use blocking java.net sockets (H2's NetUtils: {@code new ServerSocket}, {@code new Socket}).
 */
class H2UnderAgentIT {

    private static final Duration START_LIMIT = Duration.ofSeconds(30);
    private static final Duration EXIT_LIMIT = Duration.ofSeconds(30);
    private static final String SQL = "CREATE TABLE T(A INT); INSERT INTO T VALUES (40), (2); SELECT SUM(A) AS TOTAL FROM T";

    @TempDir
    Path directory;

    private final List<Path> h2 = List.of(AgentJvm.locationOf(org.h2.Driver.class));

    @Test
    void iwarpRulesOnBothEndsRunTheQueriesOverIwarp() throws Exception {
        int serverPort = freePort();
        Path serverRules = rules("server", "iwarp accept * " + serverPort);
        try (AgentJvm server = startServer(serverRules, "debug", serverPort);
             RecordingRelay relay = new RecordingRelay(serverPort)) {
            Path clientRules = rules("client", "tcp connect 10.0.0.0/8 *", "iwarp connect 127.0.0.1 " + relay.port());
            AgentJvm client = runShell(clientRules, "info", relay.port());

            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertTrue(client.stdout().contains("TOTAL\n42\n"), client.toString());
            assertEquals(List.of("extsock agent: 1 iwarp, 0 fell back to tcp, 0 tcp by rule"), client.stderrLines());

            RecordingRelay.Connection wire = relay.connections().get(0);
            assertEquals(RecordingRelay.MPA_REQUEST_KEY, wire.clientOpening(), "the client's first octets");
            assertEquals(RecordingRelay.MPA_REPLY_KEY, wire.serverOpening(), "the server's first octets");

            server.stop(EXIT_LIMIT);
            assertTrue(server.stderrLines().contains("extsock agent: accept from 127.0.0.1:" + wire.portTowardsServer()
                    + " on 127.0.0.1:" + serverPort + ": iwarp, by line 1 'iwarp accept * " + serverPort + "'"), server.toString());
        }
    }

    @Test
    void tcpRulesAndUnmatchedConnectionsStayPlainTcp() throws Exception {
        int serverPort = freePort();
        Path serverRules = rules("server", "tcp accept * " + serverPort, "iwarp accept * *");
        try (AgentJvm server = startServer(serverRules, "debug", serverPort);
             RecordingRelay relay = new RecordingRelay(serverPort)) {
            Path clientRules = rules("client", "iwarp connect 127.0.0.1 " + (relay.port() == 65535 ? 1 : relay.port() + 1));
            AgentJvm client = runShell(clientRules, "debug", relay.port());

            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertTrue(client.stdout().contains("TOTAL\n42\n"), client.toString());
            List<String> clientLog = client.stderrLines();
            assertEquals(2, clientLog.size(), client.toString());
            assertTrue(clientLog.get(0).matches("extsock agent: connect to 127\\.0\\.0\\.1:" + relay.port()
                    + " from 127\\.0\\.0\\.1:[0-9]+: tcp, no rule matched"), clientLog.get(0));
            assertEquals("extsock agent: 0 iwarp, 0 fell back to tcp, 1 tcp by rule", clientLog.get(1));

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

    private AgentJvm runShell(Path rules, String log, int port) throws IOException {
        return AgentJvm.start("rules=" + rules + ",log=" + log, h2, directory, "org.h2.tools.Shell",
                "-url", "jdbc:h2:tcp://127.0.0.1:" + port + "/mem:agent", "-user", "sa", "-password", "", "-sql", SQL);
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

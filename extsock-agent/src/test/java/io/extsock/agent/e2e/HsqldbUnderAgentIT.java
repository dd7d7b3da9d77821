package io.extsock.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.agent.e2e.programs.JdbcQuery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HSQLDB's network server (org.hsqldb.server.Server, unmodified) and a plain JDBC program using
 * HSQLDB's driver, each in a JVM of its own under the agent, through a recording relay. Both ends
 * use blocking java.net sockets (HsqlSocketFactory: {@code new ServerSocket}, {@code new Socket}).
 */
class HsqldbUnderAgentIT {

    private static final Duration START_LIMIT = Duration.ofSeconds(30);
    private static final Duration EXIT_LIMIT = Duration.ofSeconds(30);

    @TempDir
    Path directory;

    private final Path hsqldb = AgentJvm.locationOf(org.hsqldb.jdbc.JDBCDriver.class);

    @Test
    void iwarpRulesOnBothEndsRunTheQueriesOverIwarp() throws Exception {
        int serverPort = H2UnderAgentIT.freePort();
        Path serverRules = rules("server", "iwarp accept 127.0.0.0/8 " + (serverPort - 1) + "-" + (serverPort + 1));
        try (AgentJvm server = startServer(serverRules, serverPort);
             RecordingRelay relay = new RecordingRelay(serverPort)) {
            Path clientRules = rules("client", "iwarp connect localhost " + relay.port());
            AgentJvm client = runQuery(clientRules, relay.port());

            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertEquals("3 hsqldb\n", client.stdout(), client.toString());
            List<String> clientLog = client.stderrLines();
            assertEquals(2, clientLog.size(), client.toString());
            assertTrue(clientLog.get(0).matches("extsock agent: connect to 127\\.0\\.0\\.1:" + relay.port()
                    + " from 127\\.0\\.0\\.1:[0-9]+: iwarp, by line 1 'iwarp connect localhost " + relay.port() + "'"),
                    clientLog.get(0));
            assertEquals("extsock agent: 1 iwarp, 0 fell back to tcp, 0 tcp by rule", clientLog.get(1));

            RecordingRelay.Connection wire = relay.connections().get(0);
            assertEquals(RecordingRelay.MPA_REQUEST_KEY, wire.clientOpening(), "the client's first octets");
            assertEquals(RecordingRelay.MPA_REPLY_KEY, wire.serverOpening(), "the server's first octets");

            server.stop(EXIT_LIMIT);
            assertEquals(List.of("extsock agent: accept from 127.0.0.1:" + wire.portTowardsServer() + " on 127.0.0.1:"
                    + serverPort + ": iwarp, by line 1 'iwarp accept 127.0.0.0/8 " + (serverPort - 1) + "-" + (serverPort + 1)
                    + "'", "extsock agent: 1 iwarp, 0 fell back to tcp, 0 tcp by rule"), server.stderrLines());
        }
    }

    @Test
    void tcpRulesOnBothEndsRunTheQueriesOverPlainTcp() throws Exception {
        int serverPort = H2UnderAgentIT.freePort();
        Path serverRules = rules("server", "# plain TCP for this port, iWARP for any other", "tcp accept * " + serverPort,
                "iwarp accept * *");
        try (AgentJvm server = startServer(serverRules, serverPort);
             RecordingRelay relay = new RecordingRelay(serverPort)) {
            Path clientRules = rules("client", "tcp connect 127.0.0.1 *", "iwarp connect * *");
            AgentJvm client = runQuery(clientRules, relay.port());

            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertEquals("3 hsqldb\n", client.stdout(), client.toString());
            assertEquals("extsock agent: 0 iwarp, 0 fell back to tcp, 1 tcp by rule",
                    client.stderrLines().get(client.stderrLines().size() - 1), client.toString());

            RecordingRelay.Connection wire = relay.connections().get(0);
            assertEquals(16, wire.clientOpening().length(), "HSQLDB's client speaks first");
            assertNotEquals(RecordingRelay.MPA_REQUEST_KEY, wire.clientOpening());
            assertNotEquals(RecordingRelay.MPA_REPLY_KEY, wire.serverOpening());

            server.stop(EXIT_LIMIT);
            assertEquals(List.of("extsock agent: accept from 127.0.0.1:" + wire.portTowardsServer() + " on 127.0.0.1:"
                    + serverPort + ": tcp, by line 2 'tcp accept * " + serverPort + "'",
                    "extsock agent: 0 iwarp, 0 fell back to tcp, 1 tcp by rule"), server.stderrLines());
        }
    }

    private AgentJvm startServer(Path rules, int port) throws IOException, InterruptedException {
        AgentJvm server = AgentJvm.start("rules=" + rules + ",log=debug", List.of(hsqldb), directory,
                "org.hsqldb.server.Server", "--database.0", "mem:agent", "--dbname.0", "agent",
                "--address", "127.0.0.1", "--port", String.valueOf(port));
        server.awaitOutput("is online on port " + port, START_LIMIT);
        return server;
    }

    private AgentJvm runQuery(Path rules, int port) throws IOException {
        return AgentJvm.start("rules=" + rules + ",log=debug", List.of(AgentJvm.locationOf(JdbcQuery.class), hsqldb),
                directory, JdbcQuery.class.getName(), "jdbc:hsqldb:hsql://127.0.0.1:" + port + "/agent", "SA", "",
                "CREATE TABLE T(N INT, NAME VARCHAR(20))", "INSERT INTO T VALUES (1, 'hsqldb'), (2, 'hsqldb')",
                "SELECT SUM(N), MAX(NAME) FROM T");
    }

    private Path rules(String name, String... lines) throws IOException {
        return Files.write(directory.resolve(name + ".rules"), List.of(lines));
    }
}

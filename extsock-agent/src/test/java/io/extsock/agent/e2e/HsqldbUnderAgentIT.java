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
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HSQLDB's network server (org.hsqldb.server.Server, unmodified) and a plain JDBC program using
 * HSQLDB's driver, each in a JVM of its own, under the agent or one of them without it, through a
 * recording relay. Both ends use blocking java.net sockets (HsqlSocketFactory: {@code new
 * ServerSocket}, {@code new Socket}); HSQLDB's client speaks first.
 */
class HsqldbUnderAgentIT {

    private static final String UNMATCHED_HINT = "extsock agent: no connection matched an iwarp rule: check the rules'"
            + " hosts and ports against the 1 connection the program made (log=debug prints each)";

    private static final Duration START_LIMIT = Duration.ofSeconds(30);
    private static final Duration EXIT_LIMIT = Duration.ofSeconds(30);

    @TempDir
    Path directory;

    private final Path hsqldb = AgentJvm.locationOf(org.hsqldb.jdbc.JDBCDriver.class);

    @Test
    void aServerUnderAnIwarpRuleServesAClientUnderTheAgentOverIwarpAndAPlainClientOverTcp() throws Exception {
        int serverPort = H2UnderAgentIT.freePort();
        String rule = "iwarp accept 127.0.0.0/8 " + (serverPort - 1) + "-" + (serverPort + 1);
        Path serverRules = rules("server", rule);
        try (AgentJvm server = startServer(serverRules, serverPort);
             RecordingRelay relay = new RecordingRelay(serverPort)) {
            Path clientRules = rules("client", "iwarp connect localhost " + relay.port());
            AgentJvm client = runQuery(clientRules, relay.port(), "T");

            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertEquals("3 hsqldb\n", client.stdout(), client.toString());
            List<String> clientLog = client.reportLines();
            assertEquals(2, clientLog.size(), client.toString());
            assertTrue(clientLog.get(0).matches("extsock agent: connect to 127\\.0\\.0\\.1:" + relay.port()
                    + " from 127\\.0\\.0\\.1:[0-9]+: iwarp, by line 1 'iwarp connect localhost " + relay.port() + "'"),
                    clientLog.get(0));
            assertEquals("extsock agent: 1 iwarp, 0 fell back to tcp, 0 tcp by rule", clientLog.get(1));

            RecordingRelay.Connection wire = relay.connections().get(0);
            assertEquals(RecordingRelay.MPA_REQUEST_KEY, wire.clientOpening(), "the client's first octets");
            assertEquals(RecordingRelay.MPA_REPLY_KEY, wire.serverOpening(), "the server's first octets");

            // The same server, a client without the agent: HSQLDB's client speaks first, so the
            // server's first read finds its handshake instead of an MPA Request and goes on as plain TCP.
            AgentJvm plainClient = AgentJvm.withoutAgent(queryClassPath(), directory, JdbcQuery.class.getName(),
                    queryArguments(relay.port(), "PLAIN"));
            assertEquals(0, plainClient.awaitExit(EXIT_LIMIT), plainClient.toString());
            assertEquals("3 hsqldb\n", plainClient.stdout(), plainClient.toString());
            RecordingRelay.Connection plainWire = relay.connections().get(1);
            assertEquals(2, relay.connections().size(), "one connection each");
            assertNotEquals(RecordingRelay.MPA_REQUEST_KEY, plainWire.clientOpening());
            assertNotEquals(RecordingRelay.MPA_REPLY_KEY, plainWire.serverOpening());

            server.stop(EXIT_LIMIT);
            List<String> serverLog = server.reportLines();
            assertEquals(3, serverLog.size(), server.toString());
            assertEquals("extsock agent: accept from 127.0.0.1:" + wire.portTowardsServer() + " on 127.0.0.1:"
                    + serverPort + ": iwarp, by line 1 '" + rule + "'", serverLog.get(0));
            assertTrue(serverLog.get(1).startsWith("extsock agent: accept from 127.0.0.1:" + plainWire.portTowardsServer()
                    + " on 127.0.0.1:" + serverPort + ": fell back to tcp (IWARP_MODE negotiation failed (NOT_AN_IWARP_PEER):"
                    + " the peer's first octets are not the key of an MPA Request (\"MPA ID Req Frame\")"), serverLog.get(1));
            assertTrue(serverLog.get(1).endsWith("), by line 1 '" + rule + "'"), serverLog.get(1));
            assertEquals("extsock agent: 1 iwarp, 1 fell back to tcp, 0 tcp by rule", serverLog.get(2));
        }
    }

    @Test
    void aClientUnderAnIwarpRuleFallsBackToAPlainServerOrWithFallbackOffFailsSendingNoByteOfItsOwn() throws Exception {
        int serverPort = H2UnderAgentIT.freePort();
        try (AgentJvm server = startServerWithoutAgent(serverPort);
             RecordingRelay relay = new RecordingRelay(serverPort)) {
            Path clientRules = rules("client", "iwarp connect 127.0.0.1 " + relay.port());

            AgentJvm strictClient = AgentJvm.start("rules=" + clientRules + ",log=debug,fallback=off", queryClassPath(),
                    directory, JdbcQuery.class.getName(), queryArguments(relay.port(), "STRICT"));
            assertEquals(1, strictClient.awaitExit(EXIT_LIMIT), strictClient.toString());
            assertEquals("", strictClient.stdout(), strictClient.toString());
            List<String> strictLog = strictClient.reportLines().stream().filter(line -> line.startsWith("extsock agent: "))
                    .collect(Collectors.toList());
            assertEquals(2, strictLog.size(), strictClient.toString());
            // HSQLDB's server closes a connection whose first octets are not its handshake (in order,
            // or with our octets unread: a reset).
            assertTrue(strictLog.get(0).matches("extsock agent: connect to 127\\.0\\.0\\.1:" + relay.port()
                    + " from 127\\.0\\.0\\.1:[0-9]+: failed, socket closed \\(io\\.extsock\\.IwarpNegotiationException:"
                    + " IWARP_MODE negotiation failed \\(CONNECTION_CLOSED\\): the peer closed the connection before its"
                    + " MPA Reply .*\\), by line 1 'iwarp connect 127\\.0\\.0\\.1 " + relay.port() + "'"),
                    strictLog.get(0));
            assertEquals("extsock agent: 0 iwarp, 0 fell back to tcp, 0 tcp by rule, 1 failed", strictLog.get(1));
            assertEquals(1, relay.connections().size(), strictClient.toString());
            assertTrue(relay.connections().get(0).clientSentAnMpaRequestAlone(), "no byte of the program's");

            AgentJvm client = runQuery(clientRules, relay.port(), "T");
            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertEquals("3 hsqldb\n", client.stdout(), client.toString());
            List<RecordingRelay.Connection> fallback = relay.connections().subList(1, relay.connections().size());
            assertEquals(2, fallback.size(), "the MPA Request's connection and the plain one: " + client);
            assertTrue(fallback.get(0).clientSentAnMpaRequestAlone());
            assertNotEquals(RecordingRelay.MPA_REQUEST_KEY, fallback.get(1).clientOpening(), "HSQLDB's handshake");
            List<String> log = client.reportLines();
            assertEquals(2, log.size(), client.toString());
            assertTrue(log.get(0).matches("extsock agent: connect to 127\\.0\\.0\\.1:" + relay.port() + " from 127\\.0\\.0\\.1:"
                    + fallback.get(0).clientPort() + ": fell back to tcp \\(IWARP_MODE negotiation failed \\(CONNECTION_CLOSED\\):"
                    + " the peer closed the connection before its MPA Reply .*; reconnected from"
                    + " 127\\.0\\.0\\.1:" + fallback.get(1).clientPort() + "\\), by line 1 'iwarp connect 127\\.0\\.0\\.1 "
                    + relay.port() + "'"), log.get(0));
            assertEquals("extsock agent: 0 iwarp, 1 fell back to tcp, 0 tcp by rule", log.get(1));
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
            AgentJvm client = runQuery(clientRules, relay.port(), "T");

            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertEquals("3 hsqldb\n", client.stdout(), client.toString());
            List<String> clientLog = client.reportLines();
            // Its iwarp rule comes after the tcp rule that takes every connection here: it matched
            // none, and the hint after the summary says so.
            assertEquals(List.of("extsock agent: 0 iwarp, 0 fell back to tcp, 1 tcp by rule", UNMATCHED_HINT),
                    clientLog.subList(clientLog.size() - 2, clientLog.size()), client.toString());

            RecordingRelay.Connection wire = relay.connections().get(0);
            assertEquals(16, wire.clientOpening().length(), "HSQLDB's client speaks first");
            assertNotEquals(RecordingRelay.MPA_REQUEST_KEY, wire.clientOpening());
            assertNotEquals(RecordingRelay.MPA_REPLY_KEY, wire.serverOpening());

            server.stop(EXIT_LIMIT);
            assertEquals(List.of("extsock agent: accept from 127.0.0.1:" + wire.portTowardsServer() + " on 127.0.0.1:"
                    + serverPort + ": tcp, by line 2 'tcp accept * " + serverPort + "'",
                    "extsock agent: 0 iwarp, 0 fell back to tcp, 1 tcp by rule", UNMATCHED_HINT), server.reportLines());
        }
    }

    private AgentJvm startServer(Path rules, int port) throws IOException, InterruptedException {
        AgentJvm server = AgentJvm.start("rules=" + rules + ",log=debug", List.of(hsqldb), directory,
                "org.hsqldb.server.Server", "--database.0", "mem:agent", "--dbname.0", "agent",
                "--address", "127.0.0.1", "--port", String.valueOf(port));
        server.awaitOutput("is online on port " + port, START_LIMIT);
        return server;
    }

    private AgentJvm startServerWithoutAgent(int port) throws IOException, InterruptedException {
        AgentJvm server = AgentJvm.withoutAgent(List.of(hsqldb), directory, "org.hsqldb.server.Server", "--database.0",
                "mem:agent", "--dbname.0", "agent", "--address", "127.0.0.1", "--port", String.valueOf(port));
        server.awaitOutput("is online on port " + port, START_LIMIT);
        return server;
    }

    private AgentJvm runQuery(Path rules, int port, String table) throws IOException {
        return AgentJvm.start("rules=" + rules + ",log=debug", queryClassPath(), directory, JdbcQuery.class.getName(),
                queryArguments(port, table));
    }

    private List<Path> queryClassPath() {
        return List.of(AgentJvm.locationOf(JdbcQuery.class), hsqldb);
    }

    /** Creates the table (each client its own: the database lives as long as the server), fills it, sums it. */
    private static String[] queryArguments(int port, String table) {
        return new String[] {"jdbc:hsqldb:hsql://127.0.0.1:" + port + "/agent", "SA", "",
            "CREATE TABLE " + table + "(N INT, NAME VARCHAR(20))", "INSERT INTO " + table + " VALUES (1, 'hsqldb'), (2, 'hsqldb')",
            "SELECT SUM(N), MAX(NAME) FROM " + table};
    }

    private Path rules(String name, String... lines) throws IOException {
        return Files.write(directory.resolve(name + ".rules"), List.of(lines));
    }
}

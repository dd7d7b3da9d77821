package io.extsock.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.extsock.agent.e2e.programs.LineClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the agent says of itself under log=info: one line at start, before the program runs (the
 * rules file and its rules, fallback, what is hooked), so that an agent that loaded and matched
 * nothing does not look like one that never loaded; and at exit, after the totals, a hint when
 * its iwarp rules matched no connection at all. The program is {@link LineClient}, talking to a
 * plain line server in the test's JVM.
 */
class AgentStartAndExitLinesIT {

    private static final Duration EXIT_LIMIT = Duration.ofSeconds(60);
    private static final String PROGRAM_TIMEOUT_MILLIS = "10000";

    @TempDir
    Path directory;

    @Test
    void aLoadedAgentWhoseIwarpRuleMatchesNothingSaysItStartedAndHintsWhatToCheck() throws Exception {
        try (FaultServer server = new FaultServer(FaultServer.FirstConnection.SILENT)) {
            // The rule names a port the program never connects to: a typo a user makes.
            Path rules = Files.write(directory.resolve("typo.rules"), List.of("# the database",
                    "iwarp connect 127.0.0.1 " + otherThan(server.port()), "tcp accept * *"));
            AgentJvm client = runClient("rules=" + rules + ",log=info,fallback-wait=300", server.port());
            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertEquals("HELLO\n", client.stdout(), client.toString());
            assertEquals(List.of(
                    "extsock agent: rules " + rules + " (2 rules: 1 iwarp, 1 tcp), fallback on, fallback-wait 300 ms,"
                            + " converting java.net.Socket, java.net.ServerSocket and NIO socket channels",
                    "extsock agent: 0 iwarp, 0 fell back to tcp, 1 tcp by rule",
                    "extsock agent: no connection matched an iwarp rule: check the rules' hosts and ports against the 1"
                            + " connection the program made (log=debug prints each)"), client.stderrLines());
            assertEquals(1, server.connections().size(), "plain TCP, one connection: " + client);
        }
    }

    @Test
    void aMatchedIwarpRuleGetsNoHintAndTheStartLineSaysFallbackOff() throws Exception {
        try (FaultServer server = new FaultServer(FaultServer.FirstConnection.SILENT)) {
            Path rules = Files.write(directory.resolve("server.rules"), List.of("iwarp connect 127.0.0.1 *"));
            AgentJvm client = runClient("rules=" + rules + ",log=info,fallback=off,fallback-wait=300", server.port());
            assertEquals(1, client.awaitExit(EXIT_LIMIT), "a plain server, fallback off: the connect fails " + client);
            assertEquals(List.of(
                    "extsock agent: rules " + rules + " (1 rule: 1 iwarp, 0 tcp), fallback off, fallback-wait 300 ms,"
                            + " converting java.net.Socket, java.net.ServerSocket and NIO socket channels",
                    "extsock agent: 0 iwarp, 0 fell back to tcp, 0 tcp by rule, 1 failed"), client.stderrLines());
        }
    }

    @Test
    void logOffPrintsNothingAtStartOrExit() throws Exception {
        try (FaultServer server = new FaultServer(FaultServer.FirstConnection.SILENT)) {
            Path rules = Files.write(directory.resolve("typo.rules"),
                    List.of("iwarp connect 127.0.0.1 " + otherThan(server.port())));
            AgentJvm client = runClient("rules=" + rules, server.port());
            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertEquals("HELLO\n", client.stdout(), client.toString());
            assertEquals(List.of(), client.stderrLines(), "log=off is the default");
        }
    }

    private AgentJvm runClient(String agentArguments, int port) throws Exception {
        return AgentJvm.start(agentArguments, List.of(AgentJvm.locationOf(LineClient.class)), directory,
                LineClient.class.getName(), "127.0.0.1", String.valueOf(port), PROGRAM_TIMEOUT_MILLIS, "no-greeting",
                "hello");
    }

    private static int otherThan(int port) {
        return port == 65535 ? 1 : port + 1;
    }
}

package io.extsock.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.agent.e2e.programs.NioEcho;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An unmodified NIO program under the agent ({@link NioEcho}: a selector server and a blocking
 * client, both opened the JDK's way): its channels are extsock's, an iwarp rule switches them,
 * and a plain peer makes the client fall back, as for java.net sockets.
 */
class NioUnderAgentIT {

    private static final Duration EXIT_LIMIT = Duration.ofSeconds(60);
    private static final String BYTES = "100000";

    @TempDir
    Path directory;

    @Test
    void bothEndsOnChannelsRunIwarpUnderIwarpRules() throws Exception {
        Path rules = Files.write(directory.resolve("nio.rules"), List.of("iwarp connect 127.0.0.1 *", "iwarp accept * *"));
        AgentJvm program = AgentJvm.start("rules=" + rules + ",log=info", List.of(AgentJvm.locationOf(NioEcho.class)),
                directory, NioEcho.class.getName(), "both", BYTES);
        assertEquals(0, program.awaitExit(EXIT_LIMIT), program.toString());
        assertTrue(program.stdout().contains("ECHOED " + BYTES + " on io.extsock.internal.nio.SwitchableSocketChannel"),
                program.toString());
        AgentLog log = AgentLog.of(program);
        assertEquals(new AgentLog.Summary(2, 0, 0, 0), log.summary(), "both ends switched: " + program);
    }

    @Test
    void aClientOnChannelsFallsBackToAPlainServer() throws Exception {
        try (AgentJvm server = AgentJvm.withoutAgent(List.of(AgentJvm.locationOf(NioEcho.class)), directory,
                NioEcho.class.getName(), "server")) {
            server.awaitOutput("PORT ", EXIT_LIMIT);
            String port = server.stdout().lines().filter(line -> line.startsWith("PORT ")).findFirst().orElseThrow()
                    .substring(5);
            Path rules = Files.write(directory.resolve("client.rules"), List.of("iwarp connect 127.0.0.1 *"));
            AgentJvm client = AgentJvm.start("rules=" + rules + ",log=info,fallback-wait=300",
                    List.of(AgentJvm.locationOf(NioEcho.class)), directory, NioEcho.class.getName(), "client", port,
                    BYTES);
            assertEquals(0, client.awaitExit(EXIT_LIMIT), client + "\n" + server);
            assertTrue(client.stdout().contains("ECHOED " + BYTES), client.toString());
            assertEquals(new AgentLog.Summary(0, 1, 0, 0), AgentLog.of(client).summary(), client.toString());
        }
    }
}

package io.extsock.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.extsock.agent.e2e.programs.GreetingServer;
import io.extsock.agent.e2e.programs.LineClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sockets that programs take from {@code javax.net.SocketFactory.getDefault()} and {@code
 * ServerSocketFactory.getDefault()}, as libraries that accept a factory make theirs: both ends,
 * each in a JVM of its own under an {@code iwarp} rule, run iWARP (the MPA Request and Reply on the
 * wire, at the recording relay between them) and their conversation goes through.
 */
class SocketFactoriesUnderAgentIT {

    private static final Duration LIMIT = Duration.ofSeconds(30);

    @TempDir
    Path directory;

    @Test
    void theDefaultFactoriesSocketsRunIwarpUnderIwarpRules() throws Exception {
        int port = H2UnderAgentIT.freePort();
        Path serverRules = Files.write(directory.resolve("server.rules"), List.of("iwarp accept * " + port));
        try (AgentJvm server = AgentJvm.start("rules=" + serverRules + ",log=debug,fallback=off",
                     List.of(AgentJvm.locationOf(GreetingServer.class)), directory, GreetingServer.class.getName(),
                     String.valueOf(port), "factory");
             RecordingRelay relay = new RecordingRelay(port)) {
            server.awaitOutput("listening on " + port, LIMIT);
            Path clientRules = Files.write(directory.resolve("client.rules"), List.of("iwarp connect 127.0.0.1 *"));
            AgentJvm client = AgentJvm.start("rules=" + clientRules + ",log=info,fallback=off",
                    List.of(AgentJvm.locationOf(LineClient.class)), directory, LineClient.class.getName(), "127.0.0.1",
                    String.valueOf(relay.port()), "10000", "greeting", "hello", "factory");

            assertEquals(0, client.awaitExit(LIMIT), client.toString());
            assertEquals("220 greeting\nHELLO\n", client.stdout(), client.toString());
            assertEquals(List.of("extsock agent: 1 iwarp, 0 fell back to tcp, 0 tcp by rule"), client.reportLines());

            RecordingRelay.Connection wire = relay.connections().get(0);
            assertEquals(RecordingRelay.MPA_REQUEST_KEY, wire.clientOpening(), "the client's first octets");
            assertEquals(RecordingRelay.MPA_REPLY_KEY, wire.serverOpening(), "the server's first octets");

            server.stop(LIMIT);
            assertEquals("extsock agent: accept from 127.0.0.1:" + wire.portTowardsServer() + " on 127.0.0.1:" + port
                    + ": iwarp, by line 1 'iwarp accept * " + port + "'",
                    AgentLog.of(server).lineOfPeerPort(wire.portTowardsServer()));
        }
    }
}

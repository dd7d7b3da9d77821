package io.extsock.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.agent.e2e.programs.JmxRuntimePid;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JDK's own JMX agent, reached over RMI: a JVM started with {@code
 * -Dcom.sun.management.jmxremote.port} (running H2's server, as any program) and a JMX client in
 * another JVM, both under the agent. The JMX agent opens its RMI server socket while the JVM
 * starts, after premain: it is converted too. The registry lookup goes through the recording
 * relay; the JMX calls then go straight to the port the stub names.
 */
class JmxOverRmiUnderAgentIT {

    private static final Duration START_LIMIT = Duration.ofSeconds(30);
    private static final Duration EXIT_LIMIT = Duration.ofSeconds(30);
    private static final Pattern SUMMARY = Pattern.compile("extsock agent: ([0-9]+) iwarp, 0 fell back to tcp, 0 tcp by rule");

    @TempDir
    Path directory;

    @Test
    void jmxOverRmiRunsOverIwarpOnBothEnds() throws Exception {
        int jmxPort = H2UnderAgentIT.freePort();
        Path serverRules = Files.write(directory.resolve("server.rules"), List.of("iwarp accept * " + jmxPort));
        List<String> jmx = List.of("-Dcom.sun.management.jmxremote.port=" + jmxPort,
                "-Dcom.sun.management.jmxremote.rmi.port=" + jmxPort,
                "-Dcom.sun.management.jmxremote.authenticate=false", "-Dcom.sun.management.jmxremote.ssl=false",
                "-Djava.rmi.server.hostname=127.0.0.1");
        try (AgentJvm server = AgentJvm.start("rules=" + serverRules + ",log=debug", jmx,
                     List.of(AgentJvm.locationOf(org.h2.Driver.class)), directory, "org.h2.tools.Server",
                     "-tcp", "-tcpPort", String.valueOf(H2UnderAgentIT.freePort()));
             RecordingRelay relay = new RecordingRelay(jmxPort)) {
            server.awaitOutput("TCP server running at", START_LIMIT);
            Path clientRules = Files.write(directory.resolve("client.rules"), List.of("iwarp connect 127.0.0.1 *"));
            AgentJvm client = AgentJvm.start("rules=" + clientRules + ",log=debug",
                    List.of(AgentJvm.locationOf(JmxRuntimePid.class)), directory, JmxRuntimePid.class.getName(),
                    String.valueOf(relay.port()));

            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertEquals(server.pid() + "\n", client.stdout(), "the server JVM's own process id, read over JMX");
            List<String> clientLog = client.stderrLines();
            Matcher summary = SUMMARY.matcher(clientLog.get(clientLog.size() - 1));
            assertTrue(summary.matches(), client.toString());
            List<String> connections = clientLog.subList(0, clientLog.size() - 1);
            assertEquals(Integer.parseInt(summary.group(1)), connections.size(), client.toString());
            assertTrue(connections.stream().anyMatch(line -> line.startsWith("extsock agent: connect to 127.0.0.1:"
                    + relay.port() + " from ")), "the registry lookup, through the relay: " + client);
            for (String line : connections) {
                assertTrue(line.endsWith(": iwarp, by line 1 'iwarp connect 127.0.0.1 *'"), line);
            }

            RecordingRelay.Connection lookup = relay.connections().get(0);
            assertEquals(RecordingRelay.MPA_REQUEST_KEY, lookup.clientOpening(), "the client's first octets");
            assertEquals(RecordingRelay.MPA_REPLY_KEY, lookup.serverOpening(), "the server's first octets");

            server.stop(EXIT_LIMIT);
            assertTrue(server.stderrLines().contains("extsock agent: accept from 127.0.0.1:" + lookup.portTowardsServer()
                    + " on 127.0.0.1:" + jmxPort + ": iwarp, by line 1 'iwarp accept * " + jmxPort + "'"), server.toString());
        }
    }
}

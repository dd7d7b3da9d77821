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
 * relay; the JMX calls then go straight to the port the stub names. One end at a time also runs
 * without the agent. RMI's client speaks first.
 */
class JmxOverRmiUnderAgentIT {

    private static final Duration START_LIMIT = Duration.ofSeconds(30);
    private static final Duration EXIT_LIMIT = Duration.ofSeconds(30);
    private static final Pattern SUMMARY = Pattern.compile("extsock agent: ([0-9]+) iwarp, 0 fell back to tcp, 0 tcp by rule");

    @TempDir
    Path directory;

    @Test
    void aJmxAgentUnderAnIwarpRuleServesAClientUnderTheAgentOverIwarpAndAPlainClientOverTcp() throws Exception {
        int jmxPort = H2UnderAgentIT.freePort();
        Path serverRules = Files.write(directory.resolve("server.rules"), List.of("iwarp accept * " + jmxPort));
        try (AgentJvm server = AgentJvm.start("rules=" + serverRules + ",log=debug", jmxOptions(jmxPort),
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
            List<String> clientLog = client.reportLines();
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

            // The same server, a JMX client without the agent: RMI's client speaks first (JRMI), so
            // the server's first read finds it instead of an MPA Request and goes on as plain TCP.
            AgentJvm plainClient = AgentJvm.withoutAgent(List.of(AgentJvm.locationOf(JmxRuntimePid.class)), directory,
                    JmxRuntimePid.class.getName(), String.valueOf(relay.port()));
            assertEquals(0, plainClient.awaitExit(EXIT_LIMIT), plainClient.toString());
            assertEquals(server.pid() + "\n", plainClient.stdout(), plainClient.toString());
            RecordingRelay.Connection plainLookup = relay.connections().get(1);
            assertEquals("JRMI", plainLookup.clientOpening().substring(0, 4), "RMI's own protocol on the wire");

            server.stop(EXIT_LIMIT);
            AgentLog serverLog = AgentLog.of(server);
            assertEquals("extsock agent: accept from 127.0.0.1:" + lookup.portTowardsServer() + " on 127.0.0.1:" + jmxPort
                    + ": iwarp, by line 1 'iwarp accept * " + jmxPort + "'", serverLog.lineOfPeerPort(lookup.portTowardsServer()));
            assertTrue(serverLog.lineOfPeerPort(plainLookup.portTowardsServer()).startsWith("extsock agent: accept from 127.0.0.1:"
                    + plainLookup.portTowardsServer() + " on 127.0.0.1:" + jmxPort + ": fell back to tcp (IWARP_MODE negotiation"
                    + " failed (NOT_AN_IWARP_PEER): the peer's first octets are not the key of an MPA Request (\"MPA ID Req"
                    + " Frame\"): \"JRMI"), serverLog.toString());
            // As many iWARP connections as the iWARP client made; the plain client's all fell back.
            assertEquals(Integer.parseInt(summary.group(1)), serverLog.summary().iwarp(), server.toString());
            assertTrue(serverLog.summary().fellBack() >= 1, server.toString());
            assertEquals(0, serverLog.summary().failed(), server.toString());
            serverLog.assertSummaryCountsTheLines();
        }
    }

    @Test
    void aJmxClientUnderAnIwarpRuleFallsBackToAPlainJmxAgentOrWithFallbackOffFailsSendingNoByteOfItsOwn()
            throws Exception {
        int jmxPort = H2UnderAgentIT.freePort();
        try (AgentJvm server = AgentJvm.withoutAgent(jmxOptions(jmxPort), List.of(AgentJvm.locationOf(org.h2.Driver.class)),
                     directory, "org.h2.tools.Server", "-tcp", "-tcpPort", String.valueOf(H2UnderAgentIT.freePort()));
             RecordingRelay relay = new RecordingRelay(jmxPort)) {
            server.awaitOutput("TCP server running at", START_LIMIT);
            Path clientRules = Files.write(directory.resolve("client.rules"), List.of("iwarp connect 127.0.0.1 *"));

            AgentJvm strictClient = runClient("rules=" + clientRules + ",log=debug,fallback=off", relay.port());
            assertEquals(1, strictClient.awaitExit(EXIT_LIMIT), strictClient.toString());
            assertEquals("", strictClient.stdout(), strictClient.toString());
            AgentLog strictLog = AgentLog.of(strictClient);
            assertEquals(new AgentLog.Summary(0, 0, 0, 1), strictLog.summary(), strictClient.toString());
            strictLog.assertSummaryCountsTheLines();
            // RMI's server closes a connection that does not open with JRMI.
            assertTrue(strictLog.connectionLines().get(0).startsWith("extsock agent: connect to 127.0.0.1:" + relay.port()
                    + " from 127.0.0.1:" + relay.connections().get(0).clientPort() + ": failed, socket closed"
                    + " (io.extsock.IwarpNegotiationException: IWARP_MODE negotiation failed (CONNECTION_CLOSED): the peer"
                    + " closed the connection before its MPA Reply"), strictLog.connectionLines().get(0));
            assertEquals(1, relay.connections().size(), strictClient.toString());
            assertTrue(relay.connections().get(0).clientSentAnMpaRequestAlone(), "no byte of the program's");

            AgentJvm client = runClient("rules=" + clientRules + ",log=debug", relay.port());
            assertEquals(0, client.awaitExit(EXIT_LIMIT), client.toString());
            assertEquals(server.pid() + "\n", client.stdout(), "the server JVM's own process id, read over JMX");
            AgentLog log = AgentLog.of(client);
            log.assertSummaryCountsTheLines();
            // The registry lookup through the relay, and the JMX calls straight to the port its stub names: each fell back.
            assertEquals(0, log.summary().iwarp(), client.toString());
            assertEquals(0, log.summary().failed(), client.toString());
            assertTrue(log.summary().fellBack() >= 1, client.toString());
            List<RecordingRelay.Connection> lookup = relay.connections().subList(1, relay.connections().size());
            assertEquals(2, lookup.size(), "the MPA Request's connection and the plain one: " + client);
            assertTrue(lookup.get(0).clientSentAnMpaRequestAlone());
            assertEquals("JRMI", lookup.get(1).clientOpening().substring(0, 4));
            assertTrue(log.lineOfPeerPort(relay.port()).endsWith("; reconnected from 127.0.0.1:" + lookup.get(1).clientPort()
                    + "), by line 1 'iwarp connect 127.0.0.1 *'"), log.lineOfPeerPort(relay.port()));
        }
    }

    private AgentJvm runClient(String agentArguments, int port) throws java.io.IOException {
        return AgentJvm.start(agentArguments, List.of(AgentJvm.locationOf(JmxRuntimePid.class)), directory,
                JmxRuntimePid.class.getName(), String.valueOf(port));
    }

    /** The JDK's JMX agent on the port (registry and RMI server both), without security: a test on loopback. */
    private static List<String> jmxOptions(int jmxPort) {
        return List.of("-Dcom.sun.management.jmxremote.port=" + jmxPort, "-Dcom.sun.management.jmxremote.rmi.port=" + jmxPort,
                "-Dcom.sun.management.jmxremote.authenticate=false", "-Dcom.sun.management.jmxremote.ssl=false",
                "-Djava.rmi.server.hostname=127.0.0.1");
    }
}

package io.extsock.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the agent's fallback costs a program that connects, under an {@code iwarp} rule, to a plain
 * server: connect-to-first-byte time ({@link FirstByteWorkload}, a JVM per run) against two plain
 * servers in this JVM, one that greets first (it answers the MPA Request with its greeting: the
 * initiator falls back at once) and one that waits for its client (silent to the MPA Request: the
 * initiator falls back after the wait), each without the agent, under a {@code tcp} rule, and
 * under an {@code iwarp} rule with the default wait and a shorter one; and the connections each
 * server accepted per connection the program made. The first connection of each run (class
 * loading, JIT) is left out. A measurement, not a test: nothing here passes or fails.
 *
 * <pre>
 * mvn -q -DskipTests package -pl extsock-bench,extsock-agent -am
 * java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*' io.extsock.bench.AgentFallbackCost \
 *     [connections=10] [agent-jar=extsock-agent/target/extsock-agent.jar]
 * </pre>
 */
public final class AgentFallbackCost {

    private AgentFallbackCost() {
    }

    public static void main(String[] args) throws Exception {
        int connections = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        Path agentJar = Path.of(args.length > 1 ? args[1] : "extsock-agent/target/extsock-agent.jar").toAbsolutePath();
        if (!Files.isRegularFile(agentJar)) {
            throw new IllegalArgumentException("no agent jar at " + agentJar + ": mvn -q -DskipTests package -pl extsock-agent -am");
        }
        Path tcpRules = Files.createTempFile("tcp", ".rules");
        Files.write(tcpRules, List.of("tcp connect * *"));
        Path iwarpRules = Files.createTempFile("iwarp", ".rules");
        Files.write(iwarpRules, List.of("iwarp connect 127.0.0.1 *"));
        String[][] variants = {
            {"no agent", null},
            {"agent, tcp rule", "rules=" + tcpRules},
            {"agent, iwarp rule, fallback-wait=1000 (default)", "rules=" + iwarpRules},
            {"agent, iwarp rule, fallback-wait=250", "rules=" + iwarpRules + ",fallback-wait=250"},
        };
        System.out.printf("Agent fallback cost: connect to first octet from a plain server, %d connections a run after"
                + " one left out, Java %s%n%n", connections, Runtime.version());
        System.out.printf("%-28s %-48s %12s %12s %12s  %s%n", "plain server", "client", "median ms", "min ms", "max ms",
                "accepted per connection");
        try (PlainServer greets = new PlainServer(true); PlainServer waits = new PlainServer(false)) {
            for (PlainServer server : List.of(greets, waits)) {
                for (String[] variant : variants) {
                    int acceptedBefore = server.accepted();
                    List<String> lines = ChildJvm.run(agentJar, variant[1], FirstByteWorkload.class,
                            String.valueOf(server.port()), server.greetsFirst ? "greets-first" : "waits-for-client",
                            String.valueOf(connections + 1));
                    double[] times = lines.stream().filter(line -> line.startsWith("first_byte_ms "))
                            .skip(1).mapToDouble(line -> Double.parseDouble(line.substring(14))).toArray();
                    double acceptedPerConnection = (server.accepted() - acceptedBefore) / (double) (connections + 1);
                    System.out.printf("%-28s %-48s %12.2f %12.2f %12.2f  %.2f%n",
                            server.greetsFirst ? "greets first" : "waits for its client", variant[0], Stats.median(times),
                            Stats.percentile(times, 0), Stats.percentile(times, 100), acceptedPerConnection);
                }
            }
        }
        Files.delete(tcpRules);
        Files.delete(iwarpRules);
    }

    /**
     * A plain server on 127.0.0.1 that counts the connections it accepted: one that greets first
     * ({@code 220 ready}), or one that answers {@code OK} once its client sent a line, and says
     * nothing to anything else. Each connection is read to its end.
     */
    private static final class PlainServer implements AutoCloseable {
        private final ServerSocket listener;
        private final boolean greetsFirst;
        private final AtomicInteger accepted = new AtomicInteger();

        PlainServer(boolean greetsFirst) throws IOException {
            this.greetsFirst = greetsFirst;
            this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread acceptor = new Thread(this::acceptLoop, "plain-server");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return listener.getLocalPort();
        }

        int accepted() {
            return accepted.get();
        }

        private void acceptLoop() {
            while (!listener.isClosed()) {
                try {
                    Socket connection = listener.accept();
                    accepted.incrementAndGet();
                    Thread serve = new Thread(() -> serve(connection), "plain-connection");
                    serve.setDaemon(true);
                    serve.start();
                } catch (IOException e) {
                    return;  // closed
                }
            }
        }

        private void serve(Socket connection) {
            try (connection) {
                if (greetsFirst) {
                    connection.getOutputStream().write("220 ready\n".getBytes(StandardCharsets.US_ASCII));
                }
                InputStream in = connection.getInputStream();
                StringBuilder line = new StringBuilder();
                int octet;
                while ((octet = in.read()) >= 0) {
                    line.append((char) octet);
                    if (!greetsFirst && line.toString().equals("hello\n")) {
                        connection.getOutputStream().write("OK\n".getBytes(StandardCharsets.US_ASCII));
                    }
                }
            } catch (IOException e) {
                // the client gave the connection up
            }
        }

        @Override
        public void close() throws IOException {
            listener.close();
        }
    }
}

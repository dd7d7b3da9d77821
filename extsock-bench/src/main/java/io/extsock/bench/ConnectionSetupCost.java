package io.extsock.bench;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * What setting up one connection costs, plain {@code java.net.Socket} against IWARP_MODE (each
 * accepted socket negotiating on its first use, and with {@code NEGOTIATE_BEFORE_ACCEPT}), in
 * alternating rounds: the client thread connects, does one 64-byte round trip and closes, the
 * server thread accepts each connection and serves it itself, so that no thread start is in what
 * is measured. Two values a connection: the CPU time of every thread (both ends, the engine's
 * threads, the kernel work done for them) and the wall-clock time.
 *
 * <p>Run: {@code java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.ConnectionSetupCost [--quick]}
 */
public final class ConnectionSetupCost {

    /** Connections of a full round: about a tenth of a second in IWARP_MODE. */
    private static final int FULL_CONNECTIONS = 1_000;
    private static final int SIZE = 64;

    private ConnectionSetupCost() {
    }

    public static void main(String[] args) throws Exception {
        RunLength length = RunLength.of(args);
        int connections = length.iterations(FULL_CONNECTIONS);
        System.out.printf("connect + one %d B round trip + close, java.net.Socket vs IWARP_MODE, %d alternating rounds"
                + " of %d connections (+%d warm-up), Java %s%n%n", SIZE, length.rounds(), connections,
                length.warmupRounds(), Runtime.version());
        System.out.printf("%-28s %-18s %16s %16s %8s %-17s%n", "IWARP_MODE accepted", "measure", "java.net.Socket",
                "IWARP_MODE", "ratio", " (95% interval)");
        for (boolean beforeAccept : new boolean[] {false, true}) {
            try (ServerSocket plain = listening(false, false); ServerSocket iwarp = listening(true, beforeAccept)) {
                for (boolean cpu : new boolean[] {true, false}) {
                    PairedComparison comparison = new PairedComparison(length.warmupRounds(), length.rounds());
                    PairedComparison.Result result = comparison.compare(cpu ? "CPU a connection" : "wall a connection",
                            PairedComparison.label(SIZE), "us", false, setups(plain, false, connections, cpu),
                            setups(iwarp, true, connections, cpu));
                    double[] interval = result.ratioInterval();
                    System.out.printf("%-28s %-18s %13.1f us %13.1f us %8.3f  [%.3f, %.3f]%n",
                            beforeAccept ? "negotiated before accept" : "negotiated on first use", result.test(),
                            result.baselineMedian(), result.candidateMedian(), result.ratio(), interval[0],
                            interval[1]);
                }
            }
        }
    }

    static ServerSocket listening(boolean iwarp, boolean beforeAccept) throws IOException {
        ServerSocket server = iwarp ? new ExtendedServerSocket() : new ServerSocket();
        if (iwarp) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            server.setOption(IwarpOptions.NEGOTIATE_BEFORE_ACCEPT, beforeAccept);
        }
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
        return server;
    }

    /** Rounds of {@code connections} setups; a round's value is microseconds a connection, of CPU or wall clock. */
    private static Contender setups(ServerSocket server, boolean iwarp, int connections, boolean cpu) {
        ThreadCpu threads = new ThreadCpu();
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
        return new Contender() {
            public void serve(int round) throws IOException {
                byte[] message = new byte[SIZE];
                for (int i = 0; i < connections; i++) {
                    serveOne(server, message);
                }
            }

            public double run(int round) throws IOException {
                byte[] message = new byte[SIZE];
                long start = System.nanoTime();
                threads.start();
                for (int i = 0; i < connections; i++) {
                    connectOnce(address, iwarp, 10_000, message);
                }
                long nanos = cpu ? threads.elapsedNanos() : System.nanoTime() - start;
                return nanos / 1_000.0 / connections;
            }
        };
    }

    /** The server's part of one setup: accept, answer the message, and see the client close. */
    static void serveOne(ServerSocket server, byte[] message) throws IOException {
        try (Socket accepted = server.accept()) {
            accepted.setTcpNoDelay(true);
            InputStream in = accepted.getInputStream();
            StreamRounds.readFully(in, message, message.length);
            accepted.getOutputStream().write(message);
            if (in.read() >= 0) {
                throw new IOException("the client sent more than its message");
            }
        }
    }

    /**
     * The client's part of one setup: connect (with a timeout, unless {@code connectMillis} is
     * 0), one round trip of the message, close.
     */
    static void connectOnce(InetSocketAddress address, boolean iwarp, int connectMillis, byte[] message)
            throws IOException {
        try (Socket client = iwarp ? new ExtendedSocket() : new Socket()) {
            client.setTcpNoDelay(true);
            if (iwarp) {
                client.setOption(IwarpOptions.IWARP_MODE, true);
            }
            client.connect(address, connectMillis);
            client.getOutputStream().write(message);
            StreamRounds.readFully(client.getInputStream(), message, message.length);
        }
    }
}

package io.extsock.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * {@link ConnectionSetupCost}'s setup (connect, one 64-byte round trip, close), for one kind of
 * socket only, over and over for a while: a steady load to count with {@code strace -f -c} or to
 * profile with {@code perf}, divided by the connections it prints. The connect has no timeout
 * (a timed one goes through the JDK's socket adaptor, which adds system calls of its own).
 *
 * <p>Run: {@code java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.ConnectionSetupLoop plain|iwarp|before-accept [SECONDS]}
 */
public final class ConnectionSetupLoop {

    private static final int SIZE = 64;
    private static final int DEFAULT_SECONDS = 10;

    private ConnectionSetupLoop() {
    }

    public static void main(String[] args) throws Exception {
        String kind = args.length > 0 ? args[0] : "iwarp";
        if (!kind.equals("plain") && !kind.equals("iwarp") && !kind.equals("before-accept")) {
            throw new IllegalArgumentException("the kind of socket is plain, iwarp or before-accept, not " + kind);
        }
        long seconds = args.length > 1 ? Long.parseLong(args[1]) : DEFAULT_SECONDS;
        boolean iwarp = !kind.equals("plain");
        try (ServerSocket server = ConnectionSetupCost.listening(iwarp, kind.equals("before-accept"))) {
            Thread serving = new Thread(() -> serve(server), "setup-loop-server");
            serving.setDaemon(true);
            serving.start();
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
            byte[] message = new byte[SIZE];
            long start = System.nanoTime();
            long end = start + seconds * 1_000_000_000L;
            long connections = 0;
            while (System.nanoTime() - end < 0) {
                ConnectionSetupCost.connectOnce(address, iwarp, 0, message);
                connections++;
            }
            double micros = (System.nanoTime() - start) / 1_000.0 / connections;
            System.out.printf("%s: %d connections in %d s, %.1f us each (wall clock)%n", kind, connections, seconds,
                    micros);
        }
    }

    private static void serve(ServerSocket server) {
        byte[] message = new byte[SIZE];
        try {
            while (true) {
                ConnectionSetupCost.serveOne(server, message);
            }
        } catch (IOException e) {
            if (!server.isClosed()) {
                e.printStackTrace();
            }
        }
    }
}

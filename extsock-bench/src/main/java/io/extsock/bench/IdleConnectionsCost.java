package io.extsock.bench;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * What idle IWARP_MODE connections cost: N connection pairs in this process, a thread blocked in
 * a read on each end (a thread-per-connection server and its clients, all waiting), and the CPU
 * every thread of the JVM takes over a few seconds of that. A plain TCP socket's blocked readers
 * take none; the engine's threads should take next to none either.
 *
 * <p>Run: {@code java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.IdleConnectionsCost [CONNECTIONS] [SECONDS]} (defaults: 500, 5)
 */
public final class IdleConnectionsCost {

    private IdleConnectionsCost() {
    }

    public static void main(String[] args) throws Exception {
        int connections = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        double percent = measure(connections, seconds * 1000L);
        System.out.printf("%d idle IWARP_MODE connections, a reader blocked on each end: %.2f%% of a CPU over %d s,"
                + " every thread of the JVM%n", connections, percent, seconds);
    }

    /** Percent of one CPU the whole JVM takes while the connections idle for {@code millis}. */
    static double measure(int connections, long millis) throws Exception {
        List<Socket> sockets = new ArrayList<>();
        try (ExtendedServerSocket server = new ExtendedServerSocket()) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), connections);
            // The accepted end negotiates on its first use, its reader's read, while the client's
            // connect waits for that: they take turns on two threads.
            Thread acceptor = new Thread(() -> {
                try {
                    for (int i = 0; i < connections; i++) {
                        Socket accepted = server.accept();
                        synchronized (sockets) {
                            sockets.add(accepted);
                        }
                        blockInRead(accepted);
                    }
                } catch (IOException e) {
                    // the clients' connects fail and say why
                }
            }, "idle-acceptor");
            acceptor.start();
            for (int i = 0; i < connections; i++) {
                ExtendedSocket client = new ExtendedSocket();
                synchronized (sockets) {
                    sockets.add(client);
                }
                client.setOption(IwarpOptions.IWARP_MODE, true);
                client.connect(server.getLocalSocketAddress());
                blockInRead(client);
            }
            acceptor.join();
            Thread.sleep(1000);  // every reader is in its read, and the engine has seen it
            ThreadCpu cpu = new ThreadCpu();
            cpu.start();
            Thread.sleep(millis);
            return 100.0 * cpu.elapsedNanos() / (millis * 1_000_000.0);
        } finally {
            synchronized (sockets) {
                for (Socket socket : sockets) {
                    socket.close();  // ends the blocked reads
                }
            }
        }
    }

    private static void blockInRead(Socket socket) {
        Thread reader = new Thread(() -> {
            try {
                socket.getInputStream().read();
            } catch (IOException e) {
                // closed at the end of the measurement
            }
        }, "idle-reader");
        reader.setDaemon(true);
        reader.start();
    }
}

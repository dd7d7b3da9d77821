package io.extsock.core;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The octets that wait in a TCP socket's receive queue, unread by anyone, as Linux reports them
 * ({@code /proc/net/tcp}'s rx_queue): a test proves that what a peer wrote has reached a socket
 * before it checks that nobody read it.
 */
public final class UnreadOctets {

    private static final long PATIENCE_SECONDS = 20;
    private static final String[] TABLES = {"/proc/net/tcp", "/proc/net/tcp6"};

    private UnreadOctets() {
    }

    /** The octets in {@code socket}'s receive queue now. */
    public static long of(Socket socket) throws IOException {
        String local = String.format(":%04X", socket.getLocalPort());
        String remote = String.format(":%04X", socket.getPort());
        for (String table : TABLES) {
            Path path = Path.of(table);
            if (!Files.isReadable(path)) {
                continue;
            }
            for (String line : Files.readAllLines(path)) {
                // sl local_address rem_address st tx_queue:rx_queue ...
                String[] fields = line.trim().split("\\s+");
                if (fields.length > 4 && fields[1].endsWith(local) && fields[2].endsWith(remote)) {
                    return Long.parseLong(fields[4].substring(fields[4].indexOf(':') + 1), 16);
                }
            }
        }
        throw new AssertionError("the kernel lists no connection " + socket.getLocalPort() + " -> " + socket.getPort()
                + " (this check needs Linux's /proc/net/tcp)");
    }

    /** Waits until at least {@code count} octets wait in {@code socket}'s receive queue, or fails. */
    public static long await(Socket socket, long count) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
        long unread = of(socket);
        while (unread < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(unread + " octets wait in the socket after " + PATIENCE_SECONDS
                        + " s, not " + count);
            }
            Thread.sleep(1);  // a polling interval
            unread = of(socket);
        }
        return unread;
    }
}

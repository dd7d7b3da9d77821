package io.extsock.examples.echo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.SplittableRandom;

/**
 * Echo over a socket's streams, written against {@code java.net.Socket} only: the "legacy
 * code" that runs unchanged over plain TCP, passthrough ExtendedSocket and IWARP_MODE.
 */
public final class StreamEcho {

    private StreamEcho() {
    }

    /** Echoes everything a connection sends until it half-closes, then half-closes too; returns the bytes echoed. */
    public static long echo(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        OutputStream out = socket.getOutputStream();
        byte[] buffer = new byte[64 * 1024];
        long echoed = 0;
        for (int n; (n = in.read(buffer)) != -1; ) {
            out.write(buffer, 0, n);
            echoed += n;
        }
        socket.shutdownOutput();
        return echoed;
    }

    /** Accepts one connection and echoes it. */
    public static void serveOne(ServerSocket server) throws IOException {
        try (Socket socket = server.accept()) {
            echo(socket);
        }
    }

    /**
     * Sends {@code total} pseudo-random bytes in {@code chunk}-sized writes while a second
     * thread reads the echo, and checks every echoed byte.
     *
     * @return true when every byte came back, in order, and nothing more
     */
    public static boolean sendAndVerify(Socket socket, long total, int chunk, long seed)
            throws IOException, InterruptedException {
        IOException[] writeFailure = new IOException[1];
        Thread writer = new Thread(() -> {
            try {
                OutputStream out = socket.getOutputStream();
                SplittableRandom random = new SplittableRandom(seed);
                byte[] buffer = new byte[chunk];
                for (long left = total; left > 0; ) {
                    int size = (int) Math.min(left, chunk);
                    fill(random, buffer, size);
                    out.write(buffer, 0, size);
                    left -= size;
                }
                socket.shutdownOutput();
            } catch (IOException e) {
                writeFailure[0] = e;
            }
        }, "echo-writer");
        writer.start();
        boolean intact = readAndCompare(socket.getInputStream(), total, chunk, seed);
        writer.join();
        if (writeFailure[0] != null) {
            throw writeFailure[0];
        }
        return intact;
    }

    private static boolean readAndCompare(InputStream in, long total, int chunk, long seed)
            throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        byte[] expected = new byte[chunk];
        byte[] received = new byte[chunk];
        for (long left = total; left > 0; ) {
            int size = (int) Math.min(left, chunk);
            fill(random, expected, size);
            int got = in.readNBytes(received, 0, size);
            if (got != size || !java.util.Arrays.equals(expected, 0, size, received, 0, size)) {
                return false;
            }
            left -= size;
        }
        return in.read() == -1;
    }

    private static void fill(SplittableRandom random, byte[] buffer, int size) {
        for (int i = 0; i < size; i += 8) {
            long word = random.nextLong();
            for (int j = 0; j < 8 && i + j < size; j++) {
                buffer[i + j] = (byte) (word >>> (8 * j));
            }
        }
    }
}

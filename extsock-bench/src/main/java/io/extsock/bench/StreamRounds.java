package io.extsock.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Rounds of socket stream code over a connected pair (any variant: plain, passthrough or
 * IWARP_MODE streams): ping-pong latency and streaming bandwidth.
 */
final class StreamRounds {

    private StreamRounds() {
    }

    /** Round-trip time of a {@code size}-byte ping-pong: median per round, microseconds. */
    static Contender pingPong(ConnectedPair pair, int size, int iterations) {
        return new Contender() {
            public void serve(int round) throws IOException {
                serveEcho(pair, size, iterations);
            }

            public double run(int round) throws IOException {
                return pingPongRound(pair, size, iterations);
            }
        };
    }

    /** Streaming of {@code total} bytes in {@code writeSize} writes: MB/s per round. */
    static Contender streaming(ConnectedPair pair, int writeSize, long total) {
        return new Contender() {
            public void serve(int round) throws IOException {
                drain(pair, total);
            }

            public double run(int round) throws IOException {
                return streamRound(pair, writeSize, total);
            }
        };
    }

    /**
     * An echo of {@code total} bytes, as the demo's: the client writes in {@code chunk} writes on
     * a thread of its own while it reads the echo; the server writes back what it reads, as it
     * reads it. MB/s of the bytes echoed, per round.
     */
    static Contender echo(ConnectedPair pair, int chunk, long total) {
        return new Contender() {
            public void serve(int round) throws IOException {
                readTotal(pair.server.getInputStream(), new byte[chunk], total, pair.server.getOutputStream());
            }

            public double run(int round) throws Exception {
                IOException[] failure = new IOException[1];
                Thread writer = new Thread(() -> {
                    try {
                        OutputStream out = pair.client.getOutputStream();
                        byte[] buffer = new byte[chunk];
                        for (long left = total; left > 0; left -= chunk) {
                            out.write(buffer, 0, (int) Math.min(chunk, left));
                        }
                    } catch (IOException e) {
                        failure[0] = e;
                    }
                }, "echo-writer");
                long start = System.nanoTime();
                writer.start();
                readTotal(pair.client.getInputStream(), new byte[chunk], total, null);
                long elapsed = System.nanoTime() - start;
                writer.join();
                if (failure[0] != null) {
                    throw failure[0];
                }
                return total / (elapsed / 1e9) / 1e6;
            }
        };
    }

    /** The server's end of a ping-pong: answers each {@code size}-byte message with itself. */
    static void serveEcho(ConnectedPair pair, int size, int iterations) throws IOException {
        InputStream in = pair.server.getInputStream();
        OutputStream out = pair.server.getOutputStream();
        byte[] buffer = new byte[size];
        for (int i = 0; i < iterations; i++) {
            readFully(in, buffer, size);
            out.write(buffer, 0, size);
        }
    }

    private static double pingPongRound(ConnectedPair pair, int size, int iterations) throws IOException {
        InputStream in = pair.client.getInputStream();
        OutputStream out = pair.client.getOutputStream();
        byte[] buffer = new byte[size];
        long[] nanos = new long[iterations];
        for (int i = 0; i < iterations; i++) {
            long start = System.nanoTime();
            out.write(buffer, 0, size);
            readFully(in, buffer, size);
            nanos[i] = System.nanoTime() - start;
        }
        return Stats.median(nanos) / 1_000.0;
    }

    private static void drain(ConnectedPair pair, long total) throws IOException {
        readTotal(pair.server.getInputStream(), new byte[64 * 1024], total, null);
        pair.server.getOutputStream().write(1);  // tell the sender the last byte arrived
    }

    /**
     * Reads exactly {@code total} bytes through {@code buffer}, writing each read back to
     * {@code echo} as it comes unless that is null.
     */
    private static void readTotal(InputStream in, byte[] buffer, long total, OutputStream echo) throws IOException {
        for (long left = total; left > 0; ) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                throw new IOException("unexpected end of stream");
            }
            if (echo != null) {
                echo.write(buffer, 0, n);
            }
            left -= n;
        }
    }

    private static double streamRound(ConnectedPair pair, int writeSize, long total) throws IOException {
        OutputStream out = pair.client.getOutputStream();
        byte[] buffer = new byte[writeSize];
        long start = System.nanoTime();
        for (long left = total; left > 0; left -= writeSize) {
            out.write(buffer, 0, (int) Math.min(writeSize, left));
        }
        if (pair.client.getInputStream().read() != 1) {
            throw new IOException("no acknowledgement from the receiver");
        }
        long elapsed = System.nanoTime() - start;
        return total / (elapsed / 1e9) / 1e6;
    }

    static void readFully(InputStream in, byte[] buffer, int size) throws IOException {
        if (in.readNBytes(buffer, 0, size) != size) {
            throw new IOException("unexpected end of stream");
        }
    }
}

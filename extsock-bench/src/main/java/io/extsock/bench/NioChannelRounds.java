package io.extsock.bench;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Rounds of NIO channel code over one connection (any provider's channels): a ping-pong of
 * stamped messages, and a stream of writes through selector loops whose every byte the
 * receiver can check against a pattern.
 */
final class NioChannelRounds {

    /** Which rounds check every byte they carry: the warm-up rounds always, the measured ones when asked. */
    record Checks(int warmupRounds, boolean everyRound) {
        boolean in(int round) {
            return everyRound || round < warmupRounds;
        }
    }

    /**
     * The stream's pattern repeats every this many bytes: a prime, so no write size lines up
     * with it, and a write lost or carried twice shifts every later byte off the pattern.
     */
    private static final int PATTERN_PERIOD = 65_521;

    private NioChannelRounds() {
    }

    /**
     * Round trips of {@code size}-byte messages, each stamped with its sequence number (the
     * server echoes what it reads); the round's median round trip in microseconds, and its 99th
     * percentile into {@code p99PerRound}. A checked round fails on an answer that is not its
     * request, byte for byte.
     */
    static Contender pingPong(MessageEnd client, MessageEnd server, int size, int iterations, Checks checks,
                              double[] p99PerRound) {
        if (size < 2 * DataPattern.STAMP_BYTES) {
            throw new IllegalArgumentException("a message of " + size + " bytes has no room for its two stamps");
        }
        return new Contender() {
            public void serve(int round) throws IOException {
                ByteBuffer buffer = ByteBuffer.allocateDirect(size);
                try {
                    for (int i = 0; i < iterations; i++) {
                        buffer.clear();
                        server.readFully(buffer);
                        buffer.flip();
                        server.writeFully(buffer);
                    }
                } catch (IOException | RuntimeException e) {
                    Closing.quietly(server, e);  // the client fails at once rather than wait
                    throw e;
                }
            }

            public double run(int round) throws IOException {
                ByteBuffer request = ByteBuffer.allocateDirect(size);
                ByteBuffer answer = ByteBuffer.allocateDirect(size);
                DataPattern.fill(request, 0, size, 0);
                boolean check = checks.in(round);
                long[] nanos = new long[iterations];
                for (int i = 0; i < iterations; i++) {
                    long sequence = DataPattern.sequence(round, i);
                    DataPattern.stamp(request, 0, size, sequence);
                    request.clear();
                    answer.clear();
                    long start = System.nanoTime();
                    client.writeFully(request);
                    client.readFully(answer);
                    nanos[i] = System.nanoTime() - start;
                    if (check) {
                        DataPattern.checkMessage(answer, 0, size, sequence, "round trip " + i + " of round " + round);
                    }
                }
                double[] micros = new double[iterations];
                for (int i = 0; i < iterations; i++) {
                    micros[i] = nanos[i] / 1_000.0;
                }
                p99PerRound[round] = Stats.percentile(micros, 99);
                return Stats.median(micros);
            }
        };
    }

    /**
     * {@code total} bytes from client to server in {@code writeSize} writes, both ends in their
     * selector loops, the receiver reading into a buffer of {@code writeSize}; when it has the
     * last byte it answers with one byte, which ends the client's clock. MB/s per round. A
     * checked round fails on any byte off the pattern.
     */
    static Contender streaming(SelectingEnd client, SelectingEnd server, int writeSize, long total, Checks checks) {
        ByteBuffer pattern = ByteBuffer.allocateDirect(PATTERN_PERIOD + writeSize);
        for (int i = 0; i < pattern.capacity(); i++) {
            pattern.put(i, DataPattern.at(i % PATTERN_PERIOD));
        }
        return new Contender() {
            public void serve(int round) throws IOException {
                ByteBuffer buffer = ByteBuffer.allocateDirect(writeSize);
                ByteBuffer expected = pattern.duplicate();
                boolean check = checks.in(round);
                long[] position = {0};
                try {
                    server.readTotal(buffer, total, chunk -> {
                        int length = chunk.position();
                        if (check) {
                            checkChunk(chunk, expected, position[0], round);
                        }
                        position[0] += length;
                    });
                    ByteBuffer done = ByteBuffer.allocate(1).put(0, (byte) 1);
                    server.writeFully(done);
                } catch (IOException | RuntimeException e) {
                    Closing.quietly(server, e);  // the client fails at once rather than wait for its answer
                    throw e;
                }
            }

            public double run(int round) throws IOException {
                ByteBuffer source = pattern.duplicate();
                ByteBuffer done = ByteBuffer.allocateDirect(1);
                long start = System.nanoTime();
                for (long sent = 0; sent < total; ) {
                    int length = (int) Math.min(writeSize, total - sent);
                    int offset = (int) (sent % PATTERN_PERIOD);
                    source.clear().position(offset).limit(offset + length);
                    client.writeFully(source);
                    sent += length;
                }
                client.readFully(done);
                long elapsed = System.nanoTime() - start;
                if (done.get(0) != 1) {
                    throw new IOException("the receiver answered " + done.get(0) + " rather than 1");
                }
                return total / (elapsed / 1e9) / 1e6;
            }
        };
    }

    /** Fails unless the read's bytes (0 to the chunk's position) are the pattern's from stream position {@code at}. */
    private static void checkChunk(ByteBuffer chunk, ByteBuffer expected, long at, int round) throws IOException {
        int length = chunk.position();
        int offset = (int) (at % PATTERN_PERIOD);
        expected.clear().position(offset).limit(offset + length);
        int mismatch = chunk.flip().mismatch(expected);
        if (mismatch >= 0) {
            throw new IOException("round " + round + ": wrong byte at stream position " + (at + mismatch));
        }
    }
}

package io.extsock.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.BiFunction;

/**
 * The floor under {@code perf compare}'s one-at-a-time bandwidth rows at small messages: a
 * writer sends N-byte messages one write each, and the reader takes what has come into a 64 KiB
 * buffer, as perf compare's plain TCP reader does, on plain NIO channels with no protocol.
 * Blocking channels (as {@code java.net.Socket}: each thread sleeps inside {@code read} or
 * {@code write}) against each end waiting in a Selector of its own when a read finds nothing or
 * a write no room (as an IWARP_MODE thread must: see {@link NioWaitFloor}), in alternating
 * rounds, MB/s.
 *
 * <p>Over loopback the writer's {@code write} runs the receive path on its own CPU, waking the
 * reader when it sleeps: waking a thread in {@code epoll_wait} costs the writer more than waking
 * one blocked in {@code read}, and at small messages that wake-up is a large part of a write.
 *
 * <p>Run: {@code java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.BulkWaitFloor [--quick] [message-bytes]} (default 4096).
 */
public final class BulkWaitFloor {

    private static final int DEFAULT_SIZE = 4096;
    /** Bytes a full round carries. */
    static final long FULL_BYTES = 1L << 30;
    private static final int READ_BUFFER = 64 * 1024;

    private BulkWaitFloor() {
    }

    public static void main(String[] args) throws Exception {
        RunLength length = RunLength.of(args);
        int size = new PositionalNumbers(args).get(0, DEFAULT_SIZE);
        if (size < 1) {
            throw new IllegalArgumentException("usage: BulkWaitFloor [--quick] [message-bytes], at least 1, not " + size);
        }
        PairedComparison.Result r = measure(length, size);
        System.out.printf("%s messages one write each, read into %d KiB, on NIO channels: blocking channels against"
                + " a Selector at each end, %d alternating rounds of %d MiB (+%d warm-up), Java %s%n%n",
                PairedComparison.label(size), READ_BUFFER / 1024, length.rounds(), length.bytes(FULL_BYTES) >> 20,
                length.warmupRounds(), Runtime.version());
        FloorTable.header("blocking", "epoll, then I/O");
        FloorTable.row(r, "%11.0f MB/s");
    }

    /** MB/s of each round, blocking channels as the baseline. */
    static PairedComparison.Result measure(RunLength length, int size) throws Exception {
        return againstBlocking(length, size, (selecting, messages) -> rounds(selecting, size, messages));
    }

    /**
     * MB/s of each round of plain {@code size}-byte messages on blocking channels (the baseline)
     * and of the candidate's rounds on a link whose ends wait in Selectors, as many messages.
     */
    static PairedComparison.Result againstBlocking(RunLength length, int size,
                                                   BiFunction<NioLink, Long, Contender> candidate) throws Exception {
        long messages = Math.max(1, length.bytes(FULL_BYTES) / size);
        try (NioLink blocking = NioLink.open(false); NioLink selecting = NioLink.open(true)) {
            PairedComparison comparison = new PairedComparison(length.warmupRounds(), length.rounds());
            return comparison.compare("bandwidth", PairedComparison.label(size), "MB/s", true,
                    rounds(blocking, size, messages), candidate.apply(selecting, messages));
        }
    }

    /** A round: the writer's messages, then the reader's answer once it has every byte. */
    private static Contender rounds(NioLink link, int size, long messages) {
        long total = messages * size;
        return new Contender() {
            public void serve(int round) throws IOException {
                ByteBuffer buffer = ByteBuffer.allocateDirect(READ_BUFFER);
                ByteBuffer answer = ByteBuffer.allocateDirect(1);
                long received = 0;
                while (received < total) {
                    int n = link.server.readSome(buffer);
                    if (n < 0) {
                        throw new IOException("the writer closed after " + received + " bytes of " + total);
                    }
                    received += n;
                }
                if (received != total) {
                    throw new IOException("received " + received + " bytes, " + (received - total) + " more than sent");
                }
                link.server.writeFully(answer);  // all arrived: the writer's clock stops
            }

            public double run(int round) throws IOException {
                ByteBuffer message = ByteBuffer.allocateDirect(size);
                ByteBuffer answer = ByteBuffer.allocateDirect(1);
                long start = System.nanoTime();
                for (long i = 0; i < messages; i++) {
                    link.client.writeFully(message);
                }
                link.client.readFully(answer);
                long elapsed = System.nanoTime() - start;
                return total / (elapsed / 1e9) / 1e6;
            }
        };
    }
}

package io.extsock.bench;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A floor under {@code perf compare}'s one-at-a-time Send bandwidth rows with CRCs, at small
 * messages: the engine's way of framing and waiting, without the engine. Plain TCP as {@link
 * BulkWaitFloor} runs it (each message one write on a blocking channel, the reader taking what
 * came into 64 KiB) against the framing of an iWARP Send ({@link MinimalFraming}: a header and a
 * CRC over each message, one gathering write of header, payload and CRC; the reader checks each
 * CRC and copies each payload out of its staging buffer), with each end waiting in a Selector of
 * its own as an IWARP_MODE thread must ({@link NioWaitFloor}), in alternating rounds, MB/s of
 * payload. Not a proven minimum (see {@link MinimalFraming}).
 *
 * <p>{@link BulkWaitFloor} gives the wait's share alone; the difference is the framing's.
 *
 * <p>Run: {@code java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.BulkFramingFloor [--quick] [message-bytes]} (default 4096).
 */
public final class BulkFramingFloor {

    private static final int DEFAULT_SIZE = 4096;
    /** As plain TCP's reader reads, and with room for the longest FPDU, cut anywhere. */
    private static final int STAGING = MinimalFraming.fpduLength(MinimalFraming.MAX_PAYLOAD);

    private BulkFramingFloor() {
    }

    public static void main(String[] args) throws Exception {
        RunLength length = RunLength.of(args);
        int size = new PositionalNumbers(args).get(0, DEFAULT_SIZE);
        if (size < 1 || size > MinimalFraming.MAX_PAYLOAD) {
            throw new IllegalArgumentException("usage: BulkFramingFloor [--quick] [message-bytes], 1 to "
                    + MinimalFraming.MAX_PAYLOAD + ", not " + size);
        }
        PairedComparison.Result r = measure(length, size);
        System.out.printf("%s messages one write each: plain TCP on blocking channels against the least framing of"
                + " an iWARP Send with CRCs and a Selector at each end, %d alternating rounds of %d MiB (+%d"
                + " warm-up), Java %s%n%n", PairedComparison.label(size), length.rounds(),
                length.bytes(BulkWaitFloor.FULL_BYTES) >> 20, length.warmupRounds(), Runtime.version());
        FloorTable.header("plain, blocking", "framed, epoll");
        FloorTable.row(r, "%11.0f MB/s");
    }

    /** MB/s of payload of each round, plain TCP on blocking channels as the baseline. */
    static PairedComparison.Result measure(RunLength length, int size) throws Exception {
        return BulkWaitFloor.againstBlocking(length, size,
                (selecting, messages) -> framedRounds(selecting, size, messages));
    }

    /** A round of framed messages; the reader answers once every payload octet is placed. */
    private static Contender framedRounds(NioLink link, int size, long messages) {
        long total = messages * size;
        ByteBuffer staging = ByteBuffer.allocateDirect(STAGING);
        ByteBuffer destination = ByteBuffer.allocateDirect(size);
        ByteBuffer payload = ByteBuffer.allocateDirect(size);
        return new Contender() {
            public void serve(int round) throws IOException {
                MinimalFraming.Reader reader = new MinimalFraming.Reader(staging, destination);
                ByteBuffer answer = ByteBuffer.allocateDirect(1);
                while (reader.payloadOctets() < total) {
                    if (link.server.readMore(reader.room()) < 0) {
                        throw new IOException("the writer closed after " + reader.payloadOctets() + " payload bytes of "
                                + total);
                    }
                    reader.consume();
                }
                if (reader.payloadOctets() != total || reader.room().position() != 0) {
                    throw new IOException("placed " + reader.payloadOctets() + " payload bytes of " + total + ", with "
                            + reader.room().position() + " more octets after them");
                }
                link.server.writeFully(answer);  // all placed: the writer's clock stops
            }

            public double run(int round) throws IOException {
                MinimalFraming.Writer writer = new MinimalFraming.Writer();
                ByteBuffer answer = ByteBuffer.allocateDirect(1);
                long start = System.nanoTime();
                for (long i = 0; i < messages; i++) {
                    link.client.writeGathered(writer.frame(payload));
                }
                link.client.readFully(answer);
                long elapsed = System.nanoTime() - start;
                return total / (elapsed / 1e9) / 1e6;
            }
        };
    }
}

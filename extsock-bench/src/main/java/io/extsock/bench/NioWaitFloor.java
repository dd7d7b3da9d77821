package io.extsock.bench;

import java.nio.ByteBuffer;

/**
 * The floor under any Java engine whose waiting threads can be woken: a 64-byte ping-pong on
 * plain NIO channels, with no protocol at all, waiting as {@code java.net.Socket} does (a
 * blocking channel: the thread sleeps inside {@code read}) against waiting as an engine must
 * (a non-blocking channel and a Selector of the waiting thread's own: {@code epoll_wait}, then
 * {@code read}).
 *
 * <p>Why an engine cannot wait the first way: Java has no way to wake a thread blocked in a
 * channel's {@code read} but data or closing the channel (an interrupt closes it too), while an
 * IWARP_MODE socket must end a blocked read on {@code shutdownInput}, a timeout, or a local
 * completion (the JDK's own {@code SocketChannel} wakes its reader with an internal signal no
 * library can send); and a channel in blocking mode also blocks its writers, which the engine's
 * own thread must never do (it serves every connection). So the second way, and its extra
 * system call per wait, is the least an IWARP_MODE round trip costs over a TCP one in pure Java:
 * this measures that least, in latency and in CPU time, in alternating rounds on the same two
 * threads. A native wait through the C library costs the same (extsock-bench/FINDINGS.md).
 *
 * <p>Run: {@code java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.NioWaitFloor [--quick]}; pinned to one CPU ({@code taskset -c 0}) for the
 * steady measure on a 2-vCPU machine.
 */
public final class NioWaitFloor {

    private static final int SIZE = 64;
    private static final int FULL_ROUND_TRIPS = 100_000;

    private NioWaitFloor() {
    }

    public static void main(String[] args) throws Exception {
        RunLength length = RunLength.of(args);
        RoundTripMeasures result = measure(length);
        System.out.printf("%d-byte ping-pong on NIO channels, blocking channels against a Selector per waiting thread,"
                + " %d alternating rounds of %d round trips (+%d warm-up), Java %s%n%n", SIZE, length.rounds(),
                length.iterations(FULL_ROUND_TRIPS), length.warmupRounds(), Runtime.version());
        FloorTable.header("blocking read", "epoll, then read");
        FloorTable.row(result.latency(), "%13.2f us");
        FloorTable.row(result.cpu(), "%13.2f us");
    }

    static RoundTripMeasures measure(RunLength length) throws Exception {
        try (NioLink blocking = NioLink.open(false); NioLink selecting = NioLink.open(true)) {
            return PingPongRounds.measure(length, length.iterations(FULL_ROUND_TRIPS), SIZE, ends(blocking),
                    ends(selecting));
        }
    }

    private static PingPongRounds.Link ends(NioLink link) {
        return new PingPongRounds.Link() {
            public PingPongRounds.Exchange server() {
                ByteBuffer buffer = ByteBuffer.allocateDirect(SIZE);
                return (index, check) -> {
                    link.server.readFully(buffer);
                    link.server.writeFully(buffer);
                };
            }

            public PingPongRounds.Exchange client() {
                ByteBuffer buffer = ByteBuffer.allocateDirect(SIZE);
                return (index, check) -> {
                    buffer.putInt(0, index);
                    link.client.writeFully(buffer);
                    link.client.readFully(buffer);
                    if (check && buffer.getInt(0) != index) {
                        throw new IllegalStateException("round trip " + index + " came back as " + buffer.getInt(0));
                    }
                };
            }
        };
    }
}

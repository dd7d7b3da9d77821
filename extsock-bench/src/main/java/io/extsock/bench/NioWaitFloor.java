package io.extsock.bench;

import java.io.IOException;
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
 * threads.
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
        Result result = measure(length);
        System.out.printf("%d-byte ping-pong on NIO channels, blocking channels against a Selector per waiting thread,"
                + " %d alternating rounds of %d round trips (+%d warm-up), Java %s%n%n", SIZE, length.rounds(),
                length.iterations(FULL_ROUND_TRIPS), length.warmupRounds(), Runtime.version());
        FloorTable.header("blocking read", "epoll, then read");
        FloorTable.row(result.latency(), "%13.2f us");
        FloorTable.row(result.cpu(), "%13.2f us");
    }

    /** Both measures of one run: the median round trip of each round, and the CPU per round trip. */
    record Result(PairedComparison.Result latency, PairedComparison.Result cpu) {
    }

    static Result measure(RunLength length) throws Exception {
        int iterations = length.iterations(FULL_ROUND_TRIPS);
        try (NioLink blocking = NioLink.open(false); NioLink selecting = NioLink.open(true)) {
            PairedComparison comparison = new PairedComparison(length.warmupRounds(), length.rounds());
            ThreadCpu cpu = new ThreadCpu();
            double[][] cpuPerRound = new double[2][length.warmupRounds() + length.rounds()];
            PairedComparison.Result latency = comparison.compare("round trip (median)", SIZE + " B", "us", false,
                    rounds(blocking, iterations, cpu, cpuPerRound[0]), rounds(selecting, iterations, cpu, cpuPerRound[1]));
            PairedComparison.Result cpuResult = new PairedComparison.Result("CPU per round trip", SIZE + " B", "us",
                    false, measured(cpuPerRound[0], length), measured(cpuPerRound[1], length));
            return new Result(latency, cpuResult);
        }
    }

    private static double[] measured(double[] all, RunLength length) {
        return java.util.Arrays.copyOfRange(all, length.warmupRounds(), all.length);
    }

    private static Contender rounds(NioLink link, int iterations, ThreadCpu cpu, double[] cpuPerRound) {
        return new Contender() {
            public void serve(int round) throws IOException {
                ByteBuffer buffer = ByteBuffer.allocateDirect(SIZE);
                for (int i = 0; i < iterations; i++) {
                    link.server.readFully(buffer);
                    link.server.writeFully(buffer);
                }
            }

            public double run(int round) throws IOException {
                ByteBuffer buffer = ByteBuffer.allocateDirect(SIZE);
                long[] nanos = new long[iterations];
                cpu.start();
                for (int i = 0; i < iterations; i++) {
                    long start = System.nanoTime();
                    link.client.writeFully(buffer);
                    link.client.readFully(buffer);
                    nanos[i] = System.nanoTime() - start;
                }
                cpuPerRound[round] = cpu.elapsedNanos() / 1_000.0 / iterations;
                return Stats.median(nanos) / 1_000.0;
            }
        };
    }
}

package io.extsock.bench;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The floor under {@link ColdRoundTripCost}: the same 64-byte ping-pong on connections gone cold
 * the same ways, on plain NIO channels with no protocol at all, a thread blocking in {@code read}
 * as {@code java.net.Socket} does against one waiting as an engine must, in a Selector of the
 * connection's own on a non-blocking channel ({@link NioWaitFloor} does the same warm).
 *
 * <p>Why: the cold rows of IWARP_MODE cost more than plain TCP does. This says how much of that
 * any engine that waits in a Selector pays (each connection's Selector and its epoll instance go
 * cold too), and so how much is the engine's own.
 *
 * <p>Run: {@code taskset -c 0 java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.ColdWaitFloor [--quick] [--connections N | --pause MICROS | --sweep MIB]}
 */
public final class ColdWaitFloor {

    private static final int SIZE = 64;
    private static final int COMPILING_ROUND_TRIPS = 30_000;

    private ColdWaitFloor() {
    }

    public static void main(String[] args) throws Exception {
        RunLength length = RunLength.of(args);
        ColdRoundTripCost.Cooling cooling = ColdRoundTripCost.Cooling.of(args);
        PairedComparison.Result result = measure(length, cooling, COMPILING_ROUND_TRIPS);
        System.out.printf("%d-byte ping-pong on NIO channels, cold (%s), blocking channels against a Selector per"
                        + " connection end, %d alternating rounds of %d round trips (+%d warm-up), Java %s%n%n", SIZE,
                cooling.describe(), length.rounds(), length.iterations(cooling.fullRoundTrips()), length.warmupRounds(),
                Runtime.version());
        FloorTable.header("blocking read", "epoll, then read");
        FloorTable.row(result, "%13.2f us");
    }

    /**
     * Median cold round-trip time of each way of waiting, microseconds, per round; a round visits
     * every connection, as {@link ColdRoundTripCost#measure} does.
     */
    static PairedComparison.Result measure(RunLength length, ColdRoundTripCost.Cooling cooling, int compilingRoundTrips)
            throws Exception {
        int iterations = length.iterations(cooling.fullRoundTrips());
        List<NioLink> blocking = new ArrayList<>();
        List<NioLink> selecting = new ArrayList<>();
        try {
            for (int i = 0; i < cooling.connections(); i++) {
                blocking.add(NioLink.open(false));
                selecting.add(NioLink.open(true));
            }
            ColdRoundTripCost.Cooling warm = ColdRoundTripCost.Cooling.rotating(1);
            new PairedComparison(0, 1).compare("compiling", PairedComparison.label(SIZE), "us", false,
                    coldRounds(blocking.subList(0, 1), compilingRoundTrips, warm),
                    coldRounds(selecting.subList(0, 1), compilingRoundTrips, warm));
            return new PairedComparison(length.warmupRounds(), length.rounds()).compare("round trip (median)",
                    PairedComparison.label(SIZE), "us", false, coldRounds(blocking, iterations, cooling),
                    coldRounds(selecting, iterations, cooling));
        } finally {
            List<NioLink> all = new ArrayList<>(blocking);
            all.addAll(selecting);
            Closing.all(all);
        }
    }

    /**
     * Round trips taking the links in turn, the same turn at both ends, cooled before each; the
     * first round checks that each answer is its own request's.
     */
    private static Contender coldRounds(List<NioLink> links, int iterations, ColdRoundTripCost.Cooling cooling) {
        return new Contender() {
            public void serve(int round) throws Exception {
                ByteBuffer buffer = ByteBuffer.allocateDirect(SIZE);
                for (int i = 0; i < iterations; i++) {
                    NioLink link = links.get(i % links.size());
                    link.server.readFully(buffer);
                    link.server.writeFully(buffer);
                }
            }

            public double run(int round) throws Exception {
                ByteBuffer buffer = ByteBuffer.allocateDirect(SIZE);
                long[] nanos = new long[iterations];
                for (int i = 0; i < iterations; i++) {
                    NioLink link = links.get(i % links.size());
                    buffer.putInt(0, i);
                    cooling.beforeRoundTrip();
                    long start = System.nanoTime();
                    link.client.writeFully(buffer);
                    link.client.readFully(buffer);
                    nanos[i] = System.nanoTime() - start;
                    if (round == 0 && buffer.getInt(0) != i) {
                        throw new IllegalStateException("round trip " + i + " came back as " + buffer.getInt(0));
                    }
                }
                return Stats.median(nanos) / 1_000.0;
            }
        };
    }
}

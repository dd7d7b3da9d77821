package io.extsock.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A 64-byte stream round trip on a connection gone cold: plain {@code java.net.Socket} against
 * IWARP_MODE, in alternating rounds, two threads. Three ways of making it cold:
 * <ul>
 *   <li>{@code --connections N} (500 unless told): each round trip takes the next of N
 *   connections, so the N - 1 others have run since its state was last touched. The code stays
 *   warm, as it does for perf compare's many-connections row, where each of a thousand threads
 *   wakes after hundreds of others have run; what differs is that one thread at each end visits
 *   the connections in turn, as a thread of a pool would, so the scheduler's noise of a
 *   thousand threads on two CPUs stays out.</li>
 *   <li>{@code --pause MICROS}: one connection, and the client thinks (spins) that long before
 *   each round trip, as an application between requests: the connection idles (and its engine
 *   took its reading back meanwhile, before a connection used through its streams alone was
 *   left to its readers).</li>
 *   <li>{@code --sweep MIB} (64 is twice this machine's last-level cache): one connection, and
 *   before each round trip the client reads through that much memory, so data, code and
 *   page-table entries are all cold.</li>
 * </ul>
 *
 * <p>Why: this VM has no hardware counters to count cache misses. This measures what they cost
 * instead, and what an idle connection costs, pinned to one CPU ({@code taskset -c 0}), so a
 * change that shrinks what the engine touches a message, or what it does while a connection
 * idles, shows as a smaller difference from plain TCP.
 *
 * <p>Run: {@code taskset -c 0 java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.ColdRoundTripCost [--quick] [--connections N | --pause MICROS | --sweep MIB]}
 */
public final class ColdRoundTripCost {

    /** Warm round trips on one connection before the rounds, so that both variants' code is compiled. */
    private static final int COMPILING_ROUND_TRIPS = 30_000;
    static final int DEFAULT_CONNECTIONS = 500;

    /**
     * How each round trip is made cold: by visiting its connection last of {@code connections},
     * by a pause, or by a sweep.
     */
    record Cooling(int connections, long pauseNanos, CacheSweep sweep) {

        /** As the arguments say ({@code --connections N}, {@code --pause MICROS}, {@code --sweep MIB}), else 500 connections. */
        static Cooling of(String[] args) {
            Cooling cooling = rotating(DEFAULT_CONNECTIONS);
            for (int i = 0; i + 1 < args.length; i++) {
                if (args[i].equals("--connections")) {
                    cooling = rotating(Integer.parseInt(args[i + 1]));
                } else if (args[i].equals("--pause")) {
                    cooling = pausing(Long.parseLong(args[i + 1]));
                } else if (args[i].equals("--sweep")) {
                    cooling = sweeping(Integer.parseInt(args[i + 1]));
                }
            }
            return cooling;
        }

        static Cooling rotating(int connections) {
            if (connections < 1) {
                throw new IllegalArgumentException("rotating over " + connections + " connections");
            }
            return new Cooling(connections, 0, null);
        }

        static Cooling pausing(long micros) {
            if (micros < 1) {
                throw new IllegalArgumentException("a pause of " + micros + " us");
            }
            return new Cooling(1, micros * 1_000, null);
        }

        static Cooling sweeping(int mebibytes) {
            return new Cooling(1, 0, new CacheSweep(mebibytes));
        }

        /** Round trips of a full round: a few seconds. */
        int fullRoundTrips() {
            if (sweep != null) {
                return 400;
            }
            return pauseNanos > 0 ? (int) Math.max(100, Math.min(20_000, 2_000_000_000L / pauseNanos)) : 20 * connections;
        }

        void beforeRoundTrip() {
            if (sweep != null) {
                sweep.run();
            }
            if (pauseNanos > 0) {
                long until = System.nanoTime() + pauseNanos;
                while (System.nanoTime() - until < 0) {
                    Thread.onSpinWait();
                }
            }
        }

        String describe() {
            if (sweep != null) {
                return "a " + sweep.mebibytes() + " MiB sweep before each round trip";
            }
            if (pauseNanos > 0) {
                return "a pause of " + pauseNanos / 1_000 + " us before each round trip";
            }
            return "each round trip on the next of " + connections + " connections";
        }
    }

    private ColdRoundTripCost() {
    }

    public static void main(String[] args) throws Exception {
        RunLength length = RunLength.of(args);
        Cooling cooling = Cooling.of(args);
        int size = 64;
        PairedComparison.Result result = measure(length, size, cooling, COMPILING_ROUND_TRIPS);
        System.out.printf("%s stream ping-pong, cold (%s), java.net.Socket vs IWARP_MODE, %d alternating rounds"
                        + " of %d round trips (+%d warm-up), Java %s%n%n", result.size(), cooling.describe(),
                length.rounds(), length.iterations(cooling.fullRoundTrips()), length.warmupRounds(), Runtime.version());
        FloorTable.header("java.net.Socket", "IWARP_MODE");
        FloorTable.row(result, "%13.2f us");
        System.out.printf("%nIWARP_MODE's cold round trip takes %.2f us more (medians)%n",
                result.candidateMedian() - result.baselineMedian());
    }

    /**
     * Median cold round-trip time of each variant, microseconds, per round. A round visits every
     * connection (twenty times in full, five with {@code --quick}), so the warm-up rounds make
     * what a connection makes at its first use.
     */
    static PairedComparison.Result measure(RunLength length, int size, Cooling cooling, int compilingRoundTrips)
            throws Exception {
        int iterations = length.iterations(cooling.fullRoundTrips());
        List<ConnectedPair> plain = new ArrayList<>();
        List<ConnectedPair> iwarp = new ArrayList<>();
        try {
            for (int i = 0; i < cooling.connections(); i++) {
                plain.add(ConnectedPair.open(SocketVariant.PLAIN));
                iwarp.add(ConnectedPair.open(SocketVariant.iwarp("IWARP_MODE", Map.of())));
            }
            new PairedComparison(plain.get(0), iwarp.get(0), 0, 1).pingPong(size, compilingRoundTrips);
            PairedComparison comparison = new PairedComparison(length.warmupRounds(), length.rounds());
            return comparison.compare("round trip (median)", PairedComparison.label(size), "us", false,
                    coldRounds(plain, size, iterations, cooling), coldRounds(iwarp, size, iterations, cooling));
        } finally {
            List<ConnectedPair> all = new ArrayList<>(plain);
            all.addAll(iwarp);
            Closing.all(all);
        }
    }

    /** Round trips taking the connections in turn, the same turn at both ends, cooled before each. */
    private static Contender coldRounds(List<ConnectedPair> pairs, int size, int iterations, Cooling cooling) {
        return new Contender() {
            public void serve(int round) throws IOException {
                Ends servers = Ends.of(pairs, false);
                byte[] buffer = new byte[size];
                for (int i = 0; i < iterations; i++) {
                    StreamRounds.readFully(servers.in(i), buffer, size);
                    servers.out(i).write(buffer, 0, size);
                }
            }

            public double run(int round) throws IOException {
                Ends clients = Ends.of(pairs, true);
                byte[] buffer = new byte[size];
                long[] nanos = new long[iterations];
                for (int i = 0; i < iterations; i++) {
                    cooling.beforeRoundTrip();
                    long start = System.nanoTime();
                    clients.out(i).write(buffer, 0, size);
                    StreamRounds.readFully(clients.in(i), buffer, size);
                    nanos[i] = System.nanoTime() - start;
                }
                return Stats.median(nanos) / 1_000.0;
            }
        };
    }

    /** The streams of one end of every pair, taken before a round rather than at each round trip. */
    private record Ends(InputStream[] ins, OutputStream[] outs) {

        static Ends of(List<ConnectedPair> pairs, boolean client) throws IOException {
            InputStream[] ins = new InputStream[pairs.size()];
            OutputStream[] outs = new OutputStream[pairs.size()];
            for (int i = 0; i < ins.length; i++) {
                Socket end = client ? pairs.get(i).client : pairs.get(i).server;
                ins[i] = end.getInputStream();
                outs[i] = end.getOutputStream();
            }
            return new Ends(ins, outs);
        }

        /** The input of the connection whose turn round trip {@code i} is. */
        InputStream in(int i) {
            return ins[i % ins.length];
        }

        OutputStream out(int i) {
            return outs[i % outs.length];
        }
    }
}

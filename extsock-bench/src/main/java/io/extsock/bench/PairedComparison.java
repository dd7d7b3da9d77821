package io.extsock.bench;

import io.extsock.examples.perf.MedianInterval;
import io.extsock.examples.perf.RoundRatio;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Measures a baseline and a candidate in alternating rounds (ABBA order) on the same two
 * threads, so that both see the same CPU placement and the same machine noise; the ratio is
 * the median of the per-round ratios.
 *
 * <p>Why not JMH here: JMH runs one benchmark after the other, minutes apart, in separate
 * forks; on a 2-vCPU machine whose loopback latency varies 5x with thread placement, the
 * placement drift between forks dwarfs the few percent we need to resolve. Pairing rounds in
 * one process on the same threads removes it. JMH is used for the CPU-bound codec
 * benchmarks, where placement does not matter.
 */
final class PairedComparison {

    /** Result of one measurement: the baseline's and the candidate's value per round. */
    record Result(String test, String size, String unit, boolean higherIsBetter,
                  double[] baseline, double[] candidate) {

        double baselineMedian() {
            return Stats.median(baseline);
        }

        double candidateMedian() {
            return Stats.median(candidate);
        }

        /**
         * The median over rounds of candidate / baseline with its 95% interval, computed as
         * {@code perf compare} computes its ratios.
         */
        RoundRatio roundRatio() {
            return RoundRatio.of(ratios(baseline, candidate));
        }

        /** The median over rounds of candidate / baseline. */
        double ratio() {
            return roundRatio().median();
        }

        /**
         * The 95% interval of {@link #ratio()}, {low, high}: both NaN below
         * {@link MedianInterval#MIN_VALUES} rounds, too few for one.
         */
        double[] ratioInterval() {
            MedianInterval interval = roundRatio().interval();
            return interval == null ? new double[] {Double.NaN, Double.NaN}
                    : new double[] {interval.low(), interval.high()};
        }

        /**
         * Largest over smallest of the baseline's rounds: far above 1 when the machine changed
         * regime during the measurement (thread placement, other load), which pairing only
         * partly hides.
         */
        double baselineSpread() {
            return Arrays.stream(baseline).max().orElse(1) / Arrays.stream(baseline).min().orElse(1);
        }
    }

    /** Each round's candidate / baseline. */
    static double[] ratios(double[] baseline, double[] candidate) {
        double[] ratios = new double[baseline.length];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = candidate[i] / baseline[i];
        }
        return ratios;
    }

    private final ConnectedPair baseline;
    private final ConnectedPair candidate;
    private final int warmupRounds;
    private final int rounds;

    /** Compares contenders of its caller's own making only ({@link #compare}). */
    PairedComparison(int warmupRounds, int rounds) {
        this(null, null, warmupRounds, rounds);
    }

    /** Compares the stream code of two connected pairs (and, with {@link #compare}, anything else). */
    PairedComparison(ConnectedPair baseline, ConnectedPair candidate, int warmupRounds, int rounds) {
        this.baseline = baseline;
        this.candidate = candidate;
        this.warmupRounds = warmupRounds;
        this.rounds = rounds;
    }

    /** Round-trip time of a ping-pong of {@code size} bytes, median per round, microseconds. */
    Result pingPong(int size, int iterations) throws Exception {
        return compare("latency (round trip)", label(size), "us", false,
                StreamRounds.pingPong(baseline, size, iterations), StreamRounds.pingPong(candidate, size, iterations));
    }

    /** Streaming of {@code total} bytes in {@code writeSize} writes, MB/s per round. */
    Result streaming(int writeSize, long total) throws Exception {
        return compare("bandwidth (stream)", label(writeSize) + " writes", "MB/s", true,
                StreamRounds.streaming(baseline, writeSize, total), StreamRounds.streaming(candidate, writeSize, total));
    }

    /** Runs two contenders in the same alternating rounds: the general form of the above. */
    Result compare(String test, String size, String unit, boolean higherIsBetter,
                   Contender baselineRounds, Contender candidateRounds) throws Exception {
        int total = warmupRounds + rounds;
        List<Contender> schedule = new ArrayList<>();
        for (int round = 0; round < total; round++) {
            boolean baselineFirst = round % 4 == 0 || round % 4 == 3;  // ABBA
            schedule.add(baselineFirst ? baselineRounds : candidateRounds);
            schedule.add(baselineFirst ? candidateRounds : baselineRounds);
        }
        Exception[] serverFailure = new Exception[1];
        Thread server = new Thread(() -> {
            try {
                for (int i = 0; i < schedule.size(); i++) {
                    schedule.get(i).serve(i / 2);
                }
            } catch (Exception e) {
                serverFailure[0] = e;
                e.printStackTrace();  // now: the client may be left waiting for this side
            }
        }, "bench-server");
        server.setDaemon(true);  // a failed client must not leave the JVM waiting on it
        server.start();
        double[] baselineValues = new double[rounds];
        double[] candidateValues = new double[rounds];
        for (int i = 0; i < schedule.size(); i++) {
            Contender contender = schedule.get(i);
            int round = i / 2;
            double value = contender.run(round);
            if (round >= warmupRounds) {
                (contender == baselineRounds ? baselineValues : candidateValues)[round - warmupRounds] = value;
            }
        }
        server.join();
        if (serverFailure[0] != null) {
            throw serverFailure[0];
        }
        return new Result(test, size, unit, higherIsBetter, baselineValues, candidateValues);
    }

    static String label(int bytes) {
        if (bytes >= 1 << 20) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1 << 10) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }
}

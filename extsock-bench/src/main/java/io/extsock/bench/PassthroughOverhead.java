package io.extsock.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * What a passthrough ExtendedSocket costs next to a plain {@code java.net.Socket}: ping-pong
 * latency (1 B, 1 KiB, 64 KiB) and streaming bandwidth (64 KiB and 1 MiB writes), both
 * variants in the same run, in alternating rounds on the same threads.
 *
 * <p>Run: {@code java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.PassthroughOverhead [--quick]}
 */
public final class PassthroughOverhead {

    private static final double LATENCY_TARGET = 1.02;
    private static final double BANDWIDTH_TARGET = 0.98;

    private PassthroughOverhead() {
    }

    public static void main(String[] args) throws Exception {
        boolean quick = List.of(args).contains("--quick");
        int rounds = quick ? 10 : 40;
        int warmup = quick ? 2 : 6;
        int scale = quick ? 4 : 1;
        List<PairedComparison.Result> results = new ArrayList<>();
        try (ConnectedPair plain = ConnectedPair.open(SocketVariant.PLAIN);
             ConnectedPair extended = ConnectedPair.open(SocketVariant.PASSTHROUGH)) {
            PairedComparison comparison = new PairedComparison(plain, extended, warmup, rounds);
            results.add(comparison.pingPong(1, 2000 / scale));
            results.add(comparison.pingPong(1024, 2000 / scale));
            results.add(comparison.pingPong(64 * 1024, 500 / scale));
            results.add(comparison.streaming(64 * 1024, (128L << 20) / scale));
            results.add(comparison.streaming(1 << 20, (128L << 20) / scale));
        }
        System.out.printf("Passthrough overhead: ExtendedSocket vs java.net.Socket, same run, %d alternating"
                + " rounds (+%d warm-up), Java %s%n%n", rounds, warmup, Runtime.version());
        System.out.printf("%-22s %-14s %16s %16s %8s %-17s %s%n",
                "test", "size", "java.net.Socket", "ExtendedSocket", "ratio", " (95% interval)", "target");
        boolean allMet = true;
        for (PairedComparison.Result r : results) {
            double ratio = r.ratio();
            boolean met = r.higherIsBetter() ? ratio >= BANDWIDTH_TARGET : ratio <= LATENCY_TARGET;
            allMet &= met;
            double[] interval = r.ratioInterval();
            System.out.printf("%-22s %-14s %11.1f %-4s %11.1f %-4s %8.3f  [%.3f, %.3f]  %s %.2f %s%n",
                    r.test(), r.size(), r.baselineMedian(), r.unit(), r.candidateMedian(), r.unit(),
                    ratio, interval[0], interval[1], r.higherIsBetter() ? ">=" : "<=",
                    r.higherIsBetter() ? BANDWIDTH_TARGET : LATENCY_TARGET, met ? "met" : "MISSED");
        }
        System.out.println();
        System.out.println(allMet ? "all targets met" : "some targets missed");
    }
}

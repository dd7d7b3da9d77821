package io.extsock.bench;

import io.extsock.IwarpOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What IWARP_MODE's stream costs next to plain {@code java.net.Socket}: ping-pong latency and
 * streaming bandwidth of the same stream code, both variants in the same run, in alternating
 * rounds on the same threads; with CRC on (the default) and off. {@link IwarpOverhead} prints
 * these with the verbs measurements.
 *
 * <p>Run: {@code java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.IwarpStreamOverhead [--quick] [--fpdu BYTES]}
 */
public final class IwarpStreamOverhead {

    private IwarpStreamOverhead() {
    }

    public static void main(String[] args) throws Exception {
        RunLength length = RunLength.of(args);
        int fpdu = 0;
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--fpdu")) {
                fpdu = Integer.parseInt(args[i + 1]);
            }
        }
        List<PairedComparison.Result> results = new ArrayList<>();
        for (boolean crc : new boolean[] {true, false}) {
            String name = "IWARP_MODE, CRC " + (crc ? "on" : "off") + (fpdu > 0 ? ", FPDU " + fpdu : "");
            Map<java.net.SocketOption<?>, Object> options = fpdu > 0
                    ? Map.of(IwarpOptions.CRC, crc, IwarpOptions.MAX_FPDU_SIZE, fpdu) : Map.of(IwarpOptions.CRC, crc);
            try (ConnectedPair plain = ConnectedPair.open(SocketVariant.PLAIN);
                 ConnectedPair iwarp = ConnectedPair.open(SocketVariant.iwarp(name, options))) {
                PairedComparison comparison = new PairedComparison(plain, iwarp, length.warmupRounds(), length.rounds());
                for (PairedComparison.Result result : measure(comparison, length)) {
                    results.add(label(result, name));
                }
            }
        }
        System.out.printf("IWARP_MODE stream vs java.net.Socket, same run, %d alternating rounds (+%d warm-up),"
                + " Java %s%n%n", length.rounds(), length.warmupRounds(), Runtime.version());
        System.out.printf("%-34s %-14s %16s %16s %8s %-17s%n", "test", "size", "java.net.Socket", "IWARP_MODE",
                "ratio", " (95% interval)");
        for (PairedComparison.Result r : results) {
            double[] interval = r.ratioInterval();
            System.out.printf("%-34s %-14s %11.1f %-4s %11.1f %-4s %8.3f  [%.3f, %.3f]%n", r.test(), r.size(),
                    r.baselineMedian(), r.unit(), r.candidateMedian(), r.unit(), r.ratio(), interval[0], interval[1]);
        }
    }

    /**
     * The stream measurements: 64-byte ping-pong, streaming in 64 KiB and in 1 MiB writes, of
     * the comparison's baseline and candidate pairs.
     */
    static List<PairedComparison.Result> measure(PairedComparison comparison, RunLength length) throws Exception {
        return List.of(
                comparison.pingPong(64, length.iterations(2000)),
                comparison.streaming(64 * 1024, length.bytes(128L << 20)),
                comparison.streaming(1 << 20, length.bytes(128L << 20)));
    }

    private static PairedComparison.Result label(PairedComparison.Result r, String variant) {
        return new PairedComparison.Result(r.test() + ", " + variant.substring(variant.indexOf("CRC")), r.size(),
                r.unit(), r.higherIsBetter(), r.baseline(), r.candidate());
    }
}

package io.extsock.bench;

import io.extsock.IwarpOptions;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What IWARP_MODE costs next to plain {@code java.net.Socket} on the same loopback in the same
 * run, through its stream and through its verbs: Send/Receive, RDMA Write and RDMA Read; with
 * CRC on (the default) and off. Each IWARP_MODE measurement is paired with the TCP measurement
 * it is judged against (a ping-pong for latencies, streaming writes of the same size for
 * bandwidths) in alternating rounds on the same threads (see {@link PairedComparison}), and
 * checked against its target:
 * <ul>
 *   <li>bandwidth at least 0.95x plain TCP at 64 KiB and 1 MiB (the target holds with CRC on;
 *       CRC off should only be faster, so it is held to the same bound);
 *   <li>64-byte latency, and RDMA Read latency, at most 1.1x a TCP round trip.
 * </ul>
 *
 * <p>Run: {@code java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.IwarpOverhead [--quick]}
 */
public final class IwarpOverhead {

    static final Target LATENCY_TARGET = new Target(false, 1.10);
    static final Target BANDWIDTH_TARGET = new Target(true, 0.95);

    private static final int LATENCY_ITERATIONS = 2000;
    private static final long BANDWIDTH_BYTES = 128L << 20;
    private static final int SMALL = 64;
    private static final int MEDIUM = 64 * 1024;
    private static final int LARGE = 1 << 20;

    /** Rounds of java.net.Socket that differ more than this (largest / smallest) get a warning mark. */
    private static final double UNSTEADY_SPREAD = 2.0;

    /** One line of the table: what was measured, with which CRC, against what. */
    record Row(Operation operation, boolean crc, PairedComparison.Result result) {

        Target.Verdict verdict() {
            return operation.target.judge(result.ratioInterval());
        }
    }

    /** The table's lines, in its order. */
    enum Operation {
        STREAM_LATENCY("stream round trip", "TCP round trip", LATENCY_TARGET),
        STREAM_BANDWIDTH("stream bandwidth", "TCP stream", BANDWIDTH_TARGET),
        SEND_RECEIVE_LATENCY("Send/Receive round trip", "TCP round trip", LATENCY_TARGET),
        SEND_RECEIVE_BANDWIDTH("Send/Receive bandwidth", "TCP stream", BANDWIDTH_TARGET),
        WRITE_BANDWIDTH("RDMA Write bandwidth", "TCP stream", BANDWIDTH_TARGET),
        READ_LATENCY("RDMA Read latency", "TCP round trip", LATENCY_TARGET),
        READ_BANDWIDTH("RDMA Read bandwidth", "TCP stream", BANDWIDTH_TARGET);

        final String title;
        final String baseline;
        final Target target;

        Operation(String title, String baseline, Target target) {
            this.title = title;
            this.baseline = baseline;
            this.target = target;
        }
    }

    private IwarpOverhead() {
    }

    public static void main(String[] args) throws Exception {
        RunLength length = RunLength.of(args);
        // A short pass first, its results dropped: the engine has much more code than the JDK's
        // socket path for the JIT to compile, and the first measurements would pay for that.
        measure(RunLength.WARM_UP);
        List<Row> rows = measure(length);
        print(rows, length);
    }

    /** Every measurement, CRC on and off: each measurement's two lines next to each other. */
    static List<Row> measure(RunLength length) throws Exception {
        List<Row> crcOn = measure(true, length);
        List<Row> crcOff = measure(false, length);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < crcOn.size(); i++) {
            rows.add(crcOn.get(i));
            rows.add(crcOff.get(i));
        }
        return rows;
    }

    private static List<Row> measure(boolean crc, RunLength length) throws Exception {
        List<Row> rows = new ArrayList<>();
        String streamName = "IWARP_MODE, CRC " + (crc ? "on" : "off");
        int iterations = length.iterations(LATENCY_ITERATIONS);
        long bytes = length.bytes(BANDWIDTH_BYTES);
        try (ConnectedPair plain = ConnectedPair.open(SocketVariant.PLAIN);
             ConnectedPair stream = ConnectedPair.open(SocketVariant.iwarp(streamName, Map.of(IwarpOptions.CRC, crc)));
             VerbsPair verbs = VerbsPair.open(crc, LARGE)) {
            PairedComparison comparison = new PairedComparison(plain, stream, length.warmupRounds(), length.rounds());
            List<PairedComparison.Result> streamResults = IwarpStreamOverhead.measure(comparison, length);
            rows.add(new Row(Operation.STREAM_LATENCY, crc, streamResults.get(0)));
            for (PairedComparison.Result result : streamResults.subList(1, streamResults.size())) {
                rows.add(new Row(Operation.STREAM_BANDWIDTH, crc, result));
            }

            rows.add(new Row(Operation.SEND_RECEIVE_LATENCY, crc, comparison.compare(
                    "latency", PairedComparison.label(SMALL), "us", false,
                    StreamRounds.pingPong(plain, SMALL, iterations),
                    new SendReceivePingPong(verbs, SMALL, iterations))));
            for (int size : new int[] {MEDIUM, LARGE}) {
                rows.add(new Row(Operation.SEND_RECEIVE_BANDWIDTH, crc, comparison.compare(
                        "bandwidth", PairedComparison.label(size) + " Sends", "MB/s", true,
                        StreamRounds.streaming(plain, size, bytes),
                        new SendReceiveBandwidth(verbs, size, bytes))));
            }
            for (int size : new int[] {MEDIUM, LARGE}) {
                rows.add(new Row(Operation.WRITE_BANDWIDTH, crc, comparison.compare(
                        "bandwidth", PairedComparison.label(size) + " Writes", "MB/s", true,
                        StreamRounds.streaming(plain, size, bytes),
                        new RdmaWriteBandwidth(verbs, size, bytes))));
            }
            rows.add(new Row(Operation.READ_LATENCY, crc, comparison.compare(
                    "latency", PairedComparison.label(SMALL), "us", false,
                    StreamRounds.pingPong(plain, SMALL, iterations),
                    new RdmaReadLatency(verbs, SMALL, iterations))));
            rows.add(new Row(Operation.READ_BANDWIDTH, crc, comparison.compare(
                    "bandwidth", PairedComparison.label(MEDIUM) + " Reads", "MB/s", true,
                    StreamRounds.streaming(plain, MEDIUM, bytes),
                    new RdmaReadBandwidth(verbs, MEDIUM, bytes))));
        }
        return rows;
    }

    private static void print(List<Row> rows, RunLength length) {
        System.out.printf("IWARP_MODE vs java.net.Socket on loopback, same run, %d alternating rounds"
                + " (+%d warm-up), Java %s%n", length.rounds(), length.warmupRounds(), Runtime.version());
        System.out.println("ratio: median over rounds of IWARP_MODE / java.net.Socket, with its 95% interval;"
                + " latency: lower is better, bandwidth: higher");
        System.out.println("target: met or MISSED when the whole interval is on that side of the bound, else unclear");
        System.out.println();
        System.out.printf("%-24s %-14s %-4s %-15s %16s %15s %7s  %-16s %s%n", "operation", "size", "CRC",
                "judged against", "java.net.Socket", "IWARP_MODE", "ratio", "(95% interval)", "target");
        Map<Target.Verdict, Integer> verdicts = new EnumMap<>(Target.Verdict.class);
        boolean anyUnsteady = false;
        for (Row row : rows) {
            PairedComparison.Result r = row.result();
            double[] interval = r.ratioInterval();
            Target.Verdict verdict = row.verdict();
            verdicts.merge(verdict, 1, Integer::sum);
            boolean unsteady = r.baselineSpread() > UNSTEADY_SPREAD;
            anyUnsteady |= unsteady;
            System.out.printf("%-24s %-14s %-4s %-15s %16s %15s %7.3f  [%.3f, %.3f]  %s %s%n",
                    row.operation().title, r.size(), row.crc() ? "on" : "off", row.operation().baseline,
                    String.format("%.1f %-4s%s", r.baselineMedian(), r.unit(), unsteady ? "*" : " "),
                    String.format("%.1f %-4s", r.candidateMedian(), r.unit()), r.ratio(), interval[0], interval[1],
                    row.operation().target, verdict.word);
        }
        System.out.println();
        if (anyUnsteady) {
            System.out.printf("* java.net.Socket's rounds differed more than %.0fx: the machine changed regime"
                    + " during the measurement (thread placement, other load), and the ratio mixes regimes%n",
                    UNSTEADY_SPREAD);
        }
        System.out.printf("targets: %d met, %d missed, %d unclear, of %d%n", verdicts.getOrDefault(Target.Verdict.MET, 0),
                verdicts.getOrDefault(Target.Verdict.MISSED, 0), verdicts.getOrDefault(Target.Verdict.UNCLEAR, 0),
                rows.size());
    }
}

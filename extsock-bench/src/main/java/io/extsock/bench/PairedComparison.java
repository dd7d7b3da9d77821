package io.extsock.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures a baseline and a candidate socket variant in alternating rounds (ABBA order) on the
 * same two threads, so that both see the same CPU placement and the same machine noise; the
 * ratio is the median of the per-round ratios.
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

        /** Median over rounds of candidate / baseline. */
        double ratio() {
            double[] ratios = new double[baseline.length];
            for (int i = 0; i < ratios.length; i++) {
                ratios[i] = candidate[i] / baseline[i];
            }
            return Stats.median(ratios);
        }

        /** 95% confidence interval of {@link #ratio()}. */
        double[] ratioInterval() {
            return Stats.pairedRatioInterval(baseline, candidate, 1);
        }
    }

    private final ConnectedPair baseline;
    private final ConnectedPair candidate;
    private final int warmupRounds;
    private final int rounds;

    PairedComparison(ConnectedPair baseline, ConnectedPair candidate, int warmupRounds, int rounds) {
        this.baseline = baseline;
        this.candidate = candidate;
        this.warmupRounds = warmupRounds;
        this.rounds = rounds;
    }

    /** Round-trip time of a ping-pong of {@code size} bytes, median per round, microseconds. */
    Result pingPong(int size, int iterations) throws Exception {
        return measure("latency (round trip)", label(size), "us", false,
                pair -> serveEcho(pair, size, iterations),
                pair -> pingPongRound(pair, size, iterations));
    }

    /** Streaming of {@code total} bytes in {@code writeSize} writes, MB/s per round. */
    Result streaming(int writeSize, long total) throws Exception {
        return measure("bandwidth (stream)", label(writeSize) + " writes", "MB/s", true,
                pair -> drain(pair, total),
                pair -> streamRound(pair, writeSize, total));
    }

    @FunctionalInterface
    private interface Side {
        double run(ConnectedPair pair) throws IOException;
    }

    private Result measure(String test, String size, String unit, boolean higherIsBetter,
                           Side serverSide, Side clientSide) throws Exception {
        int total = warmupRounds + rounds;
        List<ConnectedPair> schedule = new ArrayList<>();
        for (int round = 0; round < total; round++) {
            boolean baselineFirst = round % 4 == 0 || round % 4 == 3;  // ABBA
            schedule.add(baselineFirst ? baseline : candidate);
            schedule.add(baselineFirst ? candidate : baseline);
        }
        Exception[] serverFailure = new Exception[1];
        Thread server = new Thread(() -> {
            try {
                for (ConnectedPair pair : schedule) {
                    serverSide.run(pair);
                }
            } catch (Exception e) {
                serverFailure[0] = e;
            }
        }, "bench-server");
        server.start();
        double[] baselineValues = new double[rounds];
        double[] candidateValues = new double[rounds];
        for (int i = 0; i < schedule.size(); i++) {
            ConnectedPair pair = schedule.get(i);
            double value = clientSide.run(pair);
            int round = i / 2;
            if (round >= warmupRounds) {
                (pair == baseline ? baselineValues : candidateValues)[round - warmupRounds] = value;
            }
        }
        server.join();
        if (serverFailure[0] != null) {
            throw serverFailure[0];
        }
        return new Result(test, size, unit, higherIsBetter, baselineValues, candidateValues);
    }

    private static double serveEcho(ConnectedPair pair, int size, int iterations) throws IOException {
        InputStream in = pair.server.getInputStream();
        OutputStream out = pair.server.getOutputStream();
        byte[] buffer = new byte[size];
        for (int i = 0; i < iterations; i++) {
            readFully(in, buffer, size);
            out.write(buffer, 0, size);
        }
        return 0;
    }

    private static double pingPongRound(ConnectedPair pair, int size, int iterations) throws IOException {
        InputStream in = pair.client.getInputStream();
        OutputStream out = pair.client.getOutputStream();
        byte[] buffer = new byte[size];
        long[] nanos = new long[iterations];
        for (int i = 0; i < iterations; i++) {
            long start = System.nanoTime();
            out.write(buffer, 0, size);
            readFully(in, buffer, size);
            nanos[i] = System.nanoTime() - start;
        }
        return Stats.median(nanos) / 1_000.0;
    }

    private static double drain(ConnectedPair pair, long total) throws IOException {
        InputStream in = pair.server.getInputStream();
        byte[] buffer = new byte[64 * 1024];
        for (long left = total; left > 0; ) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                throw new IOException("unexpected end of stream");
            }
            left -= n;
        }
        pair.server.getOutputStream().write(1);  // tell the sender the last byte arrived
        return 0;
    }

    private static double streamRound(ConnectedPair pair, int writeSize, long total) throws IOException {
        OutputStream out = pair.client.getOutputStream();
        byte[] buffer = new byte[writeSize];
        long start = System.nanoTime();
        for (long left = total; left > 0; left -= writeSize) {
            out.write(buffer, 0, (int) Math.min(writeSize, left));
        }
        if (pair.client.getInputStream().read() != 1) {
            throw new IOException("no acknowledgement from the receiver");
        }
        long elapsed = System.nanoTime() - start;
        return total / (elapsed / 1e9) / 1e6;
    }

    private static void readFully(InputStream in, byte[] buffer, int size) throws IOException {
        if (in.readNBytes(buffer, 0, size) != size) {
            throw new IOException("unexpected end of stream");
        }
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

package io.extsock.bench;

import io.extsock.IwarpOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/**
 * What one 64-byte stream round trip costs in CPU time, plain {@code java.net.Socket} against
 * IWARP_MODE, both ends and the engine in this process, in alternating rounds.
 *
 * <p>Why CPU time and not only latency: on this 2-vCPU machine the loopback round trip changes
 * five-fold with where the two threads run, and a latency ratio taken across regimes says little;
 * the CPU a round trip takes (every thread's, from the kernel's scheduler clock: both ends, the
 * engine's threads and the kernel work done for them) is the same wherever they run, and it is
 * what a profile-guided change moves. Pinned to one CPU ({@code taskset -c 0}), latency and CPU
 * time coincide.
 *
 * <p>Run: {@code java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.RoundTripCost [--quick] [--size BYTES] [--no-crc]}
 */
public final class RoundTripCost {

    /** Round trips of a full round: a few hundred milliseconds. */
    private static final int FULL_ROUND_TRIPS = 100_000;

    private RoundTripCost() {
    }

    public static void main(String[] args) throws Exception {
        RunLength length = RunLength.of(args);
        int size = 64;
        boolean crc = !List.of(args).contains("--no-crc");
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--size")) {
                size = Integer.parseInt(args[i + 1]);
            }
        }
        PairedComparison.Result cpu = measure(length, size, crc);
        System.out.printf("stream ping-pong, java.net.Socket vs IWARP_MODE (CRC %s), %d alternating rounds of %d"
                + " round trips (+%d warm-up), Java %s%n%n", crc ? "on" : "off", length.rounds(),
                length.iterations(FULL_ROUND_TRIPS), length.warmupRounds(), Runtime.version());
        System.out.printf("%-22s %-8s %16s %16s %8s %-17s%n", "measure", "size", "java.net.Socket", "IWARP_MODE",
                "ratio", " (95% interval)");
        double[] interval = cpu.ratioInterval();
        System.out.printf("%-22s %-8s %13.2f us %13.2f us %8.3f  [%.3f, %.3f]%n", cpu.test(), cpu.size(),
                cpu.baselineMedian(), cpu.candidateMedian(), cpu.ratio(), interval[0], interval[1]);
        System.out.printf("%nIWARP_MODE costs %.2f us more CPU per round trip (median), %.2f us per message%n",
                cpu.candidateMedian() - cpu.baselineMedian(), (cpu.candidateMedian() - cpu.baselineMedian()) / 2);
    }

    /** CPU microseconds per round trip of each variant, per round. */
    static PairedComparison.Result measure(RunLength length, int size, boolean crc) throws Exception {
        int iterations = length.iterations(FULL_ROUND_TRIPS);
        try (ConnectedPair plain = ConnectedPair.open(SocketVariant.PLAIN);
             ConnectedPair iwarp = ConnectedPair.open(SocketVariant.iwarp("IWARP_MODE", Map.of(IwarpOptions.CRC, crc)))) {
            PairedComparison comparison = new PairedComparison(plain, iwarp, length.warmupRounds(), length.rounds());
            return comparison.compare("CPU per round trip", PairedComparison.label(size), "us", false,
                    cpuRounds(plain, size, iterations), cpuRounds(iwarp, size, iterations));
        }
    }

    /** Ping-pong rounds whose value is the CPU time of every thread per round trip, in microseconds. */
    private static Contender cpuRounds(ConnectedPair pair, int size, int iterations) {
        ThreadCpu cpu = new ThreadCpu();
        return new Contender() {
            public void serve(int round) throws IOException {
                StreamRounds.serveEcho(pair, size, iterations);
            }

            public double run(int round) throws IOException {
                InputStream in = pair.client.getInputStream();
                OutputStream out = pair.client.getOutputStream();
                byte[] buffer = new byte[size];
                cpu.start();
                for (int i = 0; i < iterations; i++) {
                    out.write(buffer, 0, size);
                    StreamRounds.readFully(in, buffer, size);
                }
                return cpu.elapsedNanos() / 1_000.0 / iterations;
            }
        };
    }
}

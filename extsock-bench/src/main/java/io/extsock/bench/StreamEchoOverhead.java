package io.extsock.bench;

import io.extsock.IwarpOptions;
import java.util.Map;

/**
 * The demo's stream echo, warm and on one long connection per variant: IWARP_MODE (CRC on)
 * against plain {@code java.net.Socket} in alternating rounds of 256 MiB each way (64 KiB
 * writes), with three threads busy (writer, reader, echo) on however many cores there are.
 * Where the demo times single 64 MiB connections (their start, and the JIT, included), this
 * says what the stream itself costs an echo once running.
 *
 * <p>Run: {@code java -cp 'extsock-bench/target/extsock-bench.jar:extsock-bench/target/lib/*'
 * io.extsock.bench.StreamEchoOverhead [--quick]}
 */
public final class StreamEchoOverhead {

    private static final int CHUNK = 64 * 1024;

    private StreamEchoOverhead() {
    }

    public static void main(String[] args) throws Exception {
        RunLength length = RunLength.of(args);
        long total = length.bytes(256L << 20);
        try (ConnectedPair plain = ConnectedPair.open(SocketVariant.PLAIN);
             ConnectedPair iwarp = ConnectedPair.open(SocketVariant.iwarp("IWARP_MODE", Map.of(IwarpOptions.CRC, true)))) {
            PairedComparison comparison = new PairedComparison(plain, iwarp, length.warmupRounds(), length.rounds());
            PairedComparison.Result r = comparison.compare("stream echo", PairedComparison.label(CHUNK) + " writes",
                    "MB/s", true, StreamRounds.echo(plain, CHUNK, total), StreamRounds.echo(iwarp, CHUNK, total));
            double[] interval = r.ratioInterval();
            System.out.printf("stream echo, %d MiB a round, %d alternating rounds (+%d warm-up), Java %s%n%n",
                    total >> 20, length.rounds(), length.warmupRounds(), Runtime.version());
            System.out.printf("%-14s %-14s %16s %16s %8s %-17s%n", "test", "size", "java.net.Socket", "IWARP_MODE",
                    "ratio", " (95% interval)");
            System.out.printf("%-14s %-14s %11.1f %-4s %11.1f %-4s %8.3f  [%.3f, %.3f]%n", r.test(), r.size(),
                    r.baselineMedian(), r.unit(), r.candidateMedian(), r.unit(), r.ratio(), interval[0], interval[1]);
        }
    }
}

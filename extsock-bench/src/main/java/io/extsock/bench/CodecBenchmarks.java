package io.extsock.bench;

import java.util.Collection;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link CodecThroughput} with JMH and reports GB/s (octets of the framed stream per
 * second) and the ratio to CRC32C alone in the same run.
 *
 * <p>Run: {@code java -cp extsock-bench/target/benchmarks.jar io.extsock.bench.CodecBenchmarks}
 */
public final class CodecBenchmarks {

    private CodecBenchmarks() {
    }

    public static void main(String[] args) throws Exception {
        Options options = new OptionsBuilder()
                .include(CodecThroughput.class.getName() + "\\.")
                .build();
        Collection<RunResult> results = new Runner(options).run();
        System.out.printf("%nCodec receive path, %d RDMA Writes of 64 KiB, CRC32c on, Java %s%n",
                CodecThroughput.MESSAGES, Runtime.version());
        System.out.printf("%-26s %10s %12s %10s%n", "benchmark", "FPDU size", "GB/s", "vs CRC32C");
        for (String fpdu : new String[] {"1448", "16384"}) {
            double crcRate = 0;
            double codecRate = 0;
            long bytes = 0;
            for (RunResult result : results) {
                if (!fpdu.equals(result.getParams().getParam("maxFpduSize"))) {
                    continue;
                }
                double opsPerSecond = result.getPrimaryResult().getScore();
                bytes = streamBytes(Integer.parseInt(fpdu));
                double rate = opsPerSecond * bytes / 1e9;
                if (result.getParams().getBenchmark().endsWith("crc32c")) {
                    crcRate = rate;
                } else {
                    codecRate = rate;
                }
            }
            System.out.printf("%-26s %10s %12.2f %10s%n", "CRC32C alone", fpdu, crcRate, "1.00");
            System.out.printf("%-26s %10s %12.2f %10.2f%n", "deframe+CRC+parse+place", fpdu, codecRate,
                    codecRate / crcRate);
        }
    }

    /** The framed stream's size for the FPDU size (the benchmark's JVM is a fork: recompute). */
    private static long streamBytes(int maxFpduSize) {
        CodecThroughput state = new CodecThroughput();
        state.maxFpduSize = maxFpduSize;
        state.encode();
        return CodecThroughput.streamBytes;
    }
}

package io.extsock.examples.cli;

import java.util.Arrays;

/** Summary of measured latencies, in nanoseconds: what perftest and the echo client print. */
public record LatencyStats(int count, double min, double max, double typical, double average, double stdev,
                    double p50, double p90, double p99, double p999) {

    /** Summarises the first {@code count} samples; sorts them in place. */
    public static LatencyStats of(long[] samples, int count) {
        if (count == 0) {
            return new LatencyStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        Arrays.sort(samples, 0, count);
        double sum = 0;
        for (int i = 0; i < count; i++) {
            sum += samples[i];
        }
        double average = sum / count;
        double squares = 0;
        for (int i = 0; i < count; i++) {
            squares += (samples[i] - average) * (samples[i] - average);
        }
        double median = percentile(samples, count, 50);
        return new LatencyStats(count, samples[0], samples[count - 1], median, average, Math.sqrt(squares / count),
                median, percentile(samples, count, 90), percentile(samples, count, 99), percentile(samples, count, 99.9));
    }

    /** Nearest-rank percentile of sorted samples, as perftest computes its 99% and 99.9%. */
    private static double percentile(long[] sorted, int count, double percent) {
        int rank = (int) Math.ceil(percent / 100 * count);
        return sorted[Math.max(0, Math.min(count - 1, rank - 1))];
    }

    /** The same statistics with every value divided, e.g. by 2 for one-way latency from round trips. */
    public LatencyStats dividedBy(double divisor) {
        return new LatencyStats(count, min / divisor, max / divisor, typical / divisor, average / divisor,
                stdev / divisor, p50 / divisor, p90 / divisor, p99 / divisor, p999 / divisor);
    }
}

package io.extsock.bench;

import java.util.Arrays;

/** Order statistics over samples. */
final class Stats {

    private Stats() {
    }

    static double median(double[] samples) {
        return percentile(samples, 50);
    }

    /** The p-th percentile (nearest rank) of the samples; the array is not modified. */
    static double percentile(double[] samples, double p) {
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    static double median(long[] samples) {
        return median(Arrays.stream(samples).asDoubleStream().toArray());
    }
}

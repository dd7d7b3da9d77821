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

    /**
     * A 95% bootstrap confidence interval of the median of {@code candidate[i] / baseline[i]}
     * over paired rounds: how far the reported ratio could move by chance.
     */
    static double[] pairedRatioInterval(double[] baseline, double[] candidate, long seed) {
        int n = baseline.length;
        double[] medians = new double[2000];
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        double[] resample = new double[n];
        for (int b = 0; b < medians.length; b++) {
            for (int i = 0; i < n; i++) {
                int pick = random.nextInt(n);
                resample[i] = candidate[pick] / baseline[pick];
            }
            medians[b] = median(resample);
        }
        return new double[] {percentile(medians, 2.5), percentile(medians, 97.5)};
    }

    static double median(long[] samples) {
        return median(Arrays.stream(samples).asDoubleStream().toArray());
    }
}

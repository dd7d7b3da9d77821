package io.extsock.examples.perf;

import java.util.Arrays;

/**
 * A distribution-free 95% confidence interval for a median, from order statistics: with the
 * values sorted, x(1) <= ... <= x(n), the interval [x(j), x(k)] holds the true median with
 * probability P(j <= B <= k - 1), B ~ Binomial(n, 1/2) (B counts the values below the median).
 * The ranks are symmetric, k = n + 1 - j, with j the largest rank whose coverage is still at
 * least 95%. It assumes only independent rounds of one continuous distribution. Below six values
 * no pair of ranks reaches 95% (n = 5 gives at most 1 - 2/32 = 93.75%): there is no interval.
 *
 * @param low      x(j)
 * @param median   the sample median
 * @param high     x(k)
 * @param coverage the exact P(j <= B <= k - 1), at least 0.95
 */
public record MedianInterval(double low, double median, double high, double coverage) {

    /** The fewest values with a 95% interval. */
    public static final int MIN_VALUES = 6;

    private static final double LEVEL = 0.95;

    /**
     * The 1-based ranks {j, k} of the interval for n values, or null below {@link #MIN_VALUES}.
     */
    public static int[] ranks(int n) {
        int best = 0;
        for (int j = 1; j <= (n + 1) / 2; j++) {
            if (coverage(n, j) >= LEVEL) {
                best = j;
            } else {
                break;
            }
        }
        return best == 0 ? null : new int[] {best, n + 1 - best};
    }

    /** P(j <= B <= n - j) for B ~ Bin(n, 1/2): 1 - 2 P(B <= j - 1). */
    public static double coverage(int n, int j) {
        return 1 - 2 * binomialCdf(n, j - 1);
    }

    /** The median of the values and its 95% interval; null when there are too few values for one. */
    public static MedianInterval of(double[] values) {
        int[] ranks = ranks(values.length);
        if (ranks == null) {
            return null;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return new MedianInterval(sorted[ranks[0] - 1], median(sorted), sorted[ranks[1] - 1],
                coverage(values.length, ranks[0]));
    }

    /** The median of sorted values (the mean of the middle two for an even count). */
    public static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** P(B <= m) for B ~ Bin(n, 1/2), summed exactly in doubles (n is a count of rounds: small). */
    private static double binomialCdf(int n, int m) {
        double sum = 0;
        double term = Math.pow(0.5, n);  // C(n, 0) / 2^n
        for (int i = 0; i <= m; i++) {
            sum += term;
            term = term * (n - i) / (i + 1);
        }
        return sum;
    }
}

package io.extsock.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A paired result's ratio and 95% interval are perf compare's: the median of the rounds'
 * ratios, and the order-statistic interval of that median (no interval below six rounds).
 */
class PairedComparisonResultTest {

    /** Six rounds: the interval is [x(1), x(6)] of the rounds' ratios, the median the mean of the middle two. */
    @Test
    void sixRoundsGiveTheOrderStatisticInterval() {
        PairedComparison.Result result = result(new double[] {2, 4, 10, 1, 5, 8},
                new double[] {2.6, 3.6, 11, 1, 6, 11.2});  // ratios 1.3, 0.9, 1.1, 1.0, 1.2, 1.4
        assertEquals(1.15, result.ratio(), 1e-12);
        assertArrayEquals(new double[] {0.9, 1.4}, result.ratioInterval(), 1e-12);
    }

    /** The ratio pairs each round with its own baseline: not the ratio of the medians. */
    @Test
    void theRatioIsTheMedianOfTheRoundsRatios() {
        PairedComparison.Result result = result(new double[] {1, 2, 3, 4, 5, 6, 7},
                new double[] {2, 4, 6, 1, 2, 3, 4});  // ratios 2, 2, 2, 0.25, 0.4, 0.5, 4/7
        assertEquals(4.0 / 7, result.ratio(), 1e-12);
        assertEquals(3.0 / 4, result.candidateMedian() / result.baselineMedian(), 1e-12);
    }

    @Test
    void fewerThanSixRoundsHaveNoIntervalAndNoVerdict() {
        PairedComparison.Result result = result(new double[] {1, 2}, new double[] {3, 4});
        double[] interval = result.ratioInterval();
        assertTrue(Double.isNaN(interval[0]) && Double.isNaN(interval[1]), interval[0] + ", " + interval[1]);
        assertEquals(Target.Verdict.UNCLEAR, new Target(false, 1.5).judge(interval));
    }

    @Test
    void aTargetIsJudgedOnTheWholeInterval() {
        Target atMost = new Target(false, 1.2);
        assertEquals(Target.Verdict.MET, atMost.judge(new double[] {1.0, 1.1}));
        assertEquals(Target.Verdict.UNCLEAR, atMost.judge(new double[] {1.1, 1.3}));
        assertEquals(Target.Verdict.MISSED, atMost.judge(new double[] {1.3, 1.4}));
    }

    private static PairedComparison.Result result(double[] baseline, double[] candidate) {
        return new PairedComparison.Result("latency", "64 B", "us", false, baseline, candidate);
    }
}

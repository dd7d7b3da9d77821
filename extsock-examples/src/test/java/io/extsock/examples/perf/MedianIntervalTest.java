package io.extsock.examples.perf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The order-statistic interval of a median, against ranks and coverages worked out by hand. */
class MedianIntervalTest {

    @Test
    void tooFewRoundsHaveNoInterval() {
        for (int n = 0; n < 6; n++) {
            assertNull(MedianInterval.ranks(n), "n=" + n);
            assertNull(MedianInterval.of(new double[n]), "n=" + n);
        }
        // n = 5: the widest interval, [x(1), x(5)], covers 1 - 2/32 only
        assertEquals(0.9375, MedianInterval.coverage(5, 1), 1e-15);
    }

    /** n = 6: [x(1), x(6)], 1 - 2/64 = 0.96875 (j = 2 would cover 1 - 2*7/64 = 0.78). */
    @Test
    void sixRounds() {
        assertArrayEquals(new int[] {1, 6}, MedianInterval.ranks(6));
        MedianInterval interval = MedianInterval.of(new double[] {1.3, 0.9, 1.1, 1.0, 1.2, 1.4});
        assertEquals(0.9, interval.low());
        assertEquals(1.15, interval.median(), 1e-12);
        assertEquals(1.4, interval.high());
        assertEquals(0.96875, interval.coverage(), 1e-15);
    }

    /** n = 10: P(B <= 1) = 11/1024, P(B <= 2) = 56/1024: [x(2), x(9)], 1 - 22/1024. */
    @Test
    void tenRounds() {
        assertArrayEquals(new int[] {2, 9}, MedianInterval.ranks(10));
        MedianInterval interval = MedianInterval.of(new double[] {10, 1, 9, 2, 8, 3, 7, 4, 6, 5});
        assertEquals(2, interval.low());
        assertEquals(5.5, interval.median());
        assertEquals(9, interval.high());
        assertEquals(1 - 22.0 / 1024, interval.coverage(), 1e-15);
    }

    /**
     * n = 30: P(B <= 9) = 22 964 087 / 2^30 = 0.02139 and P(B <= 10) = 0.04937, so j = 10, k = 21,
     * coverage 1 - 2 * 0.02139.
     */
    @Test
    void thirtyRounds() {
        assertArrayEquals(new int[] {10, 21}, MedianInterval.ranks(30));
        double[] values = new double[30];
        for (int i = 0; i < 30; i++) {
            values[i] = 100 - i;  // 71 .. 100, reversed: the method sorts
        }
        MedianInterval interval = MedianInterval.of(values);
        assertEquals(80, interval.low());
        assertEquals(85.5, interval.median());
        assertEquals(91, interval.high());
        assertEquals(1 - 2 * 22_964_087.0 / (1 << 30), interval.coverage(), 1e-12);
    }

    @Test
    void coverageIsAlwaysAtLeastNinetyFivePercentAndTheNextRankFallsShort() {
        for (int n = 6; n <= 200; n++) {
            int[] ranks = MedianInterval.ranks(n);
            assertEquals(n + 1, ranks[0] + ranks[1], "symmetric, n=" + n);
            double coverage = MedianInterval.coverage(n, ranks[0]);
            assertEquals(true, coverage >= 0.95, "n=" + n + ": " + coverage);
            assertEquals(true, MedianInterval.coverage(n, ranks[0] + 1) < 0.95, "n=" + n);
        }
    }
}

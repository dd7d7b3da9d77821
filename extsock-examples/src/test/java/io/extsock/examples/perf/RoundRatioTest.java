package io.extsock.examples.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A ratio says which way it goes: faster or slower, whichever way its figure goes, only when its interval does. */
class RoundRatioTest {

    private static final double[] ABOVE_ONE = {1.3, 1.2, 1.4, 1.25, 1.35, 1.5};
    private static final double[] BELOW_ONE = {0.7, 0.8, 0.75, 0.9, 0.85, 0.6};
    private static final double[] AROUND_ONE = {0.9, 1.1, 0.95, 1.05, 1.2, 0.8};

    @Test
    void aLatencyRatioAboveOneIsSlowerAndABandwidthRatioAboveOneFaster() {
        assertEquals("slower", RoundRatio.of(ABOVE_ONE).verdict(false, false));
        assertEquals("faster", RoundRatio.of(ABOVE_ONE).verdict(true, false));
        assertEquals("faster", RoundRatio.of(BELOW_ONE).verdict(false, false));
        assertEquals("slower", RoundRatio.of(BELOW_ONE).verdict(true, false));
    }

    @Test
    void anIntervalThatHoldsOneIsNoClearDifference() {
        assertEquals("no clear difference", RoundRatio.of(AROUND_ONE).verdict(false, false));
        assertEquals("no clear difference", RoundRatio.of(AROUND_ONE).verdict(true, false));
    }

    @Test
    void fewRoundsSayItAndTheBaselineIsTheBaseline() {
        assertEquals("slower (n<6)", RoundRatio.of(new double[] {1.5, 1.7}).verdict(false, false));
        assertEquals("baseline", RoundRatio.of(new double[] {1, 1, 1, 1, 1, 1}).verdict(false, true));
    }
}

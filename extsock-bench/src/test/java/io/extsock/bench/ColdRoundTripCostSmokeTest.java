package io.extsock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ColdRoundTripCost harness end to end with tiny rounds, each way of cooling: every round of
 * both variants yields a round-trip time. Not a performance test.
 */
@Timeout(120)
class ColdRoundTripCostSmokeTest {

    /** Rotating over 5 connections: 10 round trips a round, each connection twice. */
    private static final RunLength TINY = new RunLength(1, 2, 10);

    @Test
    void rotatingOverConnectionsMeasuresEveryRound() throws Exception {
        PairedComparison.Result result = ColdRoundTripCost.measure(TINY, 64, ColdRoundTripCost.Cooling.rotating(5), 100);

        EveryRound.assertMeasured(result, TINY.rounds());
    }

    @Test
    void pausingBeforeEachRoundTripMeasuresEveryRound() throws Exception {
        PairedComparison.Result result = ColdRoundTripCost.measure(TINY, 64, ColdRoundTripCost.Cooling.pausing(2_000), 100);

        EveryRound.assertMeasured(result, TINY.rounds());
    }

    @Test
    void sweepingTheCacheMeasuresEveryRound() throws Exception {
        PairedComparison.Result result = ColdRoundTripCost.measure(TINY, 64, ColdRoundTripCost.Cooling.sweeping(1), 100);

        EveryRound.assertMeasured(result, TINY.rounds());
    }

    @Test
    void aSweepReadsEveryLineOfItsBuffer() {
        CacheSweep sweep = new CacheSweep(1);
        long before = sweep.sum();
        sweep.run();

        assertEquals(16_384, sweep.lines(), "one word a 64-octet line of 1 MiB");
        // Line i's word holds i * 8 (its index in words): the sum of them all, once per sweep.
        long expected = 8L * 16_383 * 16_384 / 2;
        assertEquals(expected, sweep.sum() - before);
        assertThrows(IllegalArgumentException.class, () -> new CacheSweep(0));
        assertThrows(IllegalArgumentException.class, () -> new CacheSweep(CacheSweep.MOST_MEBIBYTES + 1));
        assertThrows(IllegalArgumentException.class, () -> ColdRoundTripCost.Cooling.rotating(0));
        assertThrows(IllegalArgumentException.class, () -> ColdRoundTripCost.Cooling.pausing(0));
        assertTrue(ColdRoundTripCost.Cooling.rotating(3).fullRoundTrips() > 3, "every connection more than once");
        assertEquals(ColdRoundTripCost.Cooling.rotating(7), ColdRoundTripCost.Cooling.of(new String[] {"--connections", "7"}));
        assertEquals(ColdRoundTripCost.Cooling.pausing(30), ColdRoundTripCost.Cooling.of(new String[] {"--quick", "--pause", "30"}));
        assertEquals(ColdRoundTripCost.DEFAULT_CONNECTIONS, ColdRoundTripCost.Cooling.of(new String[] {"--quick"}).connections());
    }
}

package io.extsock.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ColdWaitFloor harness end to end with tiny rounds, each way of cooling: every round of both
 * ways of waiting yields a round-trip time (its first round checks each answer). Not a
 * performance test.
 */
@Timeout(120)
class ColdWaitFloorSmokeTest {

    private static final RunLength TINY = new RunLength(1, 2, 10);

    @Test
    void rotatingOverConnectionsMeasuresEveryRound() throws Exception {
        PairedComparison.Result result = ColdWaitFloor.measure(TINY, ColdRoundTripCost.Cooling.rotating(5), 100);

        EveryRound.assertMeasured(result, TINY.rounds());
    }

    @Test
    void pausingBeforeEachRoundTripMeasuresEveryRound() throws Exception {
        PairedComparison.Result result = ColdWaitFloor.measure(TINY, ColdRoundTripCost.Cooling.pausing(2_000), 100);

        EveryRound.assertMeasured(result, TINY.rounds());
    }

    @Test
    void sweepingTheCacheMeasuresEveryRound() throws Exception {
        PairedComparison.Result result = ColdWaitFloor.measure(TINY, ColdRoundTripCost.Cooling.sweeping(1), 100);

        EveryRound.assertMeasured(result, TINY.rounds());
    }
}

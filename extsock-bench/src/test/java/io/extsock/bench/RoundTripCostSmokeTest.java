package io.extsock.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The RoundTripCost harness end to end with tiny rounds: both variants run their ping-pongs and
 * each round yields a CPU time per round trip. Not a performance test.
 */
@Timeout(60)
class RoundTripCostSmokeTest {

    @Test
    void everyRoundYieldsACpuTimePerRoundTripForBothVariants() throws Exception {
        RunLength tiny = new RunLength(1, 2, 100);
        PairedComparison.Result result = RoundTripCost.measure(tiny, 64, true);

        EveryRound.assertMeasured(result, tiny.rounds());
    }
}

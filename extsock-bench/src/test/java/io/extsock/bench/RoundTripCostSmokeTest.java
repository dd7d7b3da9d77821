package io.extsock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The RoundTripCost harness end to end with tiny rounds: both variants run their ping-pongs and
 * each round yields a CPU time per round trip that a round trip can take (more than nothing,
 * less than a second). Not a performance test.
 */
@Timeout(60)
class RoundTripCostSmokeTest {

    @Test
    void everyRoundYieldsACpuTimePerRoundTripForBothVariants() throws Exception {
        RunLength tiny = new RunLength(1, 2, 100);
        PairedComparison.Result result = RoundTripCost.measure(tiny, 64, true);

        assertEquals(tiny.rounds(), result.baseline().length);
        assertEquals(tiny.rounds(), result.candidate().length);
        for (int round = 0; round < tiny.rounds(); round++) {
            assertPlausible(result.baseline()[round], "java.net.Socket, round " + round);
            assertPlausible(result.candidate()[round], "IWARP_MODE, round " + round);
        }
    }

    private static void assertPlausible(double microseconds, String what) {
        assertTrue(microseconds > 0 && microseconds < 1_000_000, what + ": " + microseconds + " us");
    }
}

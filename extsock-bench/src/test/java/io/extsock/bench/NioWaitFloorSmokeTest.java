package io.extsock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The NioWaitFloor harness end to end with tiny rounds: both ways of waiting complete their
 * ping-pongs (a byte lost or a wait that never ends would hang here, under the timeout), and
 * every round yields a round trip time and a CPU time a round trip can take. Not a
 * performance test.
 */
@Timeout(60)
class NioWaitFloorSmokeTest {

    @Test
    void bothWaysOfWaitingYieldEveryRound() throws Exception {
        RunLength tiny = new RunLength(1, 2, 100);
        NioWaitFloor.Result result = NioWaitFloor.measure(tiny);

        for (PairedComparison.Result measure : new PairedComparison.Result[] {result.latency(), result.cpu()}) {
            assertEquals(tiny.rounds(), measure.baseline().length, measure.test());
            assertEquals(tiny.rounds(), measure.candidate().length, measure.test());
            for (int round = 0; round < tiny.rounds(); round++) {
                assertPlausible(measure.baseline()[round], measure.test() + ", blocking, round " + round);
                assertPlausible(measure.candidate()[round], measure.test() + ", selector, round " + round);
            }
        }
    }

    private static void assertPlausible(double microseconds, String what) {
        assertTrue(microseconds > 0 && microseconds < 1_000_000, what + ": " + microseconds + " us");
    }
}

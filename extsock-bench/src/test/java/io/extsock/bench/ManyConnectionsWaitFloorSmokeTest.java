package io.extsock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ManyConnectionsWaitFloor harness end to end with tiny rounds: every connection's round
 * trips complete both ways of waiting (a byte lost or a wait that never ends would hang here,
 * under the timeout; a short read fails the round), and every round yields a wall time. Not a
 * performance test.
 */
@Timeout(60)
class ManyConnectionsWaitFloorSmokeTest {

    @Test
    void bothWaysOfWaitingYieldEveryRound() throws Exception {
        RunLength tiny = new RunLength(1, 2, 1);
        PairedComparison.Result result = ManyConnectionsWaitFloor.measure(tiny, 8, 20);

        assertEquals(tiny.rounds(), result.baseline().length);
        assertEquals(tiny.rounds(), result.candidate().length);
        for (int round = 0; round < tiny.rounds(); round++) {
            assertPlausible(result.baseline()[round], "blocking, round " + round);
            assertPlausible(result.candidate()[round], "selector, round " + round);
        }
    }

    private static void assertPlausible(double milliseconds, String what) {
        assertTrue(milliseconds > 0 && milliseconds < 60_000, what + ": " + milliseconds + " ms");
    }
}

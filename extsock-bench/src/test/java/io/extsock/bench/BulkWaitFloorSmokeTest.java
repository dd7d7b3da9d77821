package io.extsock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The BulkWaitFloor harness end to end with tiny rounds: both ways of waiting carry every byte
 * of every round (the reader fails a round that ends short or long, and a wait that never ends
 * would hang here, under the timeout), and each round yields a bandwidth. Not a performance test.
 */
@Timeout(60)
class BulkWaitFloorSmokeTest {

    @Test
    void bothWaysOfWaitingCarryEveryRound() throws Exception {
        RunLength tiny = new RunLength(1, 2, 1024);  // 1 MiB a round
        PairedComparison.Result result = BulkWaitFloor.measure(tiny, 4096);

        assertEquals(tiny.rounds(), result.baseline().length);
        assertEquals(tiny.rounds(), result.candidate().length);
        for (int round = 0; round < tiny.rounds(); round++) {
            assertPlausible(result.baseline()[round], "blocking, round " + round);
            assertPlausible(result.candidate()[round], "selector, round " + round);
        }
    }

    private static void assertPlausible(double megabytesPerSecond, String what) {
        assertTrue(megabytesPerSecond > 0 && megabytesPerSecond < 1_000_000, what + ": " + megabytesPerSecond + " MB/s");
    }
}

package io.extsock.bench;

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
        EveryRound.assertMeasured(BulkWaitFloor.measure(tiny, 4096), tiny.rounds());
    }
}

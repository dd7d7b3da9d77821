package io.extsock.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The BulkFramingFloor harness end to end with tiny rounds: plain and framed carry every payload
 * byte of every round (the framed reader checks each CRC, and a round that ends short or long
 * fails), and each round yields a bandwidth. Not a performance test.
 */
@Timeout(60)
class BulkFramingFloorSmokeTest {

    @Test
    void plainAndFramedCarryEveryRound() throws Exception {
        RunLength tiny = new RunLength(1, 2, 1024);  // 1 MiB a round
        EveryRound.assertMeasured(BulkFramingFloor.measure(tiny, 4096), tiny.rounds());
    }
}

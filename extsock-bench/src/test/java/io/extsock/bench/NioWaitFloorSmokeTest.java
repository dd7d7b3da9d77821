package io.extsock.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The NioWaitFloor harness end to end with tiny rounds: both ways of waiting complete their
 * ping-pongs (a byte lost or a wait that never ends would hang here, under the timeout), and
 * every round yields a round trip time and a CPU time. Not a performance test.
 */
@Timeout(60)
class NioWaitFloorSmokeTest {

    @Test
    void bothWaysOfWaitingYieldEveryRound() throws Exception {
        RunLength tiny = new RunLength(1, 2, 100);
        RoundTripMeasures result = NioWaitFloor.measure(tiny);

        EveryRound.assertMeasured(result.latency(), tiny.rounds());
        EveryRound.assertMeasured(result.cpu(), tiny.rounds());
    }
}

package io.extsock.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ManyConnectionsWaitFloor harness end to end with tiny rounds: every connection's round
 * trips complete both ways of waiting (a byte lost or a wait that never ends would hang here,
 * under the timeout; a connection closed early fails the round), and every round yields a wall
 * time. Not a performance test.
 */
@Timeout(60)
class ManyConnectionsWaitFloorSmokeTest {

    @Test
    void bothWaysOfWaitingYieldEveryRound() throws Exception {
        RunLength tiny = new RunLength(1, 2, 1);
        EveryRound.assertMeasured(ManyConnectionsWaitFloor.measure(tiny, 8, 20), tiny.rounds());
    }
}

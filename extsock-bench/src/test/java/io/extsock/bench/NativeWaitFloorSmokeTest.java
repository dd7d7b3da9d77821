package io.extsock.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The NativeWaitFloor harness end to end with tiny rounds: blocking reads and each native wait
 * complete their ping-pongs, every answer checked in the warm-up round (a byte lost or a wait
 * that never ends would hang here, under the timeout), every round yields a round trip time
 * and a CPU time, and each way makes the system calls a round trip that its design says: a
 * write and a read each side when blocking or through io_uring, and a wait more with epoll or
 * poll (a 64-byte message arrives whole on loopback, so a read seldom comes up short). Not a
 * performance test.
 */
@EnabledOnOs(value = OS.LINUX, disabledReason = "NativeLink makes Linux system calls")
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)  // a native wait ignores interrupts
class NativeWaitFloorSmokeTest {

    @ParameterizedTest
    @EnumSource(value = NativeLink.Wait.class, names = {"EPOLL_THEN_READ", "POLL_THEN_READ", "IO_URING"})
    void eachWayOfWaitingYieldsEveryRound(NativeLink.Wait candidate) throws Exception {
        RunLength tiny = new RunLength(1, 2, 100);
        NativeWaitFloor.Measured result = NativeWaitFloor.measure(candidate, tiny);

        EveryRound.assertMeasured(result.roundTrips().latency(), tiny.rounds());
        EveryRound.assertMeasured(result.roundTrips().cpu(), tiny.rounds());
        assertCallsBetween(4, result.blockingCalls());
        assertCallsBetween(candidate == NativeLink.Wait.IO_URING ? 4 : 6, result.candidateCalls());
    }

    private static void assertCallsBetween(int designed, double counted) {
        assertTrue(counted >= designed && counted <= designed + 0.5,
                "system calls a round trip: " + counted + ", designed " + designed);
    }
}

package io.extsock.bench;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The NativeWaitFloor harness end to end with tiny rounds: blocking reads and each native wait
 * complete their ping-pongs, every answer checked in the warm-up round (a byte lost or a wait
 * that never ends would hang here, under the timeout), and every round yields a round trip time
 * and a CPU time. Not a performance test.
 */
@EnabledOnOs(value = OS.LINUX, disabledReason = "NativeLink makes Linux system calls")
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)  // a native wait ignores interrupts
class NativeWaitFloorSmokeTest {

    @ParameterizedTest
    @EnumSource(value = NativeLink.Wait.class, names = {"EPOLL_THEN_READ", "POLL_THEN_READ"})
    void eachWayOfWaitingYieldsEveryRound(NativeLink.Wait candidate) throws Exception {
        RunLength tiny = new RunLength(1, 2, 100);
        RoundTripMeasures result = NativeWaitFloor.measure(candidate, tiny);

        EveryRound.assertMeasured(result.latency(), tiny.rounds());
        EveryRound.assertMeasured(result.cpu(), tiny.rounds());
    }
}

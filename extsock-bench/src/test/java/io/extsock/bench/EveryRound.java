package io.extsock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the paired benchmarks' smoke tests ask of a result: a value for each contender in every
 * measured round, finite and positive. Their real check is that the run ends at all, with every
 * byte carried (a lost byte or a wait that never ends hangs the harness, under the test's
 * timeout), and that it throws nothing.
 */
final class EveryRound {

    private EveryRound() {
    }

    static void assertMeasured(PairedComparison.Result result, int rounds) {
        assertEquals(rounds, result.baseline().length, result.test() + ": the baseline's rounds");
        assertEquals(rounds, result.candidate().length, result.test() + ": the candidate's rounds");
        for (int round = 0; round < rounds; round++) {
            assertValue(result.baseline()[round], result.test() + ", baseline, round " + round);
            assertValue(result.candidate()[round], result.test() + ", candidate, round " + round);
        }
    }

    private static void assertValue(double value, String what) {
        assertTrue(Double.isFinite(value) && value > 0, what + ": " + value);
    }
}

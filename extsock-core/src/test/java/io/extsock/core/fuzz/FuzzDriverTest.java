package io.extsock.core.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The fuzz driver itself: it passes typed rejections, and fails on anything else with what reproduces it. */
@Timeout(value = 30, unit = TimeUnit.MINUTES)  // per test: a hang fails; the long runs' largest surface takes minutes
class FuzzDriverTest {

    @Test
    void typedRejectionsPassAndAreCounted() {
        Fuzz.Stats stats = Fuzz.run("driver, typed", 200, random -> new byte[] {(byte) random.nextInt(256)},
                (input, random) -> {
                    if (input[0] < 0) {
                        throw new ProtocolViolationException(TerminateCause.LLP_MPA_CRC, "negative");
                    }
                });
        assertEquals(200, stats.total());
        assertTrue(stats.rejected > 0 && stats.accepted > 0, stats.toString());
    }

    @Test
    void anUncheckedExceptionFailsNamingSeedIndexAndOctets() {
        byte[][] seen = new byte[1][];
        AssertionError failure = assertThrows(AssertionError.class, () -> Fuzz.run("driver, unchecked", 1000,
                random -> Mutator.mutate(random, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, new Mutator.Field[0], null),
                (input, random) -> {
                    if (input.length > 8) {
                        seen[0] = input;
                        throw new ArrayIndexOutOfBoundsException(input.length);
                    }
                }));
        assertInstanceOf(ArrayIndexOutOfBoundsException.class, failure.getCause());
        assertTrue(failure.getMessage().contains(HexFormat.of().formatHex(seen[0])), failure.getMessage());
        assertTrue(failure.getMessage().contains("-Dextsock.fuzz.seed=" + Fuzz.seed()), failure.getMessage());
    }

    @Test
    void theSameSeedMakesTheSameInputs() {
        byte[][] first = new byte[50][];
        byte[][] second = new byte[50][];
        for (byte[][] into : new byte[][][] {first, second}) {
            int[] index = {0};
            Fuzz.run("driver, determinism", 50,
                    random -> Mutator.mutate(random, new byte[] {9, 8, 7, 6, 5}, new Mutator.Field[] {
                        new Mutator.Field(0, 2)}, new byte[] {1, 1, 1}),
                    (input, random) -> into[index[0]++] = input);
        }
        assertTrue(Arrays.deepEquals(first, second));
    }
}

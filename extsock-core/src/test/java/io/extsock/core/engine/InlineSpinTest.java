package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** When and how long a waiting thread polls its socket before it blocks. */
class InlineSpinTest {

    private static final long LONGEST = 80_000;

    @Test
    void oneCpuNeverSpinsAndMoreSpinOneThreadEach() {
        assertEquals(0, InlineSpin.spinnersFor(1));
        assertEquals(2, InlineSpin.spinnersFor(2));
        assertEquals(8, InlineSpin.spinnersFor(8));
        assertEquals(0, new InlineSpin(LONGEST, 0, new AtomicInteger(), () -> true).begin(Long.MAX_VALUE));
    }

    @Test
    void aLongestOfZeroTurnsSpinningOff() {
        InlineSpin spin = new InlineSpin(0, 4, new AtomicInteger(), () -> true);
        for (int i = 0; i < 2 * InlineSpin.PROBE_EVERY; i++) {
            assertEquals(0, spin.begin(Long.MAX_VALUE));
        }
    }

    @Test
    void spinsThatFindNothingHalveUntilTheyStopAndOneFoundRestoresTheLongest() {
        InlineSpin spin = new InlineSpin(LONGEST, 1, new AtomicInteger(), () -> true);
        long[] expected = {LONGEST, LONGEST / 2, LONGEST / 4, LONGEST / 8};
        for (long nanos : expected) {
            assertEquals(nanos, spin.begin(Long.MAX_VALUE));
            spin.end(false);
        }
        assertEquals(0, spin.nextNanos(), "below an eighth of the longest, it stops");
        assertEquals(0, spin.begin(Long.MAX_VALUE));

        spin = new InlineSpin(LONGEST, 1, new AtomicInteger(), () -> true);
        spin.begin(Long.MAX_VALUE);
        spin.end(false);
        assertEquals(LONGEST / 2, spin.begin(Long.MAX_VALUE));
        spin.end(true);
        assertEquals(LONGEST, spin.nextNanos());
    }

    @Test
    void aSpinThatFoundNothingIsTakenFromTheWait() {
        assertEquals(Long.MAX_VALUE, InlineSpin.remainingAfter(Long.MAX_VALUE, LONGEST), "no limit stays none");
        assertEquals(20_000_000 - LONGEST, InlineSpin.remainingAfter(20_000_000, LONGEST));
        InlineSpin spin = new InlineSpin(LONGEST, 1, new AtomicInteger(), () -> true);
        long spun = spin.begin(LONGEST / 2);
        assertEquals(LONGEST / 2, spun, "no longer than the wait");
        spin.end(false);
        assertEquals(0, InlineSpin.remainingAfter(LONGEST / 2, spun), "nothing left to block for");
    }

    @Test
    void aNewLongestTakesEffectAtTheNextWaitAndStartsAfresh() {
        InlineSpin spin = stopped();
        spin.longest(2 * LONGEST);
        assertEquals(0, spin.nextNanos(), "nothing changes before the next wait");
        assertEquals(2 * LONGEST, spin.begin(Long.MAX_VALUE), "a stopped connection spins the new longest at once");
        spin.end(false);
        assertEquals(LONGEST, spin.nextNanos(), "and halves from the new longest");

        spin.longest(0);
        for (int i = 0; i < 2 * InlineSpin.PROBE_EVERY; i++) {
            assertEquals(0, spin.begin(Long.MAX_VALUE), "0: off, probes too");
        }
        spin.longest(-5);
        assertEquals(0, spin.begin(Long.MAX_VALUE), "below 0 counts as 0");
        spin.longest(LONGEST);
        assertEquals(LONGEST, spin.begin(Long.MAX_VALUE), "on again");
        spin.end(true);
    }

    @Test
    void aConnectionThatStoppedProbesOnceInSoManyWaits() {
        InlineSpin spin = stopped();
        for (int round = 0; round < 3; round++) {
            for (int i = 1; i < InlineSpin.PROBE_EVERY; i++) {
                assertEquals(0, spin.begin(Long.MAX_VALUE), "wait " + i + " of round " + round);
            }
            assertEquals(LONGEST, spin.begin(Long.MAX_VALUE), "the probe spins the longest");
            spin.end(false);
            assertEquals(0, spin.nextNanos(), "a probe that found nothing leaves it stopped");
        }
        for (int i = 1; i < InlineSpin.PROBE_EVERY; i++) {
            spin.begin(Long.MAX_VALUE);
        }
        assertEquals(LONGEST, spin.begin(Long.MAX_VALUE));
        spin.end(true);
        assertEquals(LONGEST, spin.begin(Long.MAX_VALUE), "a probe that found input brings spinning back");
        spin.end(true);
    }

    @Test
    void noMoreThreadsSpinAtOnceThanAllowed() {
        AtomicInteger spinning = new AtomicInteger();
        InlineSpin first = new InlineSpin(LONGEST, 2, spinning, () -> true);
        InlineSpin second = new InlineSpin(LONGEST, 2, spinning, () -> true);
        InlineSpin third = new InlineSpin(LONGEST, 2, spinning, () -> true);
        assertEquals(LONGEST, first.begin(Long.MAX_VALUE));
        assertEquals(LONGEST, second.begin(Long.MAX_VALUE));
        assertEquals(0, third.begin(Long.MAX_VALUE), "both turns are taken: block at once");
        third.end(false);  // it held no turn: nothing to give back, and its next spin is unchanged
        assertEquals(LONGEST, third.nextNanos());
        assertEquals(2, spinning.get());
        first.end(true);
        assertEquals(1, spinning.get());
        assertEquals(LONGEST, third.begin(Long.MAX_VALUE));
        second.end(true);
        third.end(true);
        assertEquals(0, spinning.get());
    }

    @Test
    void withoutASpareCpuAWaitBlocksAtOnceAndTheSpinIsKept() {
        AtomicInteger spinning = new AtomicInteger();
        boolean[] spare = {false};
        InlineSpin spin = new InlineSpin(LONGEST, 2, spinning, () -> spare[0]);
        for (int i = 0; i < 2 * InlineSpin.PROBE_EVERY; i++) {
            assertEquals(0, spin.begin(Long.MAX_VALUE), "wait " + i);
            spin.end(false);
        }
        assertEquals(LONGEST, spin.nextNanos(), "waits that could not spin are no misses");
        assertEquals(0, spinning.get());
        spare[0] = true;
        assertEquals(LONGEST, spin.begin(Long.MAX_VALUE));
        spin.end(true);
    }

    @Test
    void aSpinIsNoLongerThanTheWaitMayBe() {
        InlineSpin spin = new InlineSpin(LONGEST, 1, new AtomicInteger(), () -> true);
        assertEquals(10_000, spin.begin(10_000));
        spin.end(false);
    }

    /** A connection whose spins found nothing until it stopped spinning. */
    private static InlineSpin stopped() {
        InlineSpin spin = new InlineSpin(LONGEST, 1, new AtomicInteger(), () -> true);
        while (spin.nextNanos() > 0) {
            spin.begin(Long.MAX_VALUE);
            spin.end(false);
        }
        return spin;
    }
}

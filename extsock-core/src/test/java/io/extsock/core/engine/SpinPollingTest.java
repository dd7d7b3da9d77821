package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class SpinPollingTest {

    private static final long SPIN = 50_000;
    private static final BooleanSupplier NEVER = () -> false;

    /** A clock that moves 100 ns each time it is read. */
    private final FakeClock clock = new FakeClock();
    private final SpinPolling polling = new SpinPolling(clock, clock::sleep);

    @Test
    void aConversationPollsAtOnceEvenAfterManyReads() throws Exception {
        for (int i = 0; i < 10; i++) {
            assertNextSpinPollsAtOnce(0, 0, 64);
            polling.transmitted();  // the answer goes out before the next wait
        }
    }

    @Test
    void twoReadsWithoutATransmissionMakeAStreamWhosePollsWaitAGap() throws Exception {
        spinTaking();
        spinTaking();  // the second read of the stream: still at once
        ScriptedInput third = new ScriptedInput(4096);
        long start = clock.now;
        assertTrue(polling.spin(third, NEVER, SPIN, false));
        assertEquals(1, third.pollTimes.size());
        long waited = third.pollTimes.get(0) - start;
        assertTrue(waited >= SpinPolling.FIRST_GAP_NANOS && waited < SpinPolling.FIRST_GAP_NANOS + 500,
                "the first poll of a stream waited " + waited + " ns");
    }

    @Test
    void theGapDoublesWhileInputKeepsComingUpToTheLongest() throws Exception {
        spinTaking();
        spinTaking();
        long expected = SpinPolling.FIRST_GAP_NANOS;
        for (int i = 0; i < 8; i++) {
            assertEquals(expected, polling.gapNanos());
            ScriptedInput input = new ScriptedInput(4096);
            long start = clock.now;
            assertTrue(polling.spin(input, NEVER, SPIN, false));
            long waited = input.pollTimes.get(0) - start;
            assertTrue(waited >= expected && waited < expected + 500, "waited " + waited + " for a gap of " + expected);
            expected = Math.min(expected * 2, SpinPolling.LONGEST_GAP_NANOS);
        }
        assertEquals(SpinPolling.LONGEST_GAP_NANOS, polling.gapNanos());
    }

    @Test
    void aGappedPollThatFindsNothingHalvesTheGapButNotBelowTheFirst() throws Exception {
        growGapToLongest();
        // Two empty gapped polls, then input: 16 -> 8 -> 4 us, and the poll that found input doubles it again.
        ScriptedInput input = new ScriptedInput(0, 0, 4096);
        long start = clock.now;
        assertTrue(polling.spin(input, NEVER, SPIN, false));
        List<Long> times = input.pollTimes;
        assertEquals(3, times.size());
        long first = times.get(0) - start;
        long second = times.get(1) - times.get(0);
        long third = times.get(2) - times.get(1);
        assertTrue(first >= 16_000 && first < 16_500, "first gap " + first);
        assertTrue(second >= 8_000 && second < 8_500, "second gap " + second);
        assertTrue(third >= 4_000 && third < 4_500, "third gap " + third);
        assertEquals(8_000, polling.gapNanos());

        // Nothing more: 8, 4, 2, 2, 2 ... us between polls, never less, until the spin ends.
        ScriptedInput nothing = new ScriptedInput();
        long spinStart = clock.now;
        assertFalse(polling.spin(nothing, NEVER, SPIN, false));
        List<Long> gaps = new ArrayList<>();
        long previous = spinStart;
        for (long at : nothing.pollTimes) {
            gaps.add(at - previous);
            previous = at;
        }
        assertTrue(gaps.size() > 6, "polls " + gaps);
        for (int i = 2; i < gaps.size() - 1; i++) {  // the last is cut short by the spin's end
            assertTrue(gaps.get(i) >= SpinPolling.FIRST_GAP_NANOS && gaps.get(i) < SpinPolling.FIRST_GAP_NANOS + 500,
                    "gaps " + gaps);
        }
    }

    @Test
    void aSpinThatFindsNothingEndsTheStream() throws Exception {
        growGapToLongest();
        assertFalse(polling.spin(new ScriptedInput(new long[1_000]), NEVER, SPIN, false));
        assertEquals(SpinPolling.FIRST_GAP_NANOS, polling.gapNanos());
        assertNextSpinPollsAtOnce(0, 64);
    }

    @Test
    void aTransmissionEndsTheStream() throws Exception {
        growGapToLongest();
        polling.transmitted();
        assertNextSpinPollsAtOnce(0, 64);
    }

    @Test
    void theConditionOrACloseEndsAGapWithoutAPoll() throws Exception {
        growGapToLongest();
        ScriptedInput input = new ScriptedInput(4096);
        long start = clock.now;
        assertTrue(polling.spin(input, () -> clock.now - start > 1_000, SPIN, false));
        assertTrue(input.pollTimes.isEmpty(), "polled during the gap");

        ScriptedInput closing = new ScriptedInput(4096);
        closing.closeAt = clock.now + 1_000;
        assertTrue(polling.spin(closing, NEVER, SPIN, false));
        assertTrue(closing.pollTimes.isEmpty(), "polled a closed connection");
    }

    @Test
    void aGapNeverOutlastsTheSpin() throws Exception {
        growGapToLongest();
        ScriptedInput input = new ScriptedInput(new long[10]);
        long start = clock.now;
        assertFalse(polling.spin(input, NEVER, 5_000, false));
        assertTrue(clock.now - start < 6_000, "a spin of 5 us took " + (clock.now - start) + " ns");
        assertEquals(1, input.pollTimes.size(), "the spin's one poll, at its end");
    }

    @Test
    void aDozingSpinSleepsOnlyItsLongestGaps() throws Exception {
        spinTaking(true);
        spinTaking(true);
        while (polling.gapNanos() < SpinPolling.LONGEST_GAP_NANOS) {
            spinTaking(true);
            assertEquals(List.of(), clock.sleeps, "a gap shorter than the longest was slept");
        }
        ScriptedInput input = new ScriptedInput(4096);
        long start = clock.now;
        assertTrue(polling.spin(input, NEVER, SPIN, true));
        assertEquals(List.of(SpinPolling.LONGEST_GAP_NANOS), clock.sleeps);
        assertEquals(1, input.pollTimes.size());
        assertTrue(input.pollTimes.get(0) - start >= SpinPolling.LONGEST_GAP_NANOS, "polled before the gap was over");
    }

    @Test
    void aSpinThatMayNotDozeSpinsEveryGap() throws Exception {
        growGapToLongest();
        spinTaking();
        assertEquals(SpinPolling.LONGEST_GAP_NANOS, polling.gapNanos());
        assertEquals(List.of(), clock.sleeps);
    }

    @Test
    void aDozingSpinLooksAtTheConditionBeforeItSleeps() throws Exception {
        growGapToLongest();
        ScriptedInput input = new ScriptedInput(4096);
        assertTrue(polling.spin(input, () -> true, SPIN, true));
        assertEquals(List.of(), clock.sleeps, "slept though the condition held");
        assertTrue(input.pollTimes.isEmpty());
    }

    @Test
    void aDozingSpinDoesNotSleepPastItsEnd() throws Exception {
        growGapToLongest();
        assertFalse(polling.spin(new ScriptedInput(new long[10]), NEVER, SpinPolling.LONGEST_GAP_NANOS, true));
        assertEquals(List.of(), clock.sleeps);
    }

    @Test
    void aWakeEndsASleptGap() throws Exception {
        assertSleptGapEndsBy(SpinPolling::wake);
    }

    @Test
    void aTransmissionEndsASleptGap() throws Exception {
        assertSleptGapEndsBy(SpinPolling::transmitted);
    }

    /**
     * A spin whose longest gap sleeps for a minute (a real park) is woken by the action, from
     * another thread, and goes on to poll: without the wake-up it would still be asleep when
     * the join gives up.
     */
    private void assertSleptGapEndsBy(Consumer<SpinPolling> action) throws Exception {
        SpinPolling sleepy = new SpinPolling(System::nanoTime, nanos -> LockSupport.parkNanos(60_000_000_000L));
        SpinPolling.Input input = new SpinPolling.Input() {
            @Override
            public long poll() {
                return 4096;
            }

            @Override
            public boolean closed() {
                return false;
            }
        };
        while (sleepy.gapNanos() < SpinPolling.LONGEST_GAP_NANOS) {
            assertTrue(sleepy.spin(input, NEVER, SPIN, false));
        }
        AtomicBoolean polled = new AtomicBoolean();
        Thread spinner = new Thread(() -> {
            try {
                polled.set(sleepy.spin(input, NEVER, 120_000_000_000L, true));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        spinner.start();
        while (spinner.getState() != Thread.State.TIMED_WAITING) {
            Thread.onSpinWait();
        }
        action.accept(sleepy);
        spinner.join(30_000);
        assertFalse(spinner.isAlive(), "the slept gap did not end");
        assertTrue(polled.get());
    }

    private void spinTaking() throws Exception {
        spinTaking(false);
    }

    private void spinTaking(boolean doze) throws Exception {
        assertTrue(polling.spin(new ScriptedInput(4096), NEVER, SPIN, doze));
    }

    private void growGapToLongest() throws Exception {
        while (polling.gapNanos() < SpinPolling.LONGEST_GAP_NANOS) {
            spinTaking();
        }
        spinTaking();
    }

    /** A spin over the script finds its input, and no poll of it waited a gap. */
    private void assertNextSpinPollsAtOnce(long... script) throws Exception {
        ScriptedInput input = new ScriptedInput(script);
        long previous = clock.now;
        assertTrue(polling.spin(input, NEVER, SPIN, false));
        for (long at : input.pollTimes) {
            assertTrue(at - previous < 1_000, "a poll waited " + (at - previous) + " ns");
            previous = at;
        }
    }

    private static final class FakeClock implements java.util.function.LongSupplier {
        long now = 1_000_000;
        final List<Long> sleeps = new ArrayList<>();

        void sleep(long nanos) {
            sleeps.add(nanos);
            now += nanos;
        }

        @Override
        public long getAsLong() {
            now += 100;
            return now;
        }
    }

    /** Hands out the octets of its script, one entry a poll (0 once the script ends), noting when each poll came. */
    private final class ScriptedInput implements SpinPolling.Input {
        private final Deque<Long> script = new ArrayDeque<>();
        final List<Long> pollTimes = new ArrayList<>();
        long closeAt = Long.MAX_VALUE;

        ScriptedInput(long... octets) {
            for (long n : octets) {
                script.add(n);
            }
        }

        @Override
        public long poll() {
            pollTimes.add(clock.now);
            Long next = script.poll();
            return next == null ? 0 : next;
        }

        @Override
        public boolean closed() {
            return clock.now >= closeAt;
        }
    }
}

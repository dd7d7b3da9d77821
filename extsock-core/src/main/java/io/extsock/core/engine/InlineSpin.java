package io.extsock.core.engine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Whether, and for how long, a thread about to wait inline on one connection first polls its
 * socket instead of blocking in a Selector. A blocked thread's wake-up costs more than a small
 * message's round trip on a virtual machine whose other CPU is idle (the wake-up of a halted
 * vCPU), and it costs the sender too (waking an epoll waiter is the dearer part of its write).
 * A reply that comes within the spin costs neither.
 *
 * <p>A spinning thread holds a CPU its peer may need, so spinning adapts, per connection and
 * for the whole JVM:
 * <ul>
 *   <li>never with a single CPU (under {@code taskset -c 0} the spinner would take the peer's
 *       turn), and by at most one thread a CPU at once ({@link #MOST_SPINNERS}): a thread that
 *       finds them all spinning blocks at once. Both ends of a conversation in one JVM may then
 *       spin, each on its CPU, so that neither has to be woken;</li>
 *   <li>only while the machine has a CPU to spare ({@link SpareCpu}): where as many threads as
 *       CPUs are ready to run, a spinner takes the turn of one with work, however soon its
 *       input comes. Such a wait blocks at once, and its connection's spin is left as it was;</li>
 *   <li>a connection whose spin found nothing halves its next spin, and below an eighth of the
 *       longest stops spinning; one in {@link #PROBE_EVERY} waits then spins the longest again, to
 *       notice that replies came back fast. A spin that found input restores the longest. So a
 *       connection whose peer answers slowly, or a JVM whose threads queue for the CPUs, soon
 *       blocks at once, and an idle connection spins once, at the start of its wait.</li>
 * </ul>
 *
 * <p>The longest spin is the connection's {@code IwarpOptions.SPIN_MICROS} (its default the
 * system property {@code extsock.spin.micros}; 0 turns spinning off). One instance per
 * connection, used under its receive lock.
 */
final class InlineSpin {

    private static final int CPUS = Runtime.getRuntime().availableProcessors();
    /** Threads that may spin at once in this JVM: one a CPU it may run on, none if it has one. */
    static final int MOST_SPINNERS = Integer.getInteger("extsock.spin.threads", spinnersFor(CPUS));
    /** A connection that stopped spinning spins once again after this many waits. */
    static final int PROBE_EVERY = 64;

    private static final AtomicInteger SPINNING = new AtomicInteger();

    /** The longest spin as last asked, from any thread; the next wait takes it up. */
    private volatile long askedLongestNanos;
    /** The longest spin the waits go by: the receive lock's holder's copy of the asked one. */
    private long longestNanos;
    private final int mostSpinners;
    private final AtomicInteger spinning;
    private final BooleanSupplier spareCpu;
    private long nextNanos;
    private int waitsWithoutSpin;
    private boolean holdsTurn;

    /**
     * A connection's, counting its spinning threads with the whole JVM's.
     *
     * @param longestNanos the longest spin, and the first (0: never spin)
     */
    InlineSpin(long longestNanos) {
        this(longestNanos, MOST_SPINNERS, SPINNING, InlineSpin::machineHasSpareCpu);
    }

    /**
     * @param longestNanos the longest spin (0: never spin)
     * @param mostSpinners threads that may spin at once
     * @param spinning     threads spinning now, shared by every connection that counts together
     * @param spareCpu     whether a CPU is free for a spin now
     */
    InlineSpin(long longestNanos, int mostSpinners, AtomicInteger spinning, BooleanSupplier spareCpu) {
        this.longestNanos = Math.max(0, longestNanos);
        this.askedLongestNanos = this.longestNanos;
        this.mostSpinners = mostSpinners;
        this.spinning = spinning;
        this.spareCpu = spareCpu;
        this.nextNanos = this.longestNanos;
    }

    /**
     * A wait begins: how long to spin first, 0 for not at all. A positive answer holds one of
     * the JVM's spinning turns until {@link #end}, which the caller must then call.
     *
     * @param remainingNanos how long the wait may take at most
     */
    long begin(long remainingNanos) {
        long asked = askedLongestNanos;
        if (asked != longestNanos) {  // a new longest starts afresh: its first spin is the longest
            longestNanos = asked;
            nextNanos = asked;
            waitsWithoutSpin = 0;
        }
        if (longestNanos == 0 || mostSpinners <= 0) {
            return 0;
        }
        long spin = nextNanos;
        if (spin == 0) {
            if (++waitsWithoutSpin < PROBE_EVERY) {
                return 0;
            }
            waitsWithoutSpin = 0;
            spin = longestNanos;
        }
        if (!spareCpu.getAsBoolean() || !takeTurn()) {
            return 0;
        }
        holdsTurn = true;
        return Math.min(spin, remainingNanos);
    }

    /**
     * The spin {@link #begin} allowed is over.
     *
     * @param found whether it found input, what the wait was for, or the connection closed
     */
    void end(boolean found) {
        if (!holdsTurn) {
            return;
        }
        holdsTurn = false;
        spinning.decrementAndGet();
        if (found) {
            nextNanos = longestNanos;
        } else if (nextNanos > 0) {  // a probe that found nothing leaves it at 0
            long half = nextNanos / 2;
            nextNanos = half < longestNanos / 8 ? 0 : half;
        }
    }

    /**
     * Changes the longest spin, from the next wait on; any thread may call it.
     *
     * @param nanos the new longest (0: never spin)
     */
    void longest(long nanos) {
        askedLongestNanos = Math.max(0, nanos);
    }

    /** How long the next spin would be (0: this connection does not spin until a probe). */
    long nextNanos() {
        return nextNanos;
    }

    /**
     * What is left of a wait after a spin that found nothing, so that spin and block together
     * take no longer than the wait: the spin ran its whole length.
     *
     * @param remainingNanos the wait's time before the spin ({@code Long.MAX_VALUE}: no limit)
     * @param spunNanos      the spin's length, as {@link #begin} gave it
     * @return the time left to block (not positive: none), {@code Long.MAX_VALUE} for no limit
     */
    static long remainingAfter(long remainingNanos, long spunNanos) {
        return remainingNanos == Long.MAX_VALUE ? Long.MAX_VALUE : remainingNanos - spunNanos;
    }

    /**
     * Whether the machine has a CPU to spare: {@link SpareCpu}'s count, unless a test of the
     * spin's policy stands in its own answer ({@link #spareCpuAnswer}), so that it does not
     * depend on how busy the machine running it is.
     */
    private static volatile BooleanSupplier spareCpuAnswer = () -> SpareCpu.machine().available(CPUS);

    private static boolean machineHasSpareCpu() {
        return spareCpuAnswer.getAsBoolean();
    }

    /**
     * Tests: from now on the machine's answer is {@code answer}'s.
     *
     * @return the answer it replaces, to put back
     */
    static BooleanSupplier spareCpuAnswer(BooleanSupplier answer) {
        BooleanSupplier replaced = spareCpuAnswer;
        spareCpuAnswer = answer;
        return replaced;
    }

    static int spinnersFor(int cpus) {
        return cpus > 1 ? cpus : 0;
    }

    private boolean takeTurn() {
        for (int now = spinning.get(); now < mostSpinners; now = spinning.get()) {
            if (spinning.compareAndSet(now, now + 1)) {
                return true;
            }
        }
        return false;
    }
}

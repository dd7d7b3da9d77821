package io.extsock.core.engine;

import java.io.IOException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * How a spinning thread polls its connection's socket ({@link InlineSpin} says whether it spins,
 * and how long): at once while the connection converses, with a gap while input streams in.
 *
 * <p>Why the gap: a reader that polls as fast as it can takes a one-way flow of small messages
 * a message at a time, and each read that takes octets may have the kernel send an
 * acknowledgement, which the sender's CPU then processes. Measured over loopback with 4 KiB RDMA
 * Writes, the sender's CPU the limit: about one ACK a message, against plain TCP's 0.2 for a
 * reader blocked in {@code read}, who wakes to find several messages waiting. Letting input
 * gather between polls takes it several messages a read, as the blocked reader does, without
 * its sleep and wake-up.
 *
 * <p>Input streams in once polls have taken octets twice with no transmission between them. A
 * conversation (a request, its answer, the next request) transmits between its reads, so its
 * polls never wait: its latency is what the spin is for. While input streams, the gap starts at
 * {@link #FIRST_GAP_NANOS}, doubles each time a poll after a gap finds input, up to {@link
 * #LONGEST_GAP_NANOS}, and halves each time one finds nothing (the flow slowed); a spin that
 * found nothing in its whole length ends the stream. So the last message of a stream waits at
 * most one gap, and a wait that outlasts the stream polls at once again.
 *
 * <p>A spin allowed to doze (a verbs wait's, see {@code InlineWait#awaitPromptly} for the
 * socket stream's, which is not) sleeps each longest gap instead of spinning it, and {@link
 * #wake} or a transmission ends the sleep at once: a one-way flow's receiver then leaves its CPU
 * to the sender. Linux's timer slack stretches such a sleep to 60-90 us on this project's test
 * machine, so the last message of the flow may wait that long, and a slept gap may outlast the
 * spin by as much.
 *
 * <p>One instance per connection. The receive lock's holder spins; {@link #transmitted} comes
 * from whichever thread transmits.
 */
final class SpinPolling {

    /** The first gap of a stream: a couple of small messages' time on loopback. */
    static final long FIRST_GAP_NANOS = 2_000;
    /** The longest gap: what the last message of a stream may wait at most. */
    static final long LONGEST_GAP_NANOS = 16_000;
    /** Polls that took octets, with no transmission between them, that make a stream. */
    static final int STREAMING_READS = 2;

    /** The connection's socket, as a spin polls it. */
    interface Input {
        /**
         * Reads what the socket has, without blocking, and processes it.
         *
         * @return the octets taken (0: none were there)
         */
        long poll() throws IOException;

        /** Whether the connection closed: the spin ends, and its caller looks at why. */
        boolean closed();
    }

    /** Sleeps a gap: {@link LockSupport#parkNanos} (a fake in tests, which moves its clock). */
    interface Sleeper {
        void sleep(long nanos);
    }

    private final LongSupplier clock;
    private final Sleeper sleeper;
    /** The thread sleeping a gap, if one is: {@link #wake} ends its sleep. */
    private volatile Thread dozing;
    /**
     * Polls that took octets since the last transmission (counting stops at the stream's mark).
     * Counted by the spinning thread and reset by transmitters, without a lock: a reset lost to a
     * count at the same moment costs one poll a gap, which the next transmission ends.
     */
    private volatile int readsSinceTransmit;
    private long gapNanos = FIRST_GAP_NANOS;

    SpinPolling() {
        this(System::nanoTime, LockSupport::parkNanos);
    }

    /**
     * @param clock nanoseconds, as {@link System#nanoTime}
     * @param sleeper how a dozing spin sleeps its longest gaps
     */
    SpinPolling(LongSupplier clock, Sleeper sleeper) {
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /** Something a dozing spin may be waiting for happened (any thread): it polls at once. */
    void wake() {
        Thread sleeping = dozing;
        if (sleeping != null) {
            LockSupport.unpark(sleeping);
        }
    }

    /** The connection transmitted (any thread): it converses, and the next poll comes at once. */
    void transmitted() {
        if (readsSinceTransmit != 0) {  // a volatile read, not a write, on every transmission
            readsSinceTransmit = 0;
            wake();
        }
    }

    /**
     * Polls until a poll takes octets, the condition holds, the connection closes, or the spin's
     * time is up.
     *
     * @param spinNanos how long the spin may take
     * @param doze whether the longest gaps may be slept rather than spun
     * @return whether it found anything (octets, the condition, a close); false if the time ran out
     */
    boolean spin(Input input, BooleanSupplier condition, long spinNanos, boolean doze) throws IOException {
        long now = clock.getAsLong();
        long until = now + spinNanos;
        while (true) {
            boolean gapped = readsSinceTransmit >= STREAMING_READS;
            if (gapped && doze && gapNanos == LONGEST_GAP_NANOS && until - now > gapNanos) {
                if (sleepGap(input, condition)) {
                    return true;
                }
                now = clock.getAsLong();
            } else if (gapped) {
                long gapEnd = now + Math.min(gapNanos, until - now);
                while (now - gapEnd < 0) {
                    if (input.closed() || condition.getAsBoolean()) {
                        return true;
                    }
                    Thread.onSpinWait();
                    now = clock.getAsLong();
                }
            }
            if (input.poll() > 0) {
                if (readsSinceTransmit < STREAMING_READS) {
                    readsSinceTransmit++;
                }
                if (gapped) {
                    gapNanos = Math.min(gapNanos * 2, LONGEST_GAP_NANOS);
                }
                return true;
            }
            if (gapped) {
                gapNanos = Math.max(gapNanos / 2, FIRST_GAP_NANOS);
            }
            if (input.closed() || condition.getAsBoolean()) {
                return true;
            }
            if (!gapped) {
                Thread.onSpinWait();
            }
            now = clock.getAsLong();
            if (now - until >= 0) {
                readsSinceTransmit = 0;  // nothing came for a whole spin: whatever streamed has stopped
                gapNanos = FIRST_GAP_NANOS;
                return false;
            }
        }
    }

    /**
     * Sleeps the longest gap instead of spinning it, unless the connection closed or the
     * condition holds (then returns true). Announced before the last look at the condition, so
     * that a {@link #wake} after that look ends the sleep.
     */
    private boolean sleepGap(Input input, BooleanSupplier condition) {
        dozing = Thread.currentThread();
        try {
            if (input.closed() || condition.getAsBoolean()) {
                return true;
            }
            sleeper.sleep(gapNanos);
            return false;
        } finally {
            dozing = null;
        }
    }

    /** The gap the next poll of a stream waits (for tests). */
    long gapNanos() {
        return gapNanos;
    }
}

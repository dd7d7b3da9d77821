package io.extsock.core.engine;

import io.extsock.core.verbs.ConnectionCounters;
import java.io.IOException;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * How a thread waits on one connection: the connection's one idle strategy. A platform thread
 * that reads inline spins first ({@link InlineSpin} says whether and how long, for the
 * connection and the whole JVM; {@link SpinPolling} how often it polls, and when it may doze),
 * then blocks in a Selector of its own on the channel, so that a message costs one wake-up, as
 * with TCP. A platform thread that cannot read (another does) waits on a monitor; a virtual
 * thread parks on a {@code java.util.concurrent} condition, never pinning its carrier, and the
 * engine reads for it. A selector watches the connection's readiness instead of waiting on it
 * ({@link #watchers}), and the engine reads for it too. {@link #signal} ends each of these.
 *
 * <p>The spin and the Selector belong to the holder of the connection's receive lock; {@link
 * #signal} and {@link #transmitted} come from any thread.
 */
final class IdleStrategy {

    /** Longest a monitor wait lasts before its waiter looks again, whatever it was told. */
    private static final long LONGEST_MONITOR_WAIT_MILLIS = 10;

    private final SocketChannel channel;
    private final ReadingOwnership reading;
    private final InlineSpin spin;
    private final SpinPolling polling = new SpinPolling();
    /** The inline waiters' Selector on the channel: the handshake's, or made at the first block; receive lock. */
    private Selector selector;
    private volatile boolean selecting;
    private final Object monitor = new Object();
    private final ReentrantLock parkLock = new ReentrantLock();
    private final Condition parked = parkLock.newCondition();
    /** Selectors watching the connection's readiness: called on every signal. */
    private final ReadinessWatchers watchers = new ReadinessWatchers();

    /**
     * @param selector a Selector with the channel registered for reading, which the handshake
     *     used and this connection now owns; null to make one at the first block
     * @param spin whether and how long an inline waiter polls before it blocks
     */
    IdleStrategy(SocketChannel channel, Selector selector, ReadingOwnership reading, InlineSpin spin) {
        this.channel = channel;
        this.selector = selector;
        this.reading = reading;
        this.spin = spin;
    }

    /** The longest spin from now on (the connection's SPIN_MICROS changed); any thread. */
    void spinLongest(long nanos) {
        spin.longest(nanos);
    }

    /** The connection transmitted (any thread): it converses, so a spin polls at once again. */
    void transmitted() {
        polling.transmitted();
    }

    /**
     * Holding the receive lock: waits for input, spinning on {@code input} first, then blocking
     * in the Selector.
     *
     * @param remainingNanos the wait's time left ({@code Long.MAX_VALUE}: no limit)
     * @param doze whether the spin may sleep its longest gaps
     * @return whether the socket is readable now and nothing read it yet (the caller reads);
     *     false if the spin took input, the condition came true, a signal or the time ended it
     */
    boolean awaitInput(SpinPolling.Input input, BooleanSupplier condition, long remainingNanos, boolean doze,
                       ConnectionCounters counters) throws IOException {
        long spinNanos = spin.begin(remainingNanos);
        if (spinNanos > 0) {
            boolean found = false;
            try {
                found = polling.spin(input, condition, spinNanos, doze);
            } finally {
                spin.end(found);
                counters.spun(found);
            }
            if (found) {
                return false;
            }
            remainingNanos = InlineSpin.remainingAfter(remainingNanos, spinNanos);
            if (remainingNanos <= 0) {
                return false;  // the spin took the whole wait: the caller finds its deadline passed
            }
        }
        Selector waitingSelector = selector();
        selecting = true;
        try {
            if (condition.getAsBoolean()) {
                return false;  // a signal may have come before we announced the select
            }
            long millis = remainingNanos == Long.MAX_VALUE ? 0 : Math.max(1, remainingNanos / 1_000_000);
            // With an action, not the selected-key set: that HashSet allocates per select.
            return waitingSelector.select(SpareSelectors.IGNORE_KEY, millis) > 0;
        } finally {
            selecting = false;
        }
    }

    /**
     * A platform thread that cannot read (another does, or the connection ended and a flush is
     * due): waits for a {@link #signal}, a short while at most.
     *
     * @param done whether to stop waiting at once (looked at under the monitor, so no signal is lost)
     */
    void awaitSignal(BooleanSupplier done, long remainingNanos) throws InterruptedException {
        synchronized (monitor) {
            if (!done.getAsBoolean()) {
                monitor.wait(Math.max(1, Math.min(remainingNanos / 1_000_000, LONGEST_MONITOR_WAIT_MILLIS)));
            }
        }
    }

    /**
     * A virtual thread's wait: parks until a {@link #signal}, the deadline, or (with {@code
     * poll}) a short while, with java.util.concurrent locks only.
     *
     * @param done whether to stop waiting at once (looked at under the lock, so no signal is lost)
     * @param deadline when to stop ({@link System#nanoTime}), 0 for never
     * @param pollNanos if positive, the longest park (a flush is due any moment)
     * @return false if the deadline passed
     */
    boolean park(BooleanSupplier done, long deadline, long pollNanos) throws InterruptedException {
        parkLock.lock();
        try {
            if (done.getAsBoolean()) {
                return true;
            }
            if (pollNanos > 0) {
                parked.awaitNanos(pollNanos);
            } else if (deadline == 0) {
                parked.await();
            } else {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return false;
                }
                parked.awaitNanos(remaining);
            }
            return true;
        } finally {
            parkLock.unlock();
        }
    }

    /** Something a waiter may wait for happened on another thread: every kind of waiter looks again. */
    void signal() {
        polling.wake();
        watchers.changed();
        if (reading.parkedWaiting()) {
            parkLock.lock();
            try {
                parked.signalAll();
            } finally {
                parkLock.unlock();
            }
        }
        if (!reading.platformWaiting()) {
            return;
        }
        synchronized (monitor) {
            monitor.notifyAll();
        }
        Selector waitingSelector = selector;
        if (selecting && waitingSelector != null) {
            waitingSelector.wakeup();
        }
    }

    /** The selectors watching the connection's readiness, told of every signal. */
    ReadinessWatchers watchers() {
        return watchers;
    }

    /** Holding the receive lock, the connection ended: the Selector goes to the spares. */
    void giveBackSelector() {
        if (selector != null) {
            SpareSelectors.giveBack(selector);
            selector = null;
        }
    }

    private Selector selector() throws IOException {
        if (selector == null) {
            selector = SpareSelectors.watching(channel);
        }
        return selector;
    }
}

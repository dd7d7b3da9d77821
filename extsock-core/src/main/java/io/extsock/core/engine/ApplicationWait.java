package io.extsock.core.engine;

import io.extsock.core.verbs.ConnectionCounters;
import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * An application thread's wait on one connection. A platform thread receives inline while it
 * waits, as Agrona's {@code AgentInvoker} runs an agent on the caller's thread: a message then
 * costs one wake-up, as with TCP, and no hand-off. A virtual thread parks instead, and the
 * engine reads for it, so that it never pins its carrier.
 */
final class ApplicationWait {

    /** How often a parked waiter looks, once the connection ended, for the last flush of its requests. */
    private static final long SETTLE_POLL_NANOS = 1_000_000;

    private final ReadingOwnership reading;
    private final ProgressWatch watch;
    private final ProgressThread progress;
    private final IdleStrategy idle;
    private final ConnectionEnd end;
    private final Receiver receiver;
    private final ReentrantLock receiveLock;
    private final ConnectionCounters counters;

    ApplicationWait(ReadingOwnership reading, ProgressWatch watch, ProgressThread progress, IdleStrategy idle,
                    ConnectionEnd end, Receiver receiver, ConnectionCounters counters) {
        this.reading = reading;
        this.watch = watch;
        this.progress = progress;
        this.idle = idle;
        this.end = end;
        this.receiver = receiver;
        this.receiveLock = receiver.lock();
        this.counters = counters;
    }

    /**
     * A platform thread's wait: receives inline while the condition is false. The caller
     * looked at the condition just before.
     *
     * @param timeoutNanos how long at most; 0 or less for no limit
     * @param doze whether a spin may sleep its longest gaps ({@link SpinPolling})
     * @return whether the condition holds (false: the timeout elapsed, or the connection closed
     *     without it and every request of it has completed)
     */
    boolean inline(BooleanSupplier condition, long timeoutNanos, boolean interruptible, boolean doze) {
        if (interruptible && Thread.currentThread().isInterrupted()) {
            return false;
        }
        long deadline = timeoutNanos > 0 ? System.nanoTime() + timeoutNanos : 0;
        boolean interrupted = Thread.interrupted();
        try {
            if (reading.platformWaitBegins()) {
                watch.platformWaitBegan();
            }
            // Checked by the caller; each way on below looks again before it blocks
            // (receiveInline before its select, the monitor wait before waiting).
            boolean checked = true;
            while (true) {
                if (!checked && condition.getAsBoolean()) {
                    return true;
                }
                checked = false;
                if (end.endedAndSettled()) {
                    return condition.getAsBoolean();
                }
                long remaining = deadline == 0 ? Long.MAX_VALUE : deadline - System.nanoTime();
                if (remaining <= 0) {
                    return false;
                }
                if (!end.closed() && receiveLock.tryLock()) {
                    try {
                        receiveInline(condition, remaining, doze);
                    } finally {
                        receiveLock.unlock();
                    }
                    if (reading.othersWaiting()) {
                        idle.signal();  // what we received may be what another waiter waits for
                    }
                } else {
                    // Another thread receives, or the connection ended with requests that a
                    // transmitter still flushes as it lets go: wait for its signal.
                    try {
                        idle.awaitSignal(() -> condition.getAsBoolean() || end.endedAndSettled(), remaining);
                    } catch (InterruptedException e) {
                        interrupted = true;
                        if (interruptible) {
                            return condition.getAsBoolean();
                        }
                    }
                }
                if (Thread.interrupted()) {
                    interrupted = true;
                    if (interruptible) {
                        return condition.getAsBoolean();
                    }
                }
            }
        } finally {
            if (reading.platformWaitEnds(progress.tickStretched())) {
                progress.wakeUp();  // a long wait ended while the progress thread ticks slowly
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * A virtual thread's wait: parks until signalled (the progress thread reads this connection
     * meanwhile: parked waiters do not hold reading back from it, and one that finds the
     * reading left to platform threads asks for it back), with java.util.concurrent locks
     * only, so that the virtual thread never pins its carrier.
     */
    boolean parked(BooleanSupplier condition, long timeoutNanos, boolean interruptible) {
        if (interruptible && Thread.currentThread().isInterrupted()) {
            return false;
        }
        long deadline = timeoutNanos > 0 ? System.nanoTime() + timeoutNanos : 0;
        boolean interrupted = false;
        if (reading.parkedWaitBegins()) {
            watch.handBackWhenQuiet();  // a platform thread read before: the engine reads for this one
        }
        try {
            while (true) {
                if (condition.getAsBoolean()) {
                    return true;
                }
                if (end.endedAndSettled()) {
                    return condition.getAsBoolean();
                }
                try {
                    // Closed: a flush is due any moment.
                    if (!idle.park(condition, deadline, end.closed() ? SETTLE_POLL_NANOS : 0)) {
                        return false;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                    if (interruptible) {
                        return condition.getAsBoolean();
                    }
                }
            }
        } finally {
            reading.parkedWaitEnds();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Holding the receive lock: block until the socket is readable (at once if it is: epoll is
     * level-triggered, so no read is needed to find out), then read and process what came.
     */
    private void receiveInline(BooleanSupplier condition, long remainingNanos, boolean doze) {
        try {
            if (end.closed()) {
                return;  // nothing more is received (and the staging buffer may be another's now)
            }
            if (receiver.processLeftOver()) {
                return;
            }
            if (!idle.awaitInput(receiver, condition, remainingNanos, doze, counters)) {
                return;  // the spin took input, or a signal or the timeout: the caller looks again
            }
            receiver.drain();
        } catch (IOException e) {
            end.lost("receiving failed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            end.processingFailed(e);
        }
    }
}

package io.extsock.core.stream;

import java.net.SocketTimeoutException;

/**
 * Waiting on a stream's monitor the way a blocking {@code java.net.Socket} waits: an interrupt
 * does not end the wait (the interrupt status is kept for the caller), SO_TIMEOUT does.
 */
final class StreamWait {

    private StreamWait() {
    }

    /** A condition checked under the monitor. */
    @FunctionalInterface
    interface Condition {
        boolean holds();
    }

    /**
     * Waits on {@code monitor} (held by the caller) until the condition holds.
     *
     * @param timeoutMillis 0 to wait forever
     * @throws SocketTimeoutException "Read timed out" when the timeout elapses first
     */
    static void until(Object monitor, Condition condition, int timeoutMillis) throws SocketTimeoutException {
        long deadline = timeoutMillis > 0 ? System.nanoTime() + timeoutMillis * 1_000_000L : 0;
        boolean interrupted = false;
        try {
            while (!condition.holds()) {
                long waitMillis = 0;
                if (timeoutMillis > 0) {
                    long remaining = deadline - System.nanoTime();
                    if (remaining <= 0) {
                        throw new SocketTimeoutException("Read timed out");
                    }
                    waitMillis = Math.max(1, remaining / 1_000_000);
                }
                try {
                    monitor.wait(waitMillis);
                } catch (InterruptedException e) {
                    interrupted = true;  // a platform thread's Socket read ignores interrupts
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

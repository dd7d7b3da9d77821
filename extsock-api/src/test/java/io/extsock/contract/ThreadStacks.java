package io.extsock.contract;

import java.util.concurrent.TimeUnit;

/**
 * Waiting for another thread to reach a call: a thread that was started may not have reached it
 * yet, and a busy JVM can hold it up for longer than any fixed wait.
 */
public final class ThreadStacks {

    private ThreadStacks() {
    }

    /**
     * Waits, at most 10 s, until a frame of the thread's stack is {@code method} of a class whose
     * name starts with {@code classPrefix}.
     *
     * @param busy look again at once, not after a millisecond's sleep: for a caller that must act
     *     the moment the call begins
     */
    public static void awaitInside(Thread thread, String classPrefix, String method, boolean busy)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            for (StackTraceElement frame : thread.getStackTrace()) {
                if (frame.getMethodName().equals(method) && frame.getClassName().startsWith(classPrefix)) {
                    return;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the thread never called " + classPrefix + "'s " + method + ": "
                        + thread.getState());
            }
            if (!busy) {
                Thread.sleep(1);  // a polling interval
            }
        }
    }
}

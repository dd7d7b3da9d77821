package io.extsock.core;

import java.lang.Thread.State;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Waiting until another thread has reached the call a test is about: a thread that was started
 * may not have got there yet, and a busy machine can hold it up for longer than any fixed sleep.
 * The probe looks at the thread's state and stack, so a test proves it reached the path it
 * checks before it checks anything (a negative check after a sleep passes on a slow machine
 * without having checked a thing).
 */
public final class ThreadProbe {

    private static final long PATIENCE_SECONDS = 20;

    private ThreadProbe() {
    }

    /**
     * Waits until {@code thread} is inside {@code method} of a class whose name starts with
     * {@code classPrefix} and has stopped there to wait: parked, waiting or blocked on a monitor,
     * or in a selector's select or a socket's poll (where Java calls a thread RUNNABLE).
     *
     * @return the thread's stack then, for a message
     */
    public static StackTraceElement[] awaitWaitingInside(Thread thread, String classPrefix, String method)
            throws InterruptedException {
        return awaitUntil(thread, () -> "waiting inside " + classPrefix + "'s " + method,
                stack -> isWaiting(thread, stack) && inside(stack, classPrefix, method));
    }

    /**
     * Whether {@code thread}, whose stack is {@code stack}, has stopped to wait: parked, waiting
     * or blocked on a monitor, or in a selector's select or a socket's poll.
     */
    public static boolean isWaiting(Thread thread, StackTraceElement[] stack) {
        State state = thread.getState();
        return state == State.WAITING || state == State.TIMED_WAITING || state == State.BLOCKED
                || inside(stack, "sun.nio.ch.SelectorImpl", "select") || inside(stack, "sun.nio.ch.Net", "poll");
    }

    /** Waits until a frame of {@code thread}'s stack is {@code method} of a class whose name starts with {@code classPrefix}. */
    public static StackTraceElement[] awaitInside(Thread thread, String classPrefix, String method)
            throws InterruptedException {
        return awaitUntil(thread, () -> "inside " + classPrefix + "'s " + method,
                stack -> inside(stack, classPrefix, method));
    }

    /** Whether a frame of {@code stack} is {@code method} of a class whose name starts with {@code classPrefix}. */
    public static boolean inside(StackTraceElement[] stack, String classPrefix, String method) {
        for (StackTraceElement frame : stack) {
            if (frame.getMethodName().equals(method) && frame.getClassName().startsWith(classPrefix)) {
                return true;
            }
        }
        return false;
    }

    /** A test of a thread's stack. */
    @FunctionalInterface
    public interface StackTest {
        boolean holds(StackTraceElement[] stack);
    }

    /** Waits until {@code test} holds for {@code thread}'s stack; {@code what} says what that means, for a failure. */
    public static StackTraceElement[] awaitStack(Thread thread, String what, StackTest test)
            throws InterruptedException {
        return awaitUntil(thread, () -> what, test);
    }

    private static StackTraceElement[] awaitUntil(Thread thread, Supplier<String> what, StackTest test)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
        while (true) {
            StackTraceElement[] stack = thread.getStackTrace();
            if (test.holds(stack)) {
                return stack;
            }
            if (!thread.isAlive()) {
                throw new AssertionError(thread.getName() + " ended before it was " + what.get());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(thread.getName() + " was never " + what.get() + " in " + PATIENCE_SECONDS
                        + " s; it is " + thread.getState() + " at " + Arrays.toString(stack));
            }
            Thread.sleep(1);  // a polling interval: the test holds at any speed
        }
    }
}

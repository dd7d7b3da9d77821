package io.extsock.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Keeps a thread's pending interrupt from closing a channel.
 *
 * <p>A {@code java.net.Socket} on a platform thread ignores interrupts, but a channel closes
 * itself when an interrupted thread starts blocking I/O on it. A thread whose interrupt
 * status is already set (say, by code that caught InterruptedException and restored it)
 * must still be able to use its socket, so the status is cleared for the call and restored
 * afterwards. An interrupt that arrives while the thread is blocked still closes the channel,
 * as it does for a SocketChannel and, since JDK 21, for a Socket on a virtual thread. Virtual
 * threads are left alone: their Socket I/O is interruptible too.
 */
public final class InterruptShield {

    /** {@code Thread::isVirtual} where the running JDK has it (21+); null on JDK 17. */
    private static final MethodHandle IS_VIRTUAL = findIsVirtual();

    private InterruptShield() {
    }

    /** Clears the current thread's interrupt status and reports whether it was set. */
    public static boolean enter() {
        Thread current = Thread.currentThread();
        return current.isInterrupted() && !isVirtual(current) && Thread.interrupted();
    }

    /** Restores the interrupt status that {@link #enter()} cleared. */
    public static void exit(boolean wasInterrupted) {
        if (wasInterrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the calling thread is a virtual thread (never on JDK 17). */
    public static boolean currentIsVirtual() {
        return isVirtual(Thread.currentThread());
    }

    /** Whether the thread is a virtual thread (never on JDK 17). */
    public static boolean isVirtual(Thread thread) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(thread);
        } catch (Throwable t) {
            throw new IllegalStateException("Thread.isVirtual failed", t);
        }
    }

    private static MethodHandle findIsVirtual() {
        try {
            return MethodHandles.publicLookup().findVirtual(
                    Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }
}

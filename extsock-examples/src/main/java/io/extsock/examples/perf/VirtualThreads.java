package io.extsock.examples.perf;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Virtual threads (JDK 21+) reached through a method handle: this module compiles with
 * --release 17, as the api module's tests do for theirs. On JDK 17 {@link #available()} is false
 * and {@link #unavailableReason()} says why.
 */
final class VirtualThreads {

    private static final MethodHandle START = find();

    private VirtualThreads() {
    }

    static boolean available() {
        return START != null;
    }

    static String unavailableReason() {
        return "virtual threads need JDK 21 or later; this is JDK " + Runtime.version().feature();
    }

    /** Starts a virtual thread running the task. */
    static Thread start(Runnable task) {
        if (START == null) {
            throw new IllegalStateException(unavailableReason());
        }
        try {
            return (Thread) START.invokeExact(task);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("cannot start a virtual thread", t);
        }
    }

    private static MethodHandle find() {
        try {
            return MethodHandles.publicLookup().findStatic(Thread.class, "startVirtualThread",
                    MethodType.methodType(Thread.class, Runnable.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;  // JDK 17
        }
    }
}

package io.extsock.core.memory;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;

/**
 * Frees a direct buffer's memory now rather than when the garbage collector finds the buffer
 * unreachable: {@code sun.misc.Unsafe.invokeCleaner} (module jdk.unsupported, there in every
 * JDK image unless a jlinked one leaves it out; then the buffer is left to the collector, as
 * before), on JDK 17 to 23: from 24 it would print a warning, and the collector frees it there. Only for blocks nothing can touch again: an access after the free is a crash, not
 * an exception. The pool calls it for blocks given back by a lease that it will not keep idle.
 */
final class DirectMemoryRelease {

    /** The Unsafe instance, null where there is none; core reflection, which needs no readability edge. */
    private static final Object UNSAFE;
    private static final Method INVOKE_CLEANER;

    /**
     * From JDK 24 the JVM prints a warning on the first call of invokeCleaner (JEP 498), and a
     * library must not make its users' programs print warnings. There, blocks given back beyond
     * the pool's idle budget are left to the collector, as any direct buffer's memory is; the
     * pool still reuses what it keeps. (A shared Arena per block would free them without a
     * warning, but its buffers make every channel read and write acquire the arena's session,
     * and a gathering write allocate per buffer: a cost on every operation, for a rare event.)
     */
    static final int FIRST_WARNING_FEATURE = 24;

    static {
        Object unsafe = null;
        Method invokeCleaner = null;
        if (Runtime.version().feature() >= FIRST_WARNING_FEATURE) {
            System.getLogger(DirectMemoryRelease.class.getName()).log(System.Logger.Level.DEBUG,
                    "direct memory beyond the pool's idle budget is left to the garbage collector: invokeCleaner"
                    + " would print a warning on JDK " + Runtime.version().feature());
        } else {
            try {
                Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
                Field field = unsafeClass.getDeclaredField("theUnsafe");
                field.setAccessible(true);
                unsafe = field.get(null);
                invokeCleaner = unsafeClass.getMethod("invokeCleaner", ByteBuffer.class);
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                System.getLogger(DirectMemoryRelease.class.getName()).log(System.Logger.Level.DEBUG,
                        "direct memory of closed connections is left to the garbage collector: " + e);
            }
        }
        UNSAFE = invokeCleaner != null ? unsafe : null;
        INVOKE_CLEANER = invokeCleaner;
    }

    private DirectMemoryRelease() {
    }

    /** Frees {@code block} (a direct buffer, not a slice or duplicate); false if it is left to the collector. */
    static boolean free(ByteBuffer block) {
        if (INVOKE_CLEANER == null) {
            return false;
        }
        try {
            INVOKE_CLEANER.invoke(UNSAFE, block);
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {  // a view: then the collector frees it
            return false;
        }
    }
}

package io.extsock.core;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The bytes the current thread has allocated, as HotSpot counts them
 * ({@code com.sun.management.ThreadMXBean}), for tests that prove a path allocates nothing.
 * Reached reflectively: the module may not read {@code jdk.management}.
 */
public final class ThreadAllocations {

    private final MethodHandle allocatedBytes;
    private final long measuringCost;

    private ThreadAllocations(MethodHandle allocatedBytes) {
        this.allocatedBytes = allocatedBytes;
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 50; i++) {
            long before = now();
            least = Math.min(least, now() - before);
        }
        this.measuringCost = least;
    }

    /** The counter; a test on a JVM that does not count allocations per thread is skipped. */
    public static ThreadAllocations counter() throws ReflectiveOperationException {
        return new ThreadAllocations(
                countingMethod("getCurrentThreadAllocatedBytes", MethodType.methodType(long.class)));
    }

    /**
     * A method of the JVM's {@code com.sun.management.ThreadMXBean}, bound to it, with counting
     * per thread turned on; a test on a JVM that does not count allocations per thread is skipped.
     */
    static MethodHandle countingMethod(String name, MethodType type) throws ReflectiveOperationException {
        Object threads = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                .invoke(null);
        Class<?> counting = Class.forName("com.sun.management.ThreadMXBean");
        assumeTrue(counting.isInstance(threads) && (boolean) counting.getMethod("isThreadAllocatedMemorySupported")
                .invoke(threads), "this JVM does not count allocations per thread");
        counting.getMethod("setThreadAllocatedMemoryEnabled", boolean.class).invoke(threads, true);
        return MethodHandles.publicLookup().findVirtual(counting, name, type).bindTo(threads);
    }

    /** Bytes this thread allocated so far. */
    public long now() {
        try {
            return (long) allocatedBytes.invokeExact();
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    /** What two calls of {@link #now} allocate themselves: subtract it from a measurement. */
    public long measuringCost() {
        return measuringCost;
    }
}

package io.extsock.core;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

/**
 * The bytes every live thread of the JVM has allocated, as HotSpot counts them ({@code
 * com.sun.management.ThreadMXBean#getThreadAllocatedBytes(long[])}): for tests of a path that
 * runs on several threads at once (an application thread each end, the engine's). Reached by
 * method handle, as {@link ThreadAllocations}: the module may not read {@code jdk.management}.
 */
public final class AllThreadsAllocations {

    private final MethodHandle threadIds;
    private final MethodHandle allocatedBytes;

    private AllThreadsAllocations(MethodHandle threadIds, MethodHandle allocatedBytes) {
        this.threadIds = threadIds;
        this.allocatedBytes = allocatedBytes;
    }

    /** The counter; a test on a JVM that does not count allocations per thread is skipped. */
    public static AllThreadsAllocations counter() throws ReflectiveOperationException {
        return new AllThreadsAllocations(
                ThreadAllocations.countingMethod("getAllThreadIds", MethodType.methodType(long[].class)),
                ThreadAllocations.countingMethod("getThreadAllocatedBytes",
                        MethodType.methodType(long[].class, long[].class)));
    }

    /** The threads alive now: count these, before and after, with {@link #of}. */
    public long[] liveThreads() {
        try {
            return (long[]) threadIds.invokeExact();
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Bytes these threads allocated so far, together; a thread that has ended counts nothing
     * (so measure over threads that outlive the measurement).
     */
    public long of(long[] threads) {
        long[] each;
        try {
            each = (long[]) allocatedBytes.invokeExact(threads);
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
        long sum = 0;
        for (long bytes : each) {
            sum += Math.max(0, bytes);
        }
        return sum;
    }
}

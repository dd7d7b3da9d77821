package io.extsock.core.load;

import io.extsock.core.memory.DirectBufferPool;
import io.extsock.testkit.leak.ResourceCount;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/**
 * What a JVM holds at one moment: heap in use, direct buffers (the JDK's count and the engine's
 * pool), live threads, the engine's progress threads ({@code extsock-iwarp-N}) and open file
 * descriptors.
 */
record ResourceSample(long heapBytes, long directBytes, long poolInUseBytes, int threads, int engineThreads,
                      int descriptors) {

    static final String HEADER = String.format("%-10s %10s %10s %10s %8s %8s %8s",
            "", "heap MiB", "direct MiB", "pool MiB", "threads", "engine", "fds");

    static ResourceSample take() {
        Runtime runtime = Runtime.getRuntime();
        long direct = 0;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                direct = pool.getMemoryUsed();
            }
        }
        int engine = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().startsWith("extsock-iwarp-")) {
                engine++;
            }
        }
        return new ResourceSample(runtime.totalMemory() - runtime.freeMemory(), direct,
                DirectBufferPool.shared().inUseBytes(), Thread.activeCount(), engine, ResourceCount.openDescriptors());
    }

    /** Heap after a collection, so that two samples compare what is live rather than garbage. */
    static ResourceSample takeAfterGc() {
        System.gc();
        return take();
    }

    String row(String label) {
        return String.format("%-10s %10.1f %10.1f %10.1f %8d %8d %8d", label, heapBytes / 1048576.0,
                directBytes / 1048576.0, poolInUseBytes / 1048576.0, threads, engineThreads, descriptors);
    }
}

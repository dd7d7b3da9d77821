package io.extsock.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;

/**
 * CPU time of this JVM's threads, each from the scheduler's own clock (nanoseconds; the
 * process total the JVM reports counts in 10 ms ticks). A thread's time counts from the
 * first snapshot it is in; one that ends between two snapshots drops out of both.
 */
final class ThreadCpu {
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final HashMap<Long, Long> start = new HashMap<>();

    /** Remembers every live thread's CPU time so far. */
    void start() {
        start.clear();
        for (long id : threads.getAllThreadIds()) {
            long nanos = threads.getThreadCpuTime(id);
            if (nanos >= 0) {
                start.put(id, nanos);
            }
        }
    }

    /** CPU time used since {@link #start} by the threads alive now. */
    long elapsedNanos() {
        long total = 0;
        for (long id : threads.getAllThreadIds()) {
            long nanos = threads.getThreadCpuTime(id);
            if (nanos >= 0) {
                total += nanos - start.getOrDefault(id, 0L);
            }
        }
        return total;
    }
}

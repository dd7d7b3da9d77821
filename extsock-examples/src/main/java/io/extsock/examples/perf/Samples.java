package io.extsock.examples.perf;

import io.extsock.examples.cli.LatencyStats;
import java.util.Arrays;

/** A growable array of nanosecond measurements: no boxing on the measured path. */
final class Samples {

    private long[] values;
    private int count;

    Samples(long expected) {
        values = new long[(int) Math.max(16, Math.min(expected, 1 << 20))];
    }

    void add(long value) {
        if (count == values.length) {
            values = Arrays.copyOf(values, values.length * 2);
        }
        values[count++] = value;
    }

    int count() {
        return count;
    }

    long get(int index) {
        return values[index];
    }

    /** Sorts the samples in place and summarises them. */
    LatencyStats stats() {
        return LatencyStats.of(values, count);
    }
}

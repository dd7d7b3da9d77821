package io.extsock.bench;

/**
 * Reads one word of every cache line of a buffer larger than the last-level cache, so that what
 * ran before finds its data, code and page-table entries gone from every cache when it next runs.
 * The sum of the words read is kept, so that the JIT cannot drop the reads.
 */
final class CacheSweep implements Runnable {

    private static final int LONGS_A_LINE = 64 / Long.BYTES;
    /** The most one long[] holds (2^31 - 1 elements, a little under 16 GiB), rounded down. */
    static final int MOST_MEBIBYTES = 16 * 1024 - 1;

    private final int mebibytes;
    private final long[] words;
    private long sum;

    CacheSweep(int mebibytes) {
        if (mebibytes < 1 || mebibytes > MOST_MEBIBYTES) {
            throw new IllegalArgumentException("a sweep of " + mebibytes + " MiB: from 1 to " + MOST_MEBIBYTES);
        }
        this.mebibytes = mebibytes;
        words = new long[(int) ((long) mebibytes * (1 << 20) / Long.BYTES)];
        for (int i = 0; i < words.length; i += LONGS_A_LINE) {
            words[i] = i;  // touched once, so that every page is mapped before the first sweep
        }
    }

    @Override
    public void run() {
        long total = sum;
        for (int i = 0; i < words.length; i += LONGS_A_LINE) {
            total += words[i];
        }
        sum = total;
    }

    int mebibytes() {
        return mebibytes;
    }

    /** The lines a sweep reads. */
    int lines() {
        return words.length / LONGS_A_LINE;
    }

    /** What the sweeps read so far, added up: anything, as long as it is used. */
    long sum() {
        return sum;
    }
}

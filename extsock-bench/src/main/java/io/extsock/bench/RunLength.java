package io.extsock.bench;

import java.util.List;

/**
 * How long a paired benchmark runs: how many rounds, and how much of a full round's work each
 * round does ({@code scale} 4: a quarter).
 */
record RunLength(int warmupRounds, int rounds, int scale) {

    static final RunLength FULL = new RunLength(6, 30, 1);
    static final RunLength QUICK = new RunLength(2, 8, 4);
    /** A few short rounds whose results are dropped: to get code compiled before measuring. */
    static final RunLength WARM_UP = new RunLength(1, 2, 16);

    /** {@link #QUICK} with {@code --quick} among the arguments, else {@link #FULL}. */
    static RunLength of(String[] args) {
        return List.of(args).contains("--quick") ? QUICK : FULL;
    }

    /** Iterations of a latency round, from a full round's count. */
    int iterations(int full) {
        return Math.max(1, full / scale);
    }

    /** Bytes of a bandwidth round, from a full round's count. */
    long bytes(long full) {
        return Math.max(1, full / scale);
    }
}

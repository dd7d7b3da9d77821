package io.extsock.examples;

/** When a perf run stops: after its iterations, or its duration; and which iterations warm up. */
final class PerfClock {

    /** Iterations run before measuring, so that the JIT has compiled the loop: not reported. */
    static final int WARM_UP = 100;

    private final PerfParameters run;
    private long measuringSince;

    PerfClock(PerfParameters run) {
        this.run = run;
    }

    /** Call as measuring starts (after the warm-up). */
    void start() {
        measuringSince = System.nanoTime();
    }

    long startNanos() {
        return measuringSince;
    }

    /** Whether iteration {@code measured} (counted from the first measured one) is the last to start. */
    boolean isLast(long measured) {
        return run.timed() ? System.nanoTime() - measuringSince >= run.durationMillis() * 1_000_000L
                : measured >= run.iterations() - 1;
    }

    /** Warm-up iterations for this run. */
    long warmUp() {
        return run.timed() ? WARM_UP : Math.min(WARM_UP, run.iterations());
    }
}

package io.extsock.examples.perf;

import java.io.IOException;

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

    /** One iteration of a latency test. */
    interface Iteration {
        /** Runs iteration {@code index} (the run's last if {@code last}); returns the nanoseconds it took. */
        long run(long index, boolean last) throws IOException, InterruptedException;
    }

    /** The latency tests' loop: the warm-up, then the measured iterations, each one's time kept. */
    Samples measure(Iteration iteration) throws IOException, InterruptedException {
        Samples times = new Samples(run.iterations());
        long warmUp = warmUp();
        for (long i = 0; ; i++) {
            if (i == warmUp) {
                start();
            }
            boolean last = i >= warmUp && isLast(i - warmUp);
            long nanos = iteration.run(i, last);
            if (i >= warmUp) {
                times.add(nanos);
            }
            if (last) {
                return times;
            }
        }
    }
}

package io.extsock.examples.perf;

import io.extsock.examples.cli.Completions;
import io.extsock.verbs.IwarpConnection;
import java.io.IOException;

/**
 * The bandwidth tests' loop: keeps up to {@code depth} requests in flight, measures each from
 * post to completion and notes when each completed (for the peak). Completions come in posting
 * order (one queue pair, one completion queue). With a post list of n (perftest's
 * --post_list), it posts n requests at a time, once there is room in flight for all n.
 */
final class PerfPipeline {

    /** An action that may fail like a post does. */
    interface Step {
        void run() throws IOException;
    }

    /** Posts {@code count} requests at once (a posting list when more than one). */
    interface Post {
        void run(int count) throws IOException;
    }

    private final PerfParameters run;
    private final int depth;

    PerfPipeline(PerfParameters run, int depth) {
        this.run = run;
        this.depth = depth;
    }

    /**
     * Runs the warm-up, then the measured requests, then {@code finish} (still timed: for
     * writes, until the peer confirms the data landed).
     */
    PerfResult run(IwarpConnection verbs, Post post, Step finish) throws IOException, InterruptedException {
        PerfClock clock = new PerfClock(run);
        for (long i = 0, warmUp = clock.warmUp(); i < warmUp; i++) {
            post.run(1);
            Completions.next(verbs.completions());
        }
        int batch = run.postList();
        Samples postTimes = new Samples(run.iterations());
        Samples completionTimes = new Samples(run.iterations());
        Samples latencies = new Samples(run.iterations());
        CompletionBatch completions = new CompletionBatch();
        clock.start();
        long posted = 0;
        long completed = 0;
        boolean stopped = false;
        while (!stopped || completed < posted) {
            while (!stopped && posted - completed + batch <= depth) {
                long now = System.nanoTime();
                int count = 0;
                while (count < batch && !stopped) {
                    stopped = clock.isLast(posted + count);
                    postTimes.add(now);
                    count++;
                }
                post.run(count);
                posted += count;
            }
            int taken = completions.take(verbs.completions());
            long now = System.nanoTime();
            for (int i = 0; i < taken; i++) {
                completionTimes.add(now);
                latencies.add(now - postTimes.get((int) completed));
                completed++;
            }
        }
        finish.run();
        return PerfResult.bandwidth(run, completionTimes, System.nanoTime() - clock.startNanos(), latencies);
    }
}

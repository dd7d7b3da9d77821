package io.extsock.examples.perf;

import io.extsock.examples.cli.LatencyStats;
import io.extsock.examples.cli.Units;

/**
 * One measured row: perftest's numbers for a size. For latency tests {@code latency} is what
 * perftest reports (one-way for ping-pong tests, the full operation for reads) and the
 * bandwidth is derived from its average; for bandwidth tests {@code latency} is each
 * operation's time from post to completion, in flight with the others.
 */
record PerfResult(PerfTest test, PerfMode mode, int bytes, long iterations, double bwPeakMBps, double bwAverageMBps,
                  double msgRateMpps, LatencyStats latency) {

    /** A bandwidth result from completion times (for the peak) and the whole run's time. */
    static PerfResult bandwidth(PerfParameters run, Samples completionTimes, long elapsedNanos, Samples latencies) {
        long iterations = completionTimes.count();
        double average = Units.megabytesPerSecond(iterations * run.size(), elapsedNanos);
        return new PerfResult(run.test(), run.mode(), run.size(), iterations,
                Math.max(average, peak(completionTimes, run.size(), elapsedNanos / 10)), average,
                elapsedNanos > 0 ? iterations / (elapsedNanos / 1e9) / 1e6 : 0, latencies.stats());
    }

    /** A latency result; {@code divisor} 2 turns round trips into one-way latency, as perftest does. */
    static PerfResult latency(PerfParameters run, Samples samples, double divisor) {
        LatencyStats stats = samples.stats().dividedBy(divisor);
        double average = stats.average() > 0 ? run.size() / (stats.average() / 1e9) / 1e6 : 0;
        return new PerfResult(run.test(), run.mode(), run.size(), samples.count(), 0, average,
                stats.average() > 0 ? 1e3 / stats.average() : 0, stats);
    }

    /** What one end tells the other of its bandwidth run (perftest's -b): 32 bytes on the wire. */
    record Figures(long iterations, double bwPeakMBps, double bwAverageMBps, double msgRateMpps) {

        static final int ENCODED_LENGTH = 8 + 8 + 8 + 8;

        void writeTo(java.nio.ByteBuffer out) {
            out.putLong(iterations).putDouble(bwPeakMBps).putDouble(bwAverageMBps).putDouble(msgRateMpps);
        }

        static Figures readFrom(java.nio.ByteBuffer in) {
            return new Figures(in.getLong(), in.getDouble(), in.getDouble(), in.getDouble());
        }

        byte[] encoded() {
            java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(ENCODED_LENGTH);
            writeTo(out);
            return out.array();
        }
    }

    /** This end's bandwidth figures, for the peer. */
    Figures figures() {
        return new Figures(iterations, bwPeakMBps, bwAverageMBps, msgRateMpps);
    }

    /**
     * Both directions of a bidirectional run, as perftest reports -b: the peaks, the averages and
     * the message rates summed; the iterations and the latencies are this end's.
     */
    PerfResult plus(Figures peer) {
        return new PerfResult(test, mode, bytes, iterations, bwPeakMBps + peer.bwPeakMBps(),
                bwAverageMBps + peer.bwAverageMBps(), msgRateMpps + peer.msgRateMpps(), latency);
    }

    /**
     * The best rate over any stretch of at least {@code span} nanoseconds (a tenth of the run):
     * perftest's "peak", made robust against completions that arrive in bursts (a gathering
     * write completes many at once).
     */
    private static double peak(Samples completionTimes, int size, long span) {
        int n = completionTimes.count();
        if (n < 2) {
            return 0;
        }
        double best = 0;
        for (int i = 0, j = 1; i < n - 1; i++) {
            j = Math.max(j, i + 1);
            while (j < n - 1 && completionTimes.get(j) - completionTimes.get(i) < span) {
                j++;
            }
            long nanos = completionTimes.get(j) - completionTimes.get(i);
            if (nanos >= span && nanos > 0) {  // the last windows may fall short of the span: not a stretch
                best = Math.max(best, Units.megabytesPerSecond((long) (j - i) * size, nanos));
            }
        }
        return best;
    }
}

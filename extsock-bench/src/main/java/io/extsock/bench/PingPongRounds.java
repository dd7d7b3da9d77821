package io.extsock.bench;

import java.util.Arrays;

/**
 * The wait floor's measurement ({@link NioWaitFloor}): a ping-pong on
 * two links in alternating rounds on the same two threads, each round giving its median round
 * trip and the CPU per round trip of every thread.
 */
final class PingPongRounds {

    /** One end's part of a round trip; made for each round, with its own buffer. */
    interface Exchange {
        /**
         * The server reads a request and answers it; the client sends request {@code index} and
         * reads the answer, and when {@code check}, fails unless the answer is the request.
         */
        void roundTrip(int index, boolean check) throws Exception;
    }

    /** A link's two ends, as the rounds use them. */
    interface Link {
        Exchange server() throws Exception;

        Exchange client() throws Exception;
    }

    private PingPongRounds() {
    }

    /**
     * Measures the two links, the client checking every answer in the first warm-up round (a wait
     * that returned early must not pass for a round trip).
     *
     * @param size the message's size, for the results' labels
     */
    static RoundTripMeasures measure(RunLength length, int iterations, int size, Link baseline, Link candidate)
            throws Exception {
        PairedComparison comparison = new PairedComparison(length.warmupRounds(), length.rounds());
        ThreadCpu cpu = new ThreadCpu();
        double[][] cpuPerRound = new double[2][length.warmupRounds() + length.rounds()];
        PairedComparison.Result latency = comparison.compare("round trip (median)", size + " B", "us", false,
                rounds(baseline, iterations, cpu, cpuPerRound[0]), rounds(candidate, iterations, cpu, cpuPerRound[1]));
        PairedComparison.Result cpuResult = new PairedComparison.Result("CPU per round trip", size + " B", "us",
                false, measured(cpuPerRound[0], length), measured(cpuPerRound[1], length));
        return new RoundTripMeasures(latency, cpuResult);
    }

    private static double[] measured(double[] all, RunLength length) {
        return Arrays.copyOfRange(all, length.warmupRounds(), all.length);
    }

    private static Contender rounds(Link link, int iterations, ThreadCpu cpu, double[] cpuPerRound) {
        return new Contender() {
            public void serve(int round) throws Exception {
                Exchange server = link.server();
                for (int i = 0; i < iterations; i++) {
                    server.roundTrip(i, false);
                }
            }

            public double run(int round) throws Exception {
                Exchange client = link.client();
                boolean check = round == 0;
                long[] nanos = new long[iterations];
                cpu.start();
                for (int i = 0; i < iterations; i++) {
                    long start = System.nanoTime();
                    client.roundTrip(i, check);
                    nanos[i] = System.nanoTime() - start;
                }
                cpuPerRound[round] = cpu.elapsedNanos() / 1_000.0 / iterations;
                return Stats.median(nanos) / 1_000.0;
            }
        };
    }
}

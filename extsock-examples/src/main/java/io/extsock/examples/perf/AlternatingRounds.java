package io.extsock.examples.perf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;

/**
 * Contenders measured in rounds, every one once a round, in alternating order (ABC CBA), so
 * that the machine's drift (thread placement, the JIT, other load) hits all alike; each one's
 * ratio to its baseline is then taken round by round ({@link RoundRatio}).
 */
public final class AlternatingRounds {

    private AlternatingRounds() {
    }

    /**
     * Runs the rows as {@link #run} does, {@code rounds} times, and forgets their results:
     * the first runs of a JVM measure the JIT compiler as much as the code (short bandwidth
     * runs spent 20-33% of their CPU in the C2 compiler's threads).
     */
    public static void warmUp(List<? extends Row<?>> rows, int rounds) throws Exception {
        run(rows, rounds);
        rows.forEach(Row::forget);
    }

    public static void run(List<? extends Row<?>> rows, int rounds) throws Exception {
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < rows.size(); k++) {
                rows.get(round % 2 == 0 ? k : rows.size() - 1 - k).runOnce();
            }
        }
    }

    /**
     * One contender, measured once a round; its ratio in a round is its figure over its
     * baseline's figure in the same round (a baseline of null: itself, so 1).
     */
    public static final class Row<R> {
        final Callable<R> measure;
        final ToDoubleFunction<R> figure;
        final Row<R> baseline;
        final String comparedWith;
        final List<R> results = new ArrayList<>();

        public Row(Callable<R> measure, ToDoubleFunction<R> figure, Row<R> baseline, String comparedWith) {
            this.measure = measure;
            this.figure = figure;
            this.baseline = baseline;
            this.comparedWith = comparedWith;
        }

        public void runOnce() throws Exception {
            results.add(measure.call());
        }

        /** Drops what was measured so far (the warm-up's results). */
        public void forget() {
            results.clear();
        }

        /** The median of a figure of this row's results (for an even count, the mean of the middle two). */
        public double median(ToDoubleFunction<R> value) {
            double[] values = results.stream().mapToDouble(value).toArray();
            Arrays.sort(values);
            return MedianInterval.median(values);
        }

        public RoundRatio ratio() {
            return ratio(figure);
        }

        /** Whether this row is its own baseline (its ratio is 1 by definition). */
        public boolean isBaseline() {
            return baseline == null;
        }

        /** The ratio of another figure of the same results, round by round, to the baseline's. */
        public RoundRatio ratio(ToDoubleFunction<R> of) {
            double[] ratios = new double[results.size()];
            for (int r = 0; r < ratios.length; r++) {
                ratios[r] = baseline == null ? 1
                        : of.applyAsDouble(results.get(r)) / of.applyAsDouble(baseline.results.get(r));
            }
            return RoundRatio.of(ratios);
        }
    }
}

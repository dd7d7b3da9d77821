package io.extsock.examples.perf;

import io.extsock.examples.cli.Units;
import java.util.Arrays;

/**
 * A contender's ratio to its baseline over alternating rounds: the median of the rounds' ratios
 * (each round's figure over the baseline's in the same round) and, from six rounds, its 95%
 * interval ({@link MedianInterval}).
 */
public record RoundRatio(double median, MedianInterval interval, int rounds) {

    /** The ratio of the rounds' ratios {@code perRound}, each a contender's figure over its baseline's. */
    public static RoundRatio of(double[] perRound) {
        double[] sorted = perRound.clone();
        Arrays.sort(sorted);
        return new RoundRatio(MedianInterval.median(sorted), MedianInterval.of(perRound), perRound.length);
    }

    /** "1.02 [0.97, 1.10]", or "1.02 [n<6]" when there are too few rounds for a 95% interval. */
    public String cell() {
        return Units.format("%.2f", median) + (interval == null ? " [n<" + MedianInterval.MIN_VALUES + "]"
                : Units.format(" [%.2f, %.2f]", interval.low(), interval.high()));
    }

    /**
     * Which way the contender differs from its baseline, whichever way its figure goes: "faster"
     * or "slower" when the whole 95% interval is on one side of 1 (or, below six rounds, the
     * median is, marked "n<6"), "no clear difference" when the interval holds 1, "baseline" for
     * the baseline itself.
     *
     * @param higherIsBetter whether a larger figure is better (bandwidth), or a smaller one (a time)
     */
    public String verdict(boolean higherIsBetter, boolean isBaseline) {
        if (isBaseline) {
            return "baseline";
        }
        if (interval != null && interval.low() <= 1 && interval.high() >= 1 || median == 1) {
            return "no clear difference";
        }
        boolean better = higherIsBetter == median > 1;
        return (better ? "faster" : "slower") + (interval == null ? " (n<" + MedianInterval.MIN_VALUES + ")" : "");
    }

    /** The JSON members; the interval's are null when there are too few rounds. */
    String json() {
        return json("");
    }

    /** As {@link #json()}, each member's name after {@code prefix} (a ratio of one part of a figure). */
    String json(String prefix) {
        return Units.format("\"" + prefix + "ratio_to_plain\":%.3f,", median) + (interval == null
                ? "\"" + prefix + "ratio_ci_low\":null,\"" + prefix + "ratio_ci_high\":null"
                : Units.format("\"" + prefix + "ratio_ci_low\":%.3f,\"" + prefix + "ratio_ci_high\":%.3f",
                interval.low(), interval.high()));
    }
}


package io.extsock.bench;

/**
 * The wait floors' printed table, and {@link ColdRoundTripCost}'s: a row a measure, with the baseline's and the candidate's
 * median over the rounds and the median of their per-round ratios, with its 95% interval.
 */
final class FloorTable {

    private FloorTable() {
    }

    /** The column titles, the two contenders' named as given. */
    static void header(String baseline, String candidate) {
        System.out.printf("%-22s %16s %16s %8s %-17s%n", "measure", baseline, candidate, "ratio", " (95% interval)");
    }

    /**
     * One measure's row.
     *
     * @param valueFormat each median's format, 16 characters wide with its unit, e.g. {@code "%13.2f us"}
     */
    static void row(PairedComparison.Result result, String valueFormat) {
        double[] interval = result.ratioInterval();
        System.out.printf("%-22s " + valueFormat + " " + valueFormat + " %8.3f  [%.3f, %.3f]%n", result.test(),
                result.baselineMedian(), result.candidateMedian(), result.ratio(), interval[0], interval[1]);
    }
}

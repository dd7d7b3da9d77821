package io.extsock.bench;

/**
 * A bound on the ratio candidate / baseline, judged on the ratio's 95% interval rather than on
 * the ratio alone: only an interval wholly on one side of the bound says met or missed.
 *
 * @param atLeast whether the ratio must be at least the bound (bandwidth) or at most (latency)
 */
record Target(boolean atLeast, double bound) {

    enum Verdict {
        MET("met"), MISSED("MISSED"), UNCLEAR("unclear");

        final String word;

        Verdict(String word) {
            this.word = word;
        }
    }

    /** Judges {low, high}; an interval of NaN (too few rounds for one) is unclear. */
    Verdict judge(double[] ratioInterval) {
        if (Double.isNaN(ratioInterval[0]) || Double.isNaN(ratioInterval[1])) {
            return Verdict.UNCLEAR;
        }
        boolean lowMeets = meets(ratioInterval[0]);
        boolean highMeets = meets(ratioInterval[1]);
        if (lowMeets && highMeets) {
            return Verdict.MET;
        }
        return lowMeets || highMeets ? Verdict.UNCLEAR : Verdict.MISSED;
    }

    private boolean meets(double ratio) {
        return atLeast ? ratio >= bound : ratio <= bound;
    }

    @Override
    public String toString() {
        return String.format("%s %.2f", atLeast ? ">=" : "<=", bound);
    }
}

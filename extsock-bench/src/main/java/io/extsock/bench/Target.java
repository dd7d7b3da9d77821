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

    Verdict judge(double[] ratioInterval) {
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

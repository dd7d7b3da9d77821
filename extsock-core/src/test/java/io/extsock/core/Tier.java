package io.extsock.core;

import java.util.Locale;

/**
 * How large a run the scaling tests make: the default suite's quick sizes, the stress tier CI
 * runs after the default suites ({@code -Dextsock.tier=stress}, or {@code mvn verify -Pstress},
 * which also runs only the tests tagged {@code stress}), or the long runs
 * ({@code -Dextsock.long=true}, the switch every module's long runs share). A test asks
 * {@code Tier.current().pick(defaultSize, stressSize, longSize)}, and reports what it did with
 * {@link #figures}, one line that CI gathers into its log.
 */
public enum Tier {
    DEFAULT, STRESS, LONG;

    /** The tier of this run; an {@code extsock.tier} other than default or stress fails, naming it. */
    public static Tier current() {
        if (Boolean.getBoolean("extsock.long")) {
            return LONG;
        }
        String name = System.getProperty("extsock.tier", "").trim().toLowerCase(Locale.ROOT);
        switch (name) {
            case "":
            case "default":
                return DEFAULT;
            case "stress":
                return STRESS;
            default:
                throw new IllegalArgumentException("-Dextsock.tier=" + name + ": the tiers are default and stress"
                        + " (the long runs are -Dextsock.long=true)");
        }
    }

    /** This tier's size of three. */
    public int pick(int defaultSize, int stressSize, int longSize) {
        return (int) pick((long) defaultSize, stressSize, longSize);
    }

    /** This tier's size of three. */
    public long pick(long defaultSize, long stressSize, long longSize) {
        switch (this) {
            case STRESS:
                return stressSize;
            case LONG:
                return longSize;
            default:
                return defaultSize;
        }
    }

    /** Whether this run is larger than the default suite's. */
    public boolean scaledUp() {
        return this != DEFAULT;
    }

    /**
     * Prints one line of a test's figures, prefixed so that CI can gather every such line of a
     * run ({@code .ci/run} greps {@value #FIGURES_PREFIX}) under one heading in its log.
     */
    public void figures(String format, Object... args) {
        System.out.println(FIGURES_PREFIX + name().toLowerCase(Locale.ROOT) + " tier: " + String.format(format, args));
    }

    /** The start of every figures line. */
    public static final String FIGURES_PREFIX = "extsock figures, ";
}

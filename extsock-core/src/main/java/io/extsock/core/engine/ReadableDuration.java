package io.extsock.core.engine;

import java.util.Locale;

/** A duration as a person reads it in a log line: "850 us", "12.5 ms", "2.05 s". */
final class ReadableDuration {

    private ReadableDuration() {
    }

    /** @param nanos a duration, in nanoseconds (not negative) */
    static String of(long nanos) {
        if (nanos < 1_000_000) {
            return nanos / 1_000 + " us";
        }
        if (nanos < 1_000_000_000) {
            return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
        }
        return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
    }
}

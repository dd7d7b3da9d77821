package io.extsock.core.verbs;

/** Byte counts as people read them in messages: "64 MiB", "8 KiB", "1000 bytes". */
final class Sizes {

    private static final String[] UNITS = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private Sizes() {
    }

    /** The largest binary unit that divides the count exactly, so that no rounding hides a limit. */
    static String describe(long bytes) {
        if (bytes == 0 || bytes % 1024 != 0) {
            return bytes == 1 ? "1 byte" : bytes + " bytes";
        }
        long value = bytes;
        int unit = -1;
        while (value % 1024 == 0 && unit < UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        return value + " " + UNITS[unit];
    }
}

package io.extsock.examples.cli;

import java.util.Locale;

/** How the commands print sizes, times and rates (always with '.' as decimal point). */
public final class Units {

    private Units() {
    }

    /** Bytes in binary units: 512 B, 64.0 KiB, 256.0 MiB. */
    public static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double value = n;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return format("%.1f %s", value, units[unit]);
    }

    /** Seconds with millisecond resolution. */
    public static String seconds(long nanos) {
        return format("%.3f s", nanos / 1e9);
    }

    /** Throughput in MB/s (10^6 bytes per second, as perftest reports). */
    public static String throughput(long bytes, long nanos) {
        return format("%.0f MB/s", megabytesPerSecond(bytes, nanos));
    }

    public static double megabytesPerSecond(long bytes, long nanos) {
        return nanos <= 0 ? 0 : bytes / (nanos / 1e9) / 1e6;
    }

    /** Microseconds with two decimals. */
    public static String micros(double nanos) {
        return format("%.2f", nanos / 1e3);
    }

    public static String format(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}

package io.extsock.core.memory;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;

/**
 * How much direct memory peers may make IWARP_MODE connections spend beyond their bases, all
 * connections of the JVM together: system property {@value #PROPERTY} (octets, or with a
 * suffix {@code k}, {@code m}, {@code g}: {@code 256m}); by default a quarter of the JVM's
 * direct memory limit ({@code -XX:MaxDirectMemorySize}, which defaults to the maximum heap).
 *
 * <p>Why a quarter: growth is what a peer can drive, so it gets a bounded share; the rest stays
 * for what the application allocates itself (registered regions, its own NIO buffers) and for
 * the connections' bases, which are not bounded by the budget. With a 4 GiB heap that is 1 GiB:
 * a thousand connections at the largest window (1 MiB).
 */
public final class MemoryBudget {

    /** The system property that sets the budget. */
    public static final String PROPERTY = "extsock.memory.budget";

    private static final System.Logger LOG = System.getLogger(MemoryBudget.class.getName());

    private MemoryBudget() {
    }

    /** The budget as the system property sets it, else the default. */
    public static long configured() {
        String value = System.getProperty(PROPERTY);
        if (value != null) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                LOG.log(System.Logger.Level.WARNING, "ignoring -D" + PROPERTY + "=" + value + " (" + e.getMessage()
                        + "): using the default");
            }
        }
        return maxDirectMemory() / 4;
    }

    /** Octets from {@code 1048576}, {@code 1024k}, {@code 1m}, {@code 1g} (case ignored). */
    public static long parse(String value) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (text.endsWith("k")) {
            unit = 1L << 10;
        } else if (text.endsWith("m")) {
            unit = 1L << 20;
        } else if (text.endsWith("g")) {
            unit = 1L << 30;
        }
        if (unit != 1) {
            text = text.substring(0, text.length() - 1);
        }
        long number;
        try {
            number = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a size in octets (such as 268435456 or 256m)");
        }
        if (number < 0 || number > Long.MAX_VALUE / unit) {
            throw new IllegalArgumentException("out of range");
        }
        return number * unit;
    }

    /**
     * The JVM's limit on direct buffers: {@code -XX:MaxDirectMemorySize} when given (read from the
     * JVM's arguments where java.management is there to tell them), else the maximum heap, which
     * is what the JVM then uses.
     */
    static long maxDirectMemory() {
        try {
            return maxDirectMemory(ManagementFactory.getRuntimeMXBean().getInputArguments());
        } catch (RuntimeException | LinkageError e) {  // java.management not in the module graph
            return Runtime.getRuntime().maxMemory();
        }
    }

    static long maxDirectMemory(List<String> jvmArguments) {
        long limit = 0;
        String flag = "-XX:MaxDirectMemorySize=";
        for (String argument : jvmArguments) {
            if (argument.startsWith(flag)) {
                try {
                    limit = parse(argument.substring(flag.length()));  // the last one counts, as for the JVM
                } catch (IllegalArgumentException e) {
                    // the JVM would not have started with it; keep what we had
                }
            }
        }
        return limit > 0 ? limit : Runtime.getRuntime().maxMemory();
    }
}

package io.extsock.core.engine;

import java.util.function.BooleanSupplier;

/**
 * For tests of the spin's policy from other packages: while open, every connection's spin finds
 * a CPU to spare, however busy the machine running the test is ({@link SpareCpu}'s own count is
 * tested in {@code SpareCpuTest}).
 */
public final class AssumedSpareCpu implements AutoCloseable {

    private final BooleanSupplier replaced;

    private AssumedSpareCpu() {
        this.replaced = InlineSpin.spareCpuAnswer(() -> true);
    }

    /** From now until {@link #close}, a CPU is always to spare. */
    public static AssumedSpareCpu assume() {
        return new AssumedSpareCpu();
    }

    @Override
    public void close() {
        InlineSpin.spareCpuAnswer(replaced);
    }
}

package io.extsock.core.memory;

import java.nio.ByteBuffer;

/**
 * A child JVM for {@code NoJvmWarningsTest}: gives a block back to a pool that keeps none idle,
 * as the engine does when connections close beyond the budget, and prints {@code freed
 * <octets> now <true|false>}: whether the memory went back at once (invokeCleaner) or is left
 * to the collector.
 */
public final class FreeBeyondBudgetProbe {

    private FreeBeyondBudgetProbe() {
    }

    public static void main(String[] args) {
        DirectBufferPool pool = new DirectBufferPool(4096, 0);
        MemoryLease lease = pool.lease(null);
        lease.take().putLong(0, 42);
        lease.release();
        ByteBuffer another = ByteBuffer.allocateDirect(4096);
        System.out.println("freed " + pool.freedBytes() + " now " + DirectMemoryRelease.free(another));
    }
}

package io.extsock.core.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pool's rules: bases always, growth within the budget, blocks back at release and reused by
 * the next lease, idle blocks kept up to the budget.
 */
class DirectBufferPoolTest {

    private static final int BLOCK = 1024;

    @Test
    void basesAreGrantedPastTheBudgetAndGrowthIsNot() {
        DirectBufferPool pool = new DirectBufferPool(BLOCK, 2 * BLOCK);
        MemoryLease lease = pool.lease(null);
        for (int i = 0; i < 6; i++) {
            assertEquals(BLOCK, lease.take().capacity());
        }
        ByteBuffer[] growth = new ByteBuffer[4];
        assertEquals(2, lease.tryTake(growth, 4), "the budget holds two blocks of growth");
        assertEquals(0, lease.tryTake(growth, 4), "and then none");
        assertEquals(6, pool.refusedBlocks());
        assertEquals(8L * BLOCK, pool.inUseBytes());
        assertEquals(2L * BLOCK, pool.growthBytes());
        assertEquals(8L * BLOCK, lease.bytes());
    }

    @Test
    void aReleasedLeaseGivesEveryBlockBackAndTheNextLeaseReusesThem() {
        DirectBufferPool pool = new DirectBufferPool(BLOCK, 64 * BLOCK);
        MemoryLease first = pool.lease(null);
        first.take().put(0, (byte) 42);
        first.tryTake(new ByteBuffer[2], 2);
        first.release();
        first.release();  // once only
        assertEquals(0, pool.inUseBytes());
        assertEquals(0, pool.growthBytes());
        assertEquals(3L * BLOCK, pool.idleBytes());

        MemoryLease second = pool.lease(null);
        ByteBuffer[] growth = new ByteBuffer[2];
        second.tryTake(growth, 2);
        ByteBuffer base = second.take();
        assertEquals(3L * BLOCK, pool.allocatedBytes(), "no block allocated twice");
        assertTrue(base.get(0) == 42 || growth[0].get(0) == 42 || growth[1].get(0) == 42, "a block came back");
        assertEquals(3L * BLOCK, pool.highWaterBytes());
    }

    @Test
    void aReleasedLeaseTakesNoMore() {
        DirectBufferPool pool = new DirectBufferPool(BLOCK, 64 * BLOCK);
        MemoryLease lease = pool.lease(null);
        lease.release();
        assertEquals(0, lease.tryTake(new ByteBuffer[1], 1));
        assertThrows(IllegalStateException.class, lease::take);
        assertEquals(0, pool.inUseBytes());
    }

    /** A view's position and limit are its holder's own: an old holder's cannot move the next one's. */
    @Test
    void leasesHandOutViewsNotTheBlocks() {
        DirectBufferPool pool = new DirectBufferPool(BLOCK, 64 * BLOCK);
        MemoryLease first = pool.lease(null);
        ByteBuffer old = first.take();
        first.release();
        ByteBuffer next = pool.lease(null).take();
        old.position(100).limit(200);
        assertEquals(0, next.position());
        assertEquals(BLOCK, next.limit());
    }

    @Test
    void idleBlocksAreKeptUpToTheBudgetAndTheRestFreed() {
        DirectBufferPool pool = new DirectBufferPool(BLOCK, 3 * BLOCK);
        MemoryLease lease = pool.lease(null);
        for (int i = 0; i < 5; i++) {
            lease.take();
        }
        lease.release();
        assertEquals(3L * BLOCK, pool.idleBytes());
        assertEquals(2L * BLOCK, pool.freedBytes(), "the other two are freed, not left to the garbage collector");
        assertEquals(0, pool.inUseBytes());
    }

    /** A lease whose owner is dropped unreleased (a socket never closed) gives its blocks back when the owner goes. */
    @Test
    void aDroppedOwnersBlocksComeBack() throws InterruptedException {
        DirectBufferPool pool = new DirectBufferPool(BLOCK, 64 * BLOCK);
        leaseForAnOwnerNobodyKeeps(pool);
        for (int i = 0; i < 200 && pool.inUseBytes() != 0; i++) {
            System.gc();
            Thread.sleep(10);  // a polling interval while the collector finds the dropped owner
        }
        assertEquals(0, pool.inUseBytes(), pool.toString());
    }

    private static void leaseForAnOwnerNobodyKeeps(DirectBufferPool pool) {
        MemoryLease lease = pool.lease(new Object());
        lease.take();
        lease.tryTake(new ByteBuffer[1], 1);
        assertEquals(2L * BLOCK, pool.inUseBytes());
    }

    @Test
    void budgetSizes() {
        assertEquals(268_435_456L, MemoryBudget.parse("256m"));
        assertEquals(268_435_456L, MemoryBudget.parse("256M"));
        assertEquals(1L << 30, MemoryBudget.parse("1g"));
        assertEquals(512L << 10, MemoryBudget.parse("512k"));
        assertEquals(0, MemoryBudget.parse("0"));
        assertThrows(IllegalArgumentException.class, () -> MemoryBudget.parse("lots"));
        assertThrows(IllegalArgumentException.class, () -> MemoryBudget.parse("-1"));
        assertEquals(64L << 20, MemoryBudget.maxDirectMemory(List.of("-Xmx1g", "-XX:MaxDirectMemorySize=64m")));
        assertEquals(Runtime.getRuntime().maxMemory(), MemoryBudget.maxDirectMemory(List.of("-Xmx1g")),
                "without the flag the JVM's limit is the maximum heap");
    }
}

package io.extsock.core.memory;

import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The direct memory of IWARP_MODE connections (stream receive buffers, receive staging, the
 * gathering write's arena), in blocks of one size, shared by every connection of the JVM.
 *
 * <p>Why a pool: a direct buffer's memory is freed only when the garbage collector finds the
 * buffer unreachable, which a heap with little garbage may not do for a long time; 500
 * connections that came and went left 270 MiB of resident memory behind. Blocks a connection
 * gives back at its close are reused by the next one instead, so resident memory stays at the
 * pool's high-water mark.
 *
 * <p>The budget ({@link MemoryBudget}) bounds what peers can make us spend: a connection's base
 * (what it needs to run at all) is always granted, since how many connections there are is the
 * application's to limit, as with TCP; window growth beyond the base is granted only while all
 * connections' growth together stays within the budget. Idle blocks are kept for reuse up to the
 * budget too; blocks given back beyond that are freed at once ({@link DirectMemoryRelease}).
 *
 * <p>Thread-safe; its lock is a leaf (held for bookkeeping only, never around an allocation).
 */
public final class DirectBufferPool {

    /**
     * The block size of the shared pool: one stream receive buffer (64 KiB of stream data behind
     * its 4-octet header, {@code IwarpStream.BUFFER_SIZE}), the staging buffer, the arena.
     */
    public static final int BLOCK_SIZE = 64 * 1024 + 4;

    /** Returns the blocks of leases whose owner was dropped unclosed: one daemon thread for the JVM. */
    static final Cleaner CLEANER = Cleaner.create();

    private final int blockSize;
    private final long budgetBytes;
    private final ArrayDeque<ByteBuffer> idle = new ArrayDeque<>();
    private long baseBytes;
    private long growthBytes;
    private long highWaterBytes;
    private long allocatedBytes;
    private long freedBytes;
    private long refusedBlocks;

    /**
     * @param blockSize octets of every block
     * @param budgetBytes how much growth beyond the bases all leases together may hold, and how
     *     many idle octets the pool keeps
     */
    public DirectBufferPool(int blockSize, long budgetBytes) {
        if (blockSize <= 0 || budgetBytes < 0) {
            throw new IllegalArgumentException("block size " + blockSize + ", budget " + budgetBytes);
        }
        this.blockSize = blockSize;
        this.budgetBytes = budgetBytes;
    }

    /** The JVM's pool: {@link #BLOCK_SIZE} blocks, the budget from {@link MemoryBudget#configured()}. */
    public static DirectBufferPool shared() {
        return Shared.POOL;
    }

    /**
     * A lease for one connection's blocks. With an {@code owner}, blocks still leased when the
     * owner becomes unreachable (a socket dropped without close) come back then, so that the
     * budget's accounting never leaks.
     */
    public MemoryLease lease(Object owner) {
        return new MemoryLease(this, owner);
    }

    public int blockSize() {
        return blockSize;
    }

    public long budgetBytes() {
        return budgetBytes;
    }

    /** Octets leased now: bases and growth. */
    public synchronized long inUseBytes() {
        return baseBytes + growthBytes;
    }

    /** Octets of growth leased now: what the budget bounds. */
    public synchronized long growthBytes() {
        return growthBytes;
    }

    /** Octets kept idle for the next leases. */
    public synchronized long idleBytes() {
        return (long) idle.size() * blockSize;
    }

    /** The most octets ever leased at once. */
    public synchronized long highWaterBytes() {
        return highWaterBytes;
    }

    /** Octets ever allocated: what reuse saved is what this is short of all leases ever made. */
    public synchronized long allocatedBytes() {
        return allocatedBytes;
    }

    /** Octets given back while the idle blocks filled the budget: freed then (where the JDK lets us), not kept. */
    public synchronized long freedBytes() {
        return freedBytes;
    }

    /** Growth blocks asked for and refused because the budget was spent. */
    public synchronized long refusedBlocks() {
        return refusedBlocks;
    }

    /** A base block: always granted. */
    ByteBuffer takeBase() {
        ByteBuffer block;
        synchronized (this) {
            baseBytes += blockSize;
            noteHighWater();
            block = idle.poll();
            if (block == null) {
                allocatedBytes += blockSize;
            }
        }
        return block != null ? block : ByteBuffer.allocateDirect(blockSize);
    }

    /** Growth blocks: as many of {@code wanted} as the budget allows, into {@code into}; how many. */
    int takeGrowth(ByteBuffer[] into, int wanted) {
        int granted;
        int reused = 0;
        synchronized (this) {
            long room = Math.max(0, budgetBytes - growthBytes) / blockSize;
            granted = (int) Math.min(wanted, room);
            refusedBlocks += wanted - granted;
            growthBytes += (long) granted * blockSize;
            noteHighWater();
            while (reused < granted && !idle.isEmpty()) {
                into[reused++] = idle.poll();
            }
            allocatedBytes += (long) (granted - reused) * blockSize;
        }
        for (int i = reused; i < granted; i++) {
            into[i] = ByteBuffer.allocateDirect(blockSize);
        }
        return granted;
    }

    /**
     * Blocks back from a lease whose users can no longer touch them: kept for reuse while the
     * idle ones stay within the budget, else freed at once.
     */
    void giveBack(List<ByteBuffer> blocks, int growthBlocks) {
        int kept = 0;
        synchronized (this) {
            growthBytes -= (long) growthBlocks * blockSize;
            baseBytes -= (long) (blocks.size() - growthBlocks) * blockSize;
            while (kept < blocks.size() && (long) (idle.size() + 1) * blockSize <= budgetBytes) {
                idle.push(blocks.get(kept++));  // last in, first out: the warmest memory goes out next
            }
            freedBytes += (long) (blocks.size() - kept) * blockSize;
        }
        for (int i = kept; i < blocks.size(); i++) {
            DirectMemoryRelease.free(blocks.get(i));
        }
    }

    private void noteHighWater() {
        highWaterBytes = Math.max(highWaterBytes, baseBytes + growthBytes);
    }

    @Override
    public synchronized String toString() {
        return "DirectBufferPool[block " + blockSize + ", budget " + budgetBytes + ", in use " + inUseBytes()
                + " (growth " + growthBytes + "), idle " + idleBytes() + ", high water " + highWaterBytes
                + ", allocated " + allocatedBytes + ", freed " + freedBytes + ", refused blocks " + refusedBlocks + "]";
    }

    /** Created on first use: the budget is read then. */
    private static final class Shared {
        static final DirectBufferPool POOL = new DirectBufferPool(BLOCK_SIZE, MemoryBudget.configured());
    }
}

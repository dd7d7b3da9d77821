package io.extsock.core.memory;

import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One connection's blocks from a {@link DirectBufferPool}: taken as the connection starts and
 * as its window grows, given back all at once by {@link #release()}, which the connection calls
 * when nothing can read or write them any more (its receive and transmit sides quiesced, its
 * stream closed). Callers get views of the blocks, never the blocks themselves, so that a
 * position or limit an old owner still sets on its view cannot disturb the next owner.
 *
 * <p>Thread-safe.
 */
public final class MemoryLease {

    private final DirectBufferPool pool;
    private final List<ByteBuffer> blocks = new ArrayList<>();
    private int growthBlocks;
    private boolean released;
    /** Gives the blocks back when the owner is dropped unreleased; null without an owner. */
    private final Cleaner.Cleanable cleanable;

    MemoryLease(DirectBufferPool pool, Object owner) {
        this.pool = pool;
        this.cleanable = owner != null ? DirectBufferPool.CLEANER.register(owner, this::giveBack) : null;
    }

    /** A base block ({@link DirectBufferPool#blockSize()} octets): always granted. */
    public synchronized ByteBuffer take() {
        if (released) {
            throw new IllegalStateException("memory lease already released");
        }
        ByteBuffer block = pool.takeBase();
        blocks.add(block);
        return block.slice();
    }

    /**
     * Growth blocks: up to {@code wanted}, as many as the pool's budget allows (none after
     * {@link #release()}), as views in {@code into} from index 0.
     *
     * @return how many were granted
     */
    public int tryTake(ByteBuffer[] into, int wanted) {
        synchronized (this) {
            if (released) {
                return 0;
            }
            int granted = pool.takeGrowth(into, wanted);
            for (int i = 0; i < granted; i++) {
                blocks.add(into[i]);
                into[i] = into[i].slice();
            }
            growthBlocks += granted;
            return granted;
        }
    }

    /** Octets held now. */
    public synchronized long bytes() {
        return (long) blocks.size() * pool.blockSize();
    }

    /** Gives every block back to the pool; later calls do nothing. Only once nothing uses them. */
    public void release() {
        if (cleanable != null) {
            cleanable.clean();  // runs giveBack once, and never again when the owner is collected
        } else {
            giveBack();
        }
    }

    private void giveBack() {
        synchronized (this) {
            if (released) {
                return;
            }
            released = true;
        }
        pool.giveBack(blocks, growthBlocks);
    }
}

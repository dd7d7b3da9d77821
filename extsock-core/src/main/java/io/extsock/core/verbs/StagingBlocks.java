package io.extsock.core.verbs;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * The direct blocks a connection's transmit side reads file regions' bytes into, one block per
 * segment payload, until the gathering write that references them went out. Made as first
 * needed: a connection that never sends from a file has none. A gathering write references at
 * most a few hundred payloads, so that many blocks at most are out at once; of those given back,
 * {@link #MAX_IDLE} are kept for the next writes, and the rest are left to the garbage collector.
 *
 * <p>Transmit side only, one thread at a time.
 */
final class StagingBlocks {

    /** A segment's payload is under 64 KiB: an MPA ULPDU's length is a 16-bit field (RFC 5044). */
    static final int BLOCK_SIZE = 64 * 1024;
    /** Blocks kept for reuse: 2 MiB, what 8 Read Responses of 256 KiB take in one write. */
    static final int MAX_IDLE = 32;

    private final ArrayDeque<ByteBuffer> idle = new ArrayDeque<>();

    /** A block with position 0 and limit {@code length}. */
    ByteBuffer take(int length) {
        if (length > BLOCK_SIZE) {
            return ByteBuffer.allocateDirect(length);  // not from a segment of MPA's: never pooled
        }
        ByteBuffer block = idle.pollFirst();
        if (block == null) {
            block = ByteBuffer.allocateDirect(BLOCK_SIZE);
        }
        return block.clear().limit(length);
    }

    void giveBack(ByteBuffer block) {
        if (block.capacity() == BLOCK_SIZE && idle.size() < MAX_IDLE) {
            idle.addFirst(block);
        }
    }

    /** Blocks kept for reuse now. */
    int idleCount() {
        return idle.size();
    }
}

package io.extsock.core.verbs;

import java.nio.ByteBuffer;
import java.util.ArrayList;

/**
 * Where a connection's transmit side reads file regions' bytes before it frames them: each
 * segment's payload is carved, one after another, from direct blocks of {@link #BLOCK_SIZE},
 * and all of it is given back at once when the gathering write that references the payloads
 * went out ({@link #reset}). Carving to the payload's length keeps small segments small (at a
 * maximum FPDU of 1,460 octets a write's 128 payloads take 187 KiB, not 128 blocks of 64 KiB).
 * Made as first needed: a connection that never sends from a file has none.
 *
 * <p>A gathering write holds at most a few hundred payloads of under 64 KiB; blocks beyond
 * {@link #MAX_KEPT} that one write needed are left to the garbage collector after it.
 *
 * <p>Transmit side only, one thread at a time.
 */
final class StagingArena {

    /** Octets per block: sixteen of the largest payloads (an MPA ULPDU's length is 16 bits, RFC 5044). */
    static final int BLOCK_SIZE = 1 << 20;
    /** Blocks kept between writes: what 8 Read Responses of 256 KiB take in one write. */
    static final int MAX_KEPT = 2;

    private final ArrayList<ByteBuffer> blocks = new ArrayList<>();
    /** The block being carved, and how much of it is. */
    private int current;
    private int used;

    /**
     * A view of {@code length} octets nobody else uses until the next {@link #reset}, with
     * position 0 and limit {@code length}.
     */
    ByteBuffer take(int length) {
        if (length < 0 || length > BLOCK_SIZE) {
            throw new IllegalArgumentException("a segment payload of " + length + " octets; at most " + BLOCK_SIZE);
        }
        if (blocks.isEmpty()) {
            blocks.add(ByteBuffer.allocateDirect(BLOCK_SIZE));
        } else if (used + length > BLOCK_SIZE) {
            current++;
            used = 0;
            if (current == blocks.size()) {
                blocks.add(ByteBuffer.allocateDirect(BLOCK_SIZE));
            }
        }
        ByteBuffer view = blocks.get(current).slice(used, length);
        used += length;
        return view;
    }

    /** Every view taken is done with: the blocks are carved again from the start. */
    void reset() {
        for (int last = blocks.size() - 1; last >= MAX_KEPT; last--) {
            blocks.remove(last);
        }
        current = 0;
        used = 0;
    }

    /** Blocks held now. */
    int blockCount() {
        return blocks.size();
    }
}

package io.extsock.core.verbs;

import io.extsock.verbs.WorkRequest;
import java.nio.ByteBuffer;

/**
 * The scatter or gather list of a queued work request: pieces that are each a range of a
 * registered region, or for the engine's own stream a plain buffer. Reused with its entry;
 * guarded as the entry is.
 */
final class WorkPieces {

    private final RegisteredRegion[] regions = new RegisteredRegion[WorkRequest.MAX_SLICES];
    private final long[] offsets = new long[WorkRequest.MAX_SLICES];
    private final int[] lengths = new int[WorkRequest.MAX_SLICES];
    private final ByteBuffer[] buffers = new ByteBuffer[WorkRequest.MAX_SLICES];
    private int count;

    /** Adds {@code length} octets of the region from {@code offset}. */
    void add(RegisteredRegion region, long offset, int length) {
        regions[count] = region;
        offsets[count] = offset;
        lengths[count] = length;
        count++;
    }

    /** Adds the buffer's remaining octets. */
    void add(ByteBuffer buffer) {
        buffers[count] = buffer;
        lengths[count] = buffer.remaining();
        count++;
    }

    int count() {
        return count;
    }

    int length(int piece) {
        return lengths[piece];
    }

    /** The piece's region, or null for a plain buffer. */
    RegisteredRegion region(int piece) {
        return regions[piece];
    }

    /** Where the piece starts in its region. */
    long offset(int piece) {
        return offsets[piece];
    }

    /** Octets [from, to) of a plain-buffer piece, as a view of their own. */
    ByteBuffer bufferView(int piece, int from, int to) {
        ByteBuffer buffer = buffers[piece];
        return buffer.duplicate().limit(buffer.position() + to).position(buffer.position() + from);
    }

    /** Forgets every piece (and drops the references, so that pooled entries hold no memory). */
    void clear() {
        for (int i = 0; i < count; i++) {
            regions[i] = null;
            buffers[i] = null;
        }
        count = 0;
    }
}

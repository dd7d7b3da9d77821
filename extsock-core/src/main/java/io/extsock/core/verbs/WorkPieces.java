package io.extsock.core.verbs;

import io.extsock.verbs.WorkRequest;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The scatter or gather list of a queued work request: pieces that are each a range of a
 * registered region, or for the engine's own stream a plain buffer. Reused with its entry;
 * guarded as the entry is.
 */
final class WorkPieces {

    /**
     * Room at first: most requests have a piece or two (every stream Send and Receive does).
     * An entry grows to {@link WorkRequest#MAX_SLICES} the first time a request needs it, and
     * keeps that room while pooled; a connection's entries are many, so this is most of what
     * its queues cost in memory.
     */
    static final int INITIAL_ROOM = 2;

    private RegisteredRegion[] regions = new RegisteredRegion[INITIAL_ROOM];
    private long[] offsets = new long[INITIAL_ROOM];
    private int[] lengths = new int[INITIAL_ROOM];
    private ByteBuffer[] buffers = new ByteBuffer[INITIAL_ROOM];
    private int count;

    /** Adds {@code length} octets of the region from {@code offset}. */
    void add(RegisteredRegion region, long offset, int length) {
        makeRoom();
        regions[count] = region;
        offsets[count] = offset;
        lengths[count] = length;
        count++;
    }

    /** Adds the buffer's remaining octets. */
    void add(ByteBuffer buffer) {
        makeRoom();
        buffers[count] = buffer;
        offsets[count] = buffer.position();
        lengths[count] = buffer.remaining();
        count++;
    }

    /** Room for one more piece; a request has at most {@link WorkRequest#MAX_SLICES}. */
    private void makeRoom() {
        if (count < lengths.length) {
            return;
        }
        if (count >= WorkRequest.MAX_SLICES) {
            throw new IllegalStateException("a request has at most " + WorkRequest.MAX_SLICES + " pieces");
        }
        regions = Arrays.copyOf(regions, WorkRequest.MAX_SLICES);
        offsets = Arrays.copyOf(offsets, WorkRequest.MAX_SLICES);
        lengths = Arrays.copyOf(lengths, WorkRequest.MAX_SLICES);
        buffers = Arrays.copyOf(buffers, WorkRequest.MAX_SLICES);
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

    /** Where the piece starts in its region (or its plain buffer). */
    long offset(int piece) {
        return offsets[piece];
    }

    /**
     * Octets [from, to) of a plain-buffer piece, as a view of their own: for a gathering write,
     * which may hold several views of one piece at once.
     */
    ByteBuffer bufferView(int piece, int from, int to) {
        int start = (int) offsets[piece];
        return buffers[piece].duplicate().limit(start + to).position(start + from);
    }

    /**
     * Octets [from, to) of a plain-buffer piece, through the buffer itself, its position and
     * limit moved there: for one view of the piece at a time, without allocating one. The engine
     * may do so with the buffers of its own stream: they are the queued request's alone.
     */
    ByteBuffer bufferWindow(int piece, int from, int to) {
        int start = (int) offsets[piece];
        ByteBuffer buffer = buffers[piece];
        return buffer.limit(start + to).position(start + from);
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

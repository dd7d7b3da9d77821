package io.extsock.core.verbs;

import io.extsock.verbs.WorkRequest;
import java.nio.ByteBuffer;

/**
 * The scatter or gather list of a queued work request: pieces that are each a range of a
 * registered region, or for the engine's own stream a plain buffer. Reused with its entry;
 * guarded as the entry is.
 *
 * <p>The first two pieces are fields, the rest arrays made the first time a request has more:
 * most requests have a piece or two (every stream Send and Receive does), and a connection's
 * entries are many. Fields also keep a message's walk short on a connection gone cold: the
 * entry's pieces lie in its own object, not in four arrays reached through it.
 */
final class WorkPieces {

    /** Pieces held in fields; from this one on, in {@link #more}. */
    static final int IN_FIELDS = 2;

    private RegisteredRegion region0;
    private RegisteredRegion region1;
    private ByteBuffer buffer0;
    private ByteBuffer buffer1;
    private long offset0;
    private long offset1;
    private int length0;
    private int length1;
    private int count;
    /** Pieces from the third on; kept while pooled once made. */
    private MorePieces more;

    /** Adds {@code length} octets of the region from {@code offset}. */
    void add(RegisteredRegion region, long offset, int length) {
        put(region, null, offset, length);
    }

    /** Adds the buffer's remaining octets. */
    void add(ByteBuffer buffer) {
        put(null, buffer, buffer.position(), buffer.remaining());
    }

    private void put(RegisteredRegion region, ByteBuffer buffer, long offset, int length) {
        switch (count) {
            case 0 -> {
                region0 = region;
                buffer0 = buffer;
                offset0 = offset;
                length0 = length;
            }
            case 1 -> {
                region1 = region;
                buffer1 = buffer;
                offset1 = offset;
                length1 = length;
            }
            default -> {
                if (count >= WorkRequest.MAX_SLICES) {
                    throw new IllegalStateException("a request has at most " + WorkRequest.MAX_SLICES + " pieces");
                }
                if (more == null) {
                    more = new MorePieces(WorkRequest.MAX_SLICES - IN_FIELDS);
                }
                more.put(count - IN_FIELDS, region, buffer, offset, length);
            }
        }
        count++;
    }

    int count() {
        return count;
    }

    int length(int piece) {
        return switch (piece) {
            case 0 -> length0;
            case 1 -> length1;
            default -> more.lengths[piece - IN_FIELDS];
        };
    }

    /** The piece's region, or null for a plain buffer. */
    RegisteredRegion region(int piece) {
        return switch (piece) {
            case 0 -> region0;
            case 1 -> region1;
            default -> more.regions[piece - IN_FIELDS];
        };
    }

    /** Where the piece starts in its region (or its plain buffer). */
    long offset(int piece) {
        return switch (piece) {
            case 0 -> offset0;
            case 1 -> offset1;
            default -> more.offsets[piece - IN_FIELDS];
        };
    }

    private ByteBuffer buffer(int piece) {
        return switch (piece) {
            case 0 -> buffer0;
            case 1 -> buffer1;
            default -> more.buffers[piece - IN_FIELDS];
        };
    }

    /**
     * Octets [from, to) of a plain-buffer piece, as a view of their own: for a gathering write,
     * which may hold several views of one piece at once.
     */
    ByteBuffer bufferView(int piece, int from, int to) {
        int start = (int) offset(piece);
        return buffer(piece).duplicate().limit(start + to).position(start + from);
    }

    /**
     * Octets [from, to) of a plain-buffer piece, through the buffer itself, its position and
     * limit moved there: for one view of the piece at a time, without allocating one. The engine
     * may do so with the buffers of its own stream: they are the queued request's alone.
     */
    ByteBuffer bufferWindow(int piece, int from, int to) {
        int start = (int) offset(piece);
        return buffer(piece).limit(start + to).position(start + from);
    }

    /** Forgets every piece (and drops the references, so that pooled entries hold no memory). */
    void clear() {
        region0 = null;
        region1 = null;
        buffer0 = null;
        buffer1 = null;
        if (count > IN_FIELDS) {
            more.clear(count - IN_FIELDS);
        }
        count = 0;
    }
}

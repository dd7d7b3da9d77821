package io.extsock.core.verbs;

import java.nio.ByteBuffer;

/**
 * One entry of a connection's receive queue: where the peer's next Send goes, as a scatter
 * list of pieces (ranges of registered regions, or for the engine's own stream a plain buffer).
 * Pooled and reused; owned by the queue pair's lock while queued, then by the receive side.
 */
final class ReceiveWork {

    long tag;
    WorkCompleter completer;

    private final WorkPieces pieces = new WorkPieces();
    long capacity;

    void addPiece(RegisteredRegion region, long offset, int length) {
        pieces.add(region, offset, length);
        capacity += length;
    }

    void addPiece(ByteBuffer buffer) {
        capacity += buffer.remaining();
        pieces.add(buffer);
    }

    int pieces() {
        return pieces.count();
    }

    int length(int piece) {
        return pieces.length(piece);
    }

    /** Whether a piece is a plain buffer (the engine's own stream), not a range of a registered region. */
    boolean isPlainBuffer(int piece) {
        return pieces.region(piece) == null;
    }

    /**
     * Where octets [from, from + length) of a piece go, as a view to place into: a region's
     * reused placement window (receive side only), or the plain buffer itself, moved there (the
     * receive side places one segment at a time).
     */
    ByteBuffer placement(int piece, int from, int length) {
        RegisteredRegion region = pieces.region(piece);
        if (region != null) {
            return region.placementWindow(pieces.offset(piece) + from, length);
        }
        return pieces.bufferWindow(piece, from, from + length);
    }

    /**
     * Where octets [offset, offset + length) of this Receive go when one piece holds them all
     * ({@link #placement}); null when they straddle pieces or run past the end, or, with {@code
     * plainOnly}, when that piece is a range of a registered region.
     */
    ByteBuffer placementWithin(long offset, int length, boolean plainOnly) {
        long skip = offset;
        for (int i = 0; i < pieces(); i++) {
            int pieceLength = length(i);
            if (skip < pieceLength) {
                return skip + length <= pieceLength && (!plainOnly || isPlainBuffer(i))
                        ? placement(i, (int) skip, length) : null;
            }
            skip -= pieceLength;
        }
        return null;
    }

    void clear() {
        pieces.clear();
        capacity = 0;
        completer = null;
    }
}

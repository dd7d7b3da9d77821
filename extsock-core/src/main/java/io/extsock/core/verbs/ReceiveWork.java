package io.extsock.core.verbs;

import java.nio.ByteBuffer;

/**
 * One entry of a connection's receive queue: where the peer's next Send goes, as a scatter
 * list of pieces (ranges of registered regions, or for the engine's own stream a plain buffer).
 * Pooled and reused; owned by the queue pair's lock while queued, then by the receive side.
 */
final class ReceiveWork {

    private static final int MAX_PIECES = io.extsock.verbs.WorkRequest.MAX_SLICES;

    long tag;
    WorkCompleter completer;

    private final RegisteredRegion[] regions = new RegisteredRegion[MAX_PIECES];
    private final long[] offsets = new long[MAX_PIECES];
    private final int[] lengths = new int[MAX_PIECES];
    private final ByteBuffer[] buffers = new ByteBuffer[MAX_PIECES];
    int pieces;
    long capacity;

    void addPiece(RegisteredRegion region, long offset, int length) {
        regions[pieces] = region;
        offsets[pieces] = offset;
        lengths[pieces] = length;
        pieces++;
        capacity += length;
    }

    void addPiece(ByteBuffer buffer) {
        buffers[pieces] = buffer;
        lengths[pieces] = buffer.remaining();
        pieces++;
        capacity += buffer.remaining();
    }

    int length(int piece) {
        return lengths[piece];
    }

    /**
     * Where octets [from, from + length) of a piece go, as a view to place into: a region's
     * reused placement window (receive side only), or a view of the plain buffer.
     */
    ByteBuffer placement(int piece, int from, int length) {
        RegisteredRegion region = regions[piece];
        if (region != null) {
            return region.placementWindow(offsets[piece] + from, length);
        }
        ByteBuffer buffer = buffers[piece];
        int start = buffer.position() + from;
        return buffer.duplicate().limit(start + length).position(start);
    }

    void clear() {
        for (int i = 0; i < pieces; i++) {
            regions[i] = null;
            buffers[i] = null;
        }
        pieces = 0;
        capacity = 0;
        completer = null;
    }
}

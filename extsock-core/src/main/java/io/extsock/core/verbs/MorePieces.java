package io.extsock.core.verbs;

import java.nio.ByteBuffer;
import java.util.Arrays;

/** The pieces of a work request beyond those {@link WorkPieces} holds in fields. */
final class MorePieces {

    final RegisteredRegion[] regions;
    final ByteBuffer[] buffers;
    final long[] offsets;
    final int[] lengths;

    MorePieces(int room) {
        regions = new RegisteredRegion[room];
        buffers = new ByteBuffer[room];
        offsets = new long[room];
        lengths = new int[room];
    }

    void put(int index, RegisteredRegion region, ByteBuffer buffer, long offset, int length) {
        regions[index] = region;
        buffers[index] = buffer;
        offsets[index] = offset;
        lengths[index] = length;
    }

    /** Drops the references of the first {@code count} pieces. */
    void clear(int count) {
        Arrays.fill(regions, 0, count, null);
        Arrays.fill(buffers, 0, count, null);
    }
}

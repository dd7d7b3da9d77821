package io.extsock.core.verbs;

import io.extsock.core.rdmap.MessagePayload;
import java.nio.ByteBuffer;

/**
 * A peer's RDMA Read Request that passed every check and waits for its Read Response
 * (RFC 5040 section 5.2): at most IRD of them at once. As the response's payload it lends
 * views of our region while framed.
 */
final class InboundRead implements MessagePayload {

    /** Where the octets come from: our region's STag and tagged offset, and how many. */
    int sourceStag;
    long sourceTaggedOffset;
    long size;
    /** Where they go: the requester's sink. */
    int sinkStag;
    long sinkTaggedOffset;

    /** The source region, checked again just before the response is framed. */
    RegisteredRegion source;
    LentViews lentViews;

    /**
     * A Read may ask for up to 2^32 - 1 octets (RFC 5040 section 4.4) and a file region may hold
     * them, but a piece's length is an int: the response is pieces of 1 GiB.
     */
    static final long PIECE = 1L << 30;

    @Override
    public int pieces() {
        return (int) ((size + PIECE - 1) / PIECE);
    }

    @Override
    public int length(int piece) {
        return (int) Math.min(PIECE, size - piece * PIECE);
    }

    @Override
    public ByteBuffer view(int piece, int from, int to) {
        return lentViews.lend(source, sourceTaggedOffset + piece * PIECE + from, to - from);
    }

    void clear() {
        size = 0;
        source = null;
        lentViews = null;
    }
}

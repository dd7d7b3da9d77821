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

    @Override
    public int pieces() {
        return size == 0 ? 0 : 1;
    }

    @Override
    public int length(int piece) {
        return (int) size;
    }

    @Override
    public ByteBuffer view(int piece, int from, int to) {
        return lentViews.lend(source, sourceTaggedOffset + from, to - from);
    }

    void clear() {
        size = 0;
        source = null;
        lentViews = null;
    }
}

package io.extsock.core.verbs;

/**
 * A peer's RDMA Read Request that passed every check and waits for its Read Response
 * (RFC 5040 section 5.2): at most IRD of them at once.
 */
final class InboundRead {

    /** Where the octets come from: our region's STag and tagged offset, and how many. */
    int sourceStag;
    long sourceTaggedOffset;
    long size;
    /** Where they go: the requester's sink. */
    int sinkStag;
    long sinkTaggedOffset;

    void clear() {
        size = 0;
    }
}

package io.extsock.testkit.wire;

/** The body of an RDMA Read Request (RFC 5040 section 4.4). */
public record ReadRequestFields(long sinkStag, long sinkTaggedOffset, long size, long sourceStag,
                                long sourceTaggedOffset) {
}

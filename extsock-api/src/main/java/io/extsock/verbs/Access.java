package io.extsock.verbs;

/**
 * What may be done with a registered memory region. Remote rights are what the peer may do
 * through the region's STag (RFC 5042: nothing without an explicit right).
 */
public enum Access {
    /** The local engine may write into the region: receive buffers, RDMA Read sinks. */
    LOCAL_WRITE,
    /** The peer may RDMA Read from the region. */
    REMOTE_READ,
    /** The peer may RDMA Write into the region. */
    REMOTE_WRITE
}

package io.extsock.verbs;

/** The operation a completion reports. */
public enum WorkOpcode {
    /** A {@link SendRequest}. */
    SEND,
    /** A {@link ReceiveRequest}. */
    RECEIVE,
    /** A {@link WriteRequest}. */
    RDMA_WRITE,
    /** A {@link ReadRequest}. */
    RDMA_READ
}

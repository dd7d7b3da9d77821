package io.extsock.verbs;

/** The operation a completion reports. */
public enum WorkOpcode {
    SEND, RECEIVE, RDMA_WRITE, RDMA_READ
}

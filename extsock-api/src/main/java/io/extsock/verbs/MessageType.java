package io.extsock.verbs;

/**
 * The kinds of RDMAP message (RFC 5040 section 4.1) that {@link IwarpStatistics} counts. The
 * four Send variants (with Invalidate, with Solicited Event) count as {@link #SEND}.
 */
public enum MessageType {
    /** A Send, of any of RFC 5040's four variants (opcodes 0x3 to 0x6). */
    SEND,
    /** An RDMA Write (opcode 0x0). */
    RDMA_WRITE,
    /** An RDMA Read Request (opcode 0x1). */
    RDMA_READ_REQUEST,
    /** An RDMA Read Response (opcode 0x2). */
    RDMA_READ_RESPONSE,
    /** A Terminate (opcode 0x7). */
    TERMINATE
}

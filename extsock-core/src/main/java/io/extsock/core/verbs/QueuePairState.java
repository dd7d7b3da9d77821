package io.extsock.core.verbs;

/** Where a queue pair is in its life (RFC 5040 section 6 names them RTS and ERROR). */
enum QueuePairState {
    /** Running: requests are accepted and processed. */
    CONNECTED,
    /** Ended by a Terminate (either way) or by the connection breaking: everything completed. */
    ERROR
}

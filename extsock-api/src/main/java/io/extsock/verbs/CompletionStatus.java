package io.extsock.verbs;

/** How a work request ended. Every posted request completes exactly once. */
public enum CompletionStatus {
    /** Done. */
    SUCCESS,
    /** An incoming Send was longer than the Receive's buffers. */
    LOCAL_LENGTH_ERROR,
    /** A local slice named an invalid region, or one without the right it needs. */
    LOCAL_PROTECTION_ERROR,
    /** The peer refused the access: invalid or invalidated STag, out of bounds, missing right. */
    REMOTE_ACCESS_ERROR,
    /** The peer failed the operation for another reason, or the peer sent a Terminate. */
    REMOTE_OPERATION_ERROR,
    /**
     * This side could not carry the request out: the bytes of its source, a file region
     * ({@link IwarpConnection#registerFile}), could not be read. The connection ends with it.
     */
    LOCAL_OPERATION_ERROR,
    /** The connection ended before the request could complete. */
    FLUSHED
}

package io.extsock.core.ddp;

/**
 * How DDP asks the layer above whether a receive buffer waits for an incoming untagged
 * message, without knowing who owns the buffers: RDMAP's Read Request and Terminate queues or
 * the verbs layer's posted receives (RFC 5041 section 5.1.2: DDP identifies the buffer by queue
 * number and MSN; how buffers are queued is outside DDP).
 *
 * <p>DDP asks once per message, when its first segment arrives, and never caches the answer
 * across messages. Implementations must not allocate: this runs for every received message.
 */
@FunctionalInterface
public interface UntaggedBufferLookup {

    /** The answer when no buffer is available for the message. */
    long NO_BUFFER = -1;

    /**
     * The capacity in octets of the buffer that message {@code messageSequenceNumber} on queue
     * {@code queueNumber} will consume, or {@link #NO_BUFFER}. A zero-length message still
     * consumes a buffer (RFC 5040 sections 5.2.1, 5.3 and 5.4), so zero is a valid capacity.
     */
    long bufferCapacity(int queueNumber, int messageSequenceNumber);
}

package io.extsock.core.ddp;

import static io.extsock.core.ddp.DdpConstants.INITIAL_MSN;
import static io.extsock.core.ddp.DdpConstants.MAX_MESSAGE_LENGTH;
import static io.extsock.core.ddp.DdpConstants.QUEUE_COUNT;

import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.util.Arrays;

/**
 * Receive-side bookkeeping of the untagged queues of one DDP stream direction: which message
 * each queue expects next, and how far the message in progress has come. Queues are
 * independent of each other and of tagged traffic, so segments of different queues and tagged
 * segments may arrive between the segments of a message.
 *
 * <p>Checks, in this order, with the RFC 5041 section 7.1 check and section 7.2 code each maps to:
 * <ol>
 *   <li>The MSN is the one the queue expects: MSNs start at 1 and grow by one per message,
 *       wrapping after 0xFFFFFFFF (section 4.3), and the LLP delivers messages in order
 *       (section 5.3). The legal range of check 5 starts at the oldest message not yet
 *       complete; an MSN outside it (an old, skipped or early one) is "invalid MSN, MSN range
 *       is not valid".</li>
 *   <li>A message's first segment has MO 0 (section 4.3) and every later segment continues
 *       where the previous one ended (section 5.2), else "invalid MO" (check 3).</li>
 *   <li>At the first segment, the layer above has a buffer for the queue and MSN, else
 *       "invalid MSN, no buffer available" (check 2).</li>
 *   <li>MO plus payload length stays within that buffer, else "DDP message too long for
 *       available buffer" (check 4).</li>
 * </ol>
 * Section 7.1 requires these checks for non-empty segments; they are applied to empty ones
 * too, because every RDMAP message on these queues consumes a buffer whatever its length
 * (RFC 5040 sections 5.2.1, 5.3 and 5.4). A rejected segment leaves the state untouched.
 */
public final class UntaggedMessageTracker {

    private final UntaggedBufferLookup buffers;
    private final int[] expectedMsn = new int[QUEUE_COUNT];
    private final boolean[] inProgress = new boolean[QUEUE_COUNT];
    private final long[] nextMessageOffset = new long[QUEUE_COUNT];
    private final long[] bufferCapacity = new long[QUEUE_COUNT];
    private long completedMessageLength = -1;

    public UntaggedMessageTracker(UntaggedBufferLookup buffers) {
        this.buffers = java.util.Objects.requireNonNull(buffers, "buffers");
        Arrays.fill(expectedMsn, INITIAL_MSN);
    }

    /**
     * Checks one parsed untagged segment against the queue's state and records it.
     *
     * @return true when the segment completes its message (its L bit); the message length, which
     *     DDP hands to the ULP on delivery (RFC 5041 section 5.4), is then
     *     {@link #completedMessageLength()}
     */
    public boolean accept(DdpSegmentHeader segment) throws ProtocolViolationException {
        if (segment.tagged()) {
            throw new IllegalArgumentException("not an untagged segment: " + segment);
        }
        int queue = segment.queueNumber();
        if (Integer.compareUnsigned(queue, QUEUE_COUNT) >= 0) {
            throw new ProtocolViolationException(TerminateCause.DDP_UNTAGGED_INVALID_QN,
                    "queue number " + Integer.toUnsignedString(queue) + " (RFC 5041 section 7.1 check 1)");
        }
        int msn = segment.messageSequenceNumber();
        long messageOffset = segment.messageOffset();
        int expected = expectedMsn[queue];
        if (msn != expected) {
            throw new ProtocolViolationException(TerminateCause.DDP_UNTAGGED_INVALID_MSN_RANGE,
                    "MSN " + Integer.toUnsignedString(msn) + " on queue " + queue + " where "
                            + (inProgress[queue] ? "message " + Integer.toUnsignedString(expected) + " is unfinished"
                                    : "MSN " + Integer.toUnsignedString(expected) + " is next")
                            + "; each message's MSN is one more than the last (RFC 5041 sections 4.3 and 7.1 check 5)");
        }
        long capacity;
        if (inProgress[queue]) {
            if (messageOffset != nextMessageOffset[queue]) {
                throw new ProtocolViolationException(TerminateCause.DDP_UNTAGGED_INVALID_MO,
                        "MO " + messageOffset + " in message " + Integer.toUnsignedString(msn) + " on queue " + queue
                                + ", which continues at MO " + nextMessageOffset[queue]
                                + " (RFC 5041 sections 5.2 and 7.1 check 3)");
            }
            capacity = bufferCapacity[queue];
        } else {
            if (messageOffset != 0) {
                throw new ProtocolViolationException(TerminateCause.DDP_UNTAGGED_INVALID_MO,
                        "first segment of message " + Integer.toUnsignedString(msn) + " on queue " + queue
                                + " has MO " + messageOffset + "; a message starts at MO 0"
                                + " (RFC 5041 sections 4.3 and 7.1 check 3)");
            }
            capacity = buffers.bufferCapacity(queue, msn);
            if (capacity < 0) {
                throw new ProtocolViolationException(TerminateCause.DDP_UNTAGGED_NO_BUFFER,
                        "no receive buffer for message " + Integer.toUnsignedString(msn) + " on queue " + queue
                                + " (RFC 5041 section 7.1 check 2)");
            }
        }
        long end = messageOffset + segment.payloadLength();
        if (end > capacity || end > MAX_MESSAGE_LENGTH) {
            throw new ProtocolViolationException(TerminateCause.DDP_UNTAGGED_MESSAGE_TOO_LONG,
                    "message " + Integer.toUnsignedString(msn) + " on queue " + queue + " reaches " + end
                            + " octets; its buffer holds " + Math.min(capacity, MAX_MESSAGE_LENGTH)
                            + " (RFC 5041 section 7.1 check 4)");
        }
        if (segment.last()) {
            expectedMsn[queue] = msn + 1;
            inProgress[queue] = false;
            nextMessageOffset[queue] = 0;
            completedMessageLength = end;
            return true;
        }
        inProgress[queue] = true;
        nextMessageOffset[queue] = end;
        bufferCapacity[queue] = capacity;
        completedMessageLength = -1;
        return false;
    }

    /**
     * Makes the queue expect {@code messageSequenceNumber} next, as if that many messages had
     * passed: lets tests reach the 2^32 wrap without sending four billion messages.
     */
    void skipTo(int queueNumber, int messageSequenceNumber) {
        expectedMsn[queueNumber] = messageSequenceNumber;
        inProgress[queueNumber] = false;
        nextMessageOffset[queueNumber] = 0;
    }

    /** The length of the message the last accepted segment completed, or -1 if it did not complete one. */
    public long completedMessageLength() {
        return completedMessageLength;
    }

    /** The MSN of the message in progress on the queue, or of the next one to start. */
    public int expectedMessageSequenceNumber(int queueNumber) {
        return expectedMsn[queueNumber];
    }

    public boolean messageInProgress(int queueNumber) {
        return inProgress[queueNumber];
    }
}

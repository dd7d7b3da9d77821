package io.extsock.core.ddp;

import static io.extsock.core.ddp.DdpConstants.INITIAL_MSN;
import static io.extsock.core.ddp.DdpConstants.QUEUE_COUNT;

/**
 * The MSNs a sender assigns on one DDP stream: one counter per untagged queue, starting at 1
 * and increasing by one per message, wrapping to 0 after 0xFFFFFFFF (RFC 5041 section 4.3).
 */
public final class MessageSequenceNumbers {

    private final int[] next = new int[QUEUE_COUNT];

    public MessageSequenceNumbers() {
        java.util.Arrays.fill(next, INITIAL_MSN);
    }

    /** The MSN for the next message on {@code queueNumber}; each call consumes one. */
    public int assign(int queueNumber) {
        checkQueue(queueNumber);
        return next[queueNumber]++;
    }

    /** The MSN the next message on {@code queueNumber} will get, without consuming it. */
    public int peek(int queueNumber) {
        checkQueue(queueNumber);
        return next[queueNumber];
    }

    private static void checkQueue(int queueNumber) {
        if (queueNumber < 0 || queueNumber >= QUEUE_COUNT) {
            throw new IllegalArgumentException("no such queue: " + queueNumber);
        }
    }
}

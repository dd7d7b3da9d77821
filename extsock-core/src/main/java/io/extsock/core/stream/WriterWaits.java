package io.extsock.core.stream;

import io.extsock.core.verbs.InlineWait;
import io.extsock.core.verbs.QueuePair;
import io.extsock.internal.InterruptShield;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.function.BooleanSupplier;

/**
 * What a stream's writer waits for: the peer's credits, a free send slot, TCP taking its bytes.
 * Each wait goes through the engine's, so that a blocked writer makes the connection progress
 * while it waits; each condition is read under the {@link StreamOutput}'s monitor.
 */
final class WriterWaits {

    private static final System.Logger LOG = System.getLogger(StreamOutput.class.getName());

    private final StreamOutput output;
    private final QueuePair queuePair;
    private final InlineWait waiting;
    /* Made once: a lambda or method reference made at the wait would be allocated on every wait. */
    private final BooleanSupplier canSend = this::canSend;
    private final BooleanSupplier dataSendSlotFree = this::dataSendSlotFree;
    private final BooleanSupplier dataSentOrClosed = this::dataSentOrClosed;

    WriterWaits(StreamOutput output, QueuePair queuePair, InlineWait waiting) {
        this.output = output;
        this.queuePair = queuePair;
        this.waiting = waiting;
    }

    /** A write found the peer's window spent: waits for its credits, sending what is posted meanwhile. */
    void forCredits() throws IOException {
        queuePair.transmitPosted();
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, "stream writer to " + queuePair.counters().peer()
                    + " blocked: waiting for credits (" + output.creditsNow() + " left, "
                    + PeerWindow.CREDITS_TO_SEND + " needed)");
        }
        interruptibleOnVirtual(canSend);
    }

    /** Waits until a DATA or FIN Send may spend a credit (or the stream failed or closed). */
    void forCreditToSend() throws IOException {
        interruptibleOnVirtual(canSend);
    }

    /** Enough DATA Sends are on their way: waits for TCP to take some, sending what is posted meanwhile. */
    void forSendSlot() throws IOException {
        queuePair.transmitPosted();
        interruptibleOnVirtual(dataSendSlotFree);
    }

    /** Waits until TCP has every DATA Send posted (they are handed over already: a Socket would not block here). */
    void untilDataSent() {
        waiting.awaitPromptly(dataSentOrClosed, 0, false);
    }

    /**
     * Waits for the condition; on a virtual thread an interrupt ends the wait with an
     * InterruptedIOException, as a Socket's write on a virtual thread (the socket then closes).
     */
    private void interruptibleOnVirtual(BooleanSupplier condition) throws IOException {
        boolean virtual = InterruptShield.currentIsVirtual();
        if (!waiting.awaitPromptly(condition, 0, virtual) && virtual && Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("interrupted while writing");
        }
    }

    private boolean canSend() {
        synchronized (output) {
            return output.canSendLocked();
        }
    }

    private boolean dataSendSlotFree() {
        synchronized (output) {
            return output.dataSendSlotFreeLocked();
        }
    }

    private boolean dataSentOrClosed() {
        synchronized (output) {
            return output.dataSentOrClosedLocked();
        }
    }
}

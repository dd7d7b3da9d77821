package io.extsock.core.stream;

import io.extsock.core.verbs.QueuePair;
import io.extsock.core.verbs.QueuePairClosedException;
import io.extsock.core.verbs.WorkCompleter;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.CompletionView;
import java.io.IOException;
import java.net.SocketException;
import java.nio.ByteBuffer;

/**
 * The stream's Sends on the queue pair: each DATA, CREDIT and FIN framed from its send buffers
 * with the credits the reader owes riding on it, and each one's completion taken back. The
 * state here is guarded by the {@link StreamOutput}'s monitor.
 *
 * <p>Whatever the peer sends, these Sends never fill the queue pair's send queue (posting would
 * throw on the receive path, where credit updates are posted): at most {@link
 * PeerWindow#MAX_DATA_SENDS_IN_FLIGHT} DATA Sends, one CREDIT ({@link CreditUpdates}) and one
 * FIN are posted and not yet handed to TCP at any time.
 */
final class StreamSends implements WorkCompleter {

    private final StreamOutput output;
    private final QueuePair queuePair;
    private final OutputStatus outputStatus;
    private final PeerWindow peerWindow;
    private final SmallWriteBatch batch;
    /** What each Send goes out from. */
    private final OutgoingSendBuffers sendBuffers = new OutgoingSendBuffers();
    private final CreditUpdates creditUpdates = new CreditUpdates();
    private StreamInput input;

    StreamSends(StreamOutput output, QueuePair queuePair, OutputStatus status, PeerWindow peerWindow,
                SmallWriteBatch batch) {
        this.output = output;
        this.queuePair = queuePair;
        this.outputStatus = status;
        this.peerWindow = peerWindow;
        this.batch = batch;
    }

    void connect(StreamInput input) {
        this.input = input;
    }

    /** Posts a Send of the header and, for DATA, octets {@code [off, off + len)} of {@code b}. */
    void post(int type, int flags, byte[] b, int off, int len, boolean transmitNow) throws IOException {
        int credits = input.takeCreditsToReturn();
        ByteBuffer header;
        ByteBuffer payload = null;
        int slot = -1;
        synchronized (output) {
            if (!outputStatus.failed()) {
                slot = sendBuffers.take(type, peerWindow.dataSendsOutstanding());
                header = sendBuffers.header(slot, type, flags, credits);
                if (b != null) {
                    payload = sendBuffers.payload(slot, b, off, len);
                }
            } else {
                header = OutgoingSendBuffers.detachedHeader(type, flags, credits);
                if (b != null) {
                    payload = OutgoingSendBuffers.detachedPayload(b, off, len);
                }
            }
        }
        try {
            queuePair.postInternalSend(header, payload, type, this, transmitNow);
        } catch (QueuePairClosedException e) {
            synchronized (output) {
                if (type == StreamHeader.DATA) {
                    peerWindow.dataSendRefused();
                    if (slot >= 0) {
                        sendBuffers.refused(slot);
                    }
                }
            }
            throw new SocketException(e.getMessage());
        }
    }

    /**
     * The reader owes the peer credits: sends them in a CREDIT message, now or when the CREDIT
     * on its way leaves. Never blocks and takes no write lock (a writer may be blocked waiting
     * for the peer's credits, and the peer for ours). With {@code transmitNow} false the CREDIT
     * waits for the transmit under way (called from our CREDIT's completion, inside it).
     */
    void sendCreditsSoon(boolean transmitNow) {
        if (!input.owesCredits()) {
            return;  // returned meanwhile, riding on a DATA Send
        }
        synchronized (output) {
            // Not stopped by our FIN: after a half-close the peer may go on writing to us.
            if (outputStatus.stopped() || !creditUpdates.startOrDefer()) {
                return;
            }
        }
        try {
            // Spends no credit: it goes into the buffer DATA and FIN leave (PeerWindow.RESERVE).
            post(StreamHeader.CREDIT, 0, null, 0, 0, transmitNow);
        } catch (IOException e) {
            // the connection ended; readers and writers see it
        }
    }

    /** Holding the output's monitor, as the peer returns credits: whether a CREDIT waited for them. */
    boolean creditUpdateWantedLocked() {
        return creditUpdates.takeWanted();
    }

    /** Holding the output's monitor, as the socket closes: the send buffers are not used again. */
    void forgetLocked() {
        sendBuffers.forget();
    }

    @Override
    public void complete(CompletionView completion) {
        // Copied out first: the record is reused once this call starts another completion.
        sent(completion.tag(), completion.status(), completion.detail());
    }

    /** One of our stream Sends left (or the connection ended). */
    private void sent(long tag, CompletionStatus status, String detail) {
        boolean deferredCredits = false;
        synchronized (output) {
            String reason = status == CompletionStatus.SUCCESS ? null : detail != null ? detail : status.toString();
            if (tag == StreamHeader.DATA) {
                batch.sendsCompletedThrough(peerWindow.dataSendCompleted());
            }
            if (tag == StreamHeader.CREDIT) {
                deferredCredits = creditUpdates.completed(reason == null);
            }
            if (reason != null) {
                outputStatus.sendFailed(tag == StreamHeader.DATA, reason);
            }
        }
        if (deferredCredits) {
            // Under the queue pair's lock here: posting takes it again (reentrant) and then the
            // reader's monitor (for the credits); the reader never takes the lock holding its own.
            sendCreditsSoon(false);  // the transmit that completed this one frames it next
        }
    }
}

package io.extsock.core.stream;

import io.extsock.core.verbs.InlineWait;
import io.extsock.core.verbs.QueuePair;
import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * When the {@link SmallWriteBatch} goes: as soon as credits come back (posted by whoever holds
 * the writing lock, so that the receive path never blocks), before a FIN (waiting for credits as
 * a write would), and before a close (waiting at most {@link #CLOSE_FLUSH_NANOS}). The batch is
 * guarded by the {@link StreamOutput}'s monitor; everything here but {@link #postSoon} runs
 * under its writing lock.
 */
final class BatchSending {

    private static final System.Logger LOG = System.getLogger(StreamOutput.class.getName());

    /**
     * How long closing waits for the peer to make room for the small writes still batched.
     * A Socket's close does not wait (the kernel sends its buffer afterwards), but here the
     * connection ends with the close; the wait is bounded because a close is also how one thread
     * ends another's stuck exchange. Past it the batch is dropped, and a warning says so.
     */
    static final long CLOSE_FLUSH_NANOS = 2_000_000_000L;

    private final StreamOutput output;
    private final ReentrantLock writing;
    private final OutputStatus status;
    private final PeerEnd peerEnd;
    private final SmallWriteBatch batch;
    private final PeerWindow peerWindow;
    private final StreamSends sends;
    private final QueuePair queuePair;
    private final InlineWait waiting;
    /** Credits came back while the batch held bytes: whoever holds or next takes the writing lock posts it. */
    private volatile boolean wanted;
    /** What a flush waits for, made once: a method reference made at the wait is allocated per wait. */
    private final BooleanSupplier canGo = this::canGo;

    BatchSending(StreamOutput output, ReentrantLock writing, OutputStatus status, PeerEnd peerEnd,
                 SmallWriteBatch batch, PeerWindow peerWindow, StreamSends sends, QueuePair queuePair,
                 InlineWait waiting) {
        this.output = output;
        this.writing = writing;
        this.status = status;
        this.peerEnd = peerEnd;
        this.batch = batch;
        this.peerWindow = peerWindow;
        this.sends = sends;
        this.queuePair = queuePair;
        this.waiting = waiting;
    }

    /** Whether credits came while the writing lock was held: its holder posts the batch as it lets go. */
    boolean wanted() {
        return wanted;
    }

    /**
     * Credits came back while small writes wait in the batch: posts it, here if nobody holds the
     * writing lock, else by its holder, who looks at {@link #wanted} as it lets go (a writer
     * waiting for credits finds them and posts the batch before its own bytes). Never blocks:
     * this runs on the receive path.
     */
    void postSoon() {
        wanted = true;
        while (wanted && writing.tryLock()) {
            try {
                wanted = false;
                postIfItCanGo();
            } catch (IOException e) {
                // the connection ended; writers see it
            } finally {
                writing.unlock();
            }
        }
    }

    /** Posts the batch if it holds bytes and a credit and a send slot are free. */
    void postIfItCanGo() throws IOException {
        byte[] octets;
        int length;
        synchronized (output) {
            if (batch.isEmpty() || status.stopped() || !output.canSendLocked()
                    || !output.dataSendSlotFreeLocked()) {
                return;
            }
            octets = batch.octets();
            length = batch.length();
            batch.posted(peerWindow.takeDataSend());
        }
        sends.post(StreamHeader.DATA, StreamHeader.WAITED, octets, 0, length, true);
    }

    /**
     * Sends what the batch holds, waiting for credits as a write would, at most {@code
     * timeoutNanos} (0: no limit), then waits until TCP has it.
     *
     * @return false if the time ran out first
     */
    boolean send(long timeoutNanos) throws IOException {
        long deadline = timeoutNanos > 0 ? System.nanoTime() + timeoutNanos : 0;
        while (true) {
            postIfItCanGo();
            synchronized (output) {
                if (status.stopped() || peerEnd.ended()) {
                    return true;  // nothing more goes out; the caller's next step says why
                }
                if (batch.isEmpty() && output.dataSentOrClosedLocked()) {
                    return true;
                }
            }
            queuePair.transmitPosted();
            long remaining = deadline == 0 ? 0 : deadline - System.nanoTime();
            if (deadline != 0 && remaining <= 0) {
                return false;
            }
            if (!waiting.awaitPromptly(canGo, remaining, false) && (deadline == 0 || deadline - System.nanoTime() > 0)) {
                return true;  // the connection ended without it: nothing more goes out
            }
        }
    }

    /** Whether the batch can go now, or has gone, or nothing more will go. */
    private boolean canGo() {
        synchronized (output) {
            if (peerEnd.ended()) {
                return true;
            }
            return batch.isEmpty() ? output.dataSentOrClosedLocked()
                    : output.canSendLocked() && output.dataSendSlotFreeLocked();
        }
    }

    /**
     * Before the socket closes: the small writes still batched go out, if the peer makes room
     * for them within {@link #CLOSE_FLUSH_NANOS}. Not while a writer is blocked in a write: the
     * close ends that write, as a Socket's close does.
     */
    void sendBeforeClose() {
        if (!writing.tryLock()) {
            return;
        }
        try {
            if (!send(CLOSE_FLUSH_NANOS)) {
                int dropped;
                synchronized (output) {
                    dropped = batch.length();
                }
                LOG.log(System.Logger.Level.WARNING, "closed the stream to " + queuePair.counters().peer() + " with "
                        + dropped + " written bytes unsent: the peer made no room for them in "
                        + CLOSE_FLUSH_NANOS / 1_000_000_000 + " s");
            }
        } catch (IOException e) {
            // the connection ended: nothing more goes out
        } finally {
            writing.unlock();
        }
    }
}

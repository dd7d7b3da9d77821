package io.extsock.core.stream;

import io.extsock.core.verbs.InlineWait;
import io.extsock.core.verbs.QueuePair;
import io.extsock.internal.SocketErrors;
import java.io.IOException;
import java.net.SocketException;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The sending half of an IWARP_MODE socket's stream: each write becomes Sends of at most the
 * peer's buffer size, each spending one credit (a receive buffer the peer posted). Data needs
 * two credits, so that the last one is always left for a credit update or FIN: neither side
 * can end up waiting for credits the other cannot send.
 *
 * <p>The application's array goes into the gathering write as it is (no copy of our own), so
 * {@link #write} returns only when the engine has handed every byte to TCP, as a blocking
 * socket write does. Except for small writes while half the peer's window or more is spent:
 * those are copied into a {@link SmallWriteBatch} and return at once, as a socket write returns
 * once its bytes are in TCP's send buffer; the batch goes out as one Send when credits come back
 * or when it is full, before anything written after it. Shutting output down sends it first;
 * closing gives it {@link BatchSending#CLOSE_FLUSH_NANOS} to go ({@link BatchSending}).
 *
 * <p>Its parts, which share this object's monitor: the peer's window ({@link PeerWindow}), the
 * answers once the peer ended TCP ({@link PeerEnd}), its Sends ({@link StreamSends}).
 */
final class StreamOutput {

    /**
     * The longest write copied into the {@link SmallWriteBatch} when credits run low: small
     * writes, for which a Send each would waste the peer's buffers, not bulk ones, which fill
     * them and must not pay a copy. As long as what the receiving end copies behind unread bytes
     * ({@link FilledBuffers#MAX_APPENDED}): a {@code BufferedOutputStream}'s flushes are batched.
     */
    static final int MAX_BATCHED_WRITE = FilledBuffers.MAX_APPENDED;

    private final QueuePair queuePair;
    /** The engine's wait: a blocked writer makes the connection progress while it waits. */
    private final InlineWait waiting;
    private final WriterWaits waits;
    private final int maxPayload;
    private final ReentrantLock writing = new ReentrantLock();
    /** The write under way; guarded by {@link #writing}. */
    private final WriteProgress progress = new WriteProgress();
    /** Guarded by this object's monitor, as are the next two and {@link #status}. */
    private final PeerWindow peerWindow;
    /** Small writes made while credits ran low, waiting to go together. */
    private final SmallWriteBatch batch;
    private final PeerEnd peerEnd = new PeerEnd();
    private final StreamSends sends;
    private final BatchSending batchSending;
    /**
     * The longest write batched here: {@link #MAX_BATCHED_WRITE}, or half a batch where the
     * peer's buffers are small (a write that fills a Send of its own gains nothing from it).
     */
    private final int mostBatched;
    private final OutputStatus status = new OutputStatus();
    private final Runnable closeConnection;

    /**
     * @param closeConnection closes the connection at once, for a peer that breaks the stream
     *     protocol ({@link #peerViolated})
     */
    StreamOutput(QueuePair queuePair, InlineWait waiting, int peerReceiveBuffers, int peerBufferSize,
                 Runnable closeConnection) {
        this.queuePair = queuePair;
        this.waiting = waiting;
        this.closeConnection = closeConnection;
        this.peerWindow = new PeerWindow(peerReceiveBuffers);
        this.maxPayload = peerBufferSize - StreamHeader.LENGTH;
        int batchCapacity = Math.min(maxPayload, IwarpStream.BUFFER_DATA);
        this.batch = new SmallWriteBatch(batchCapacity);
        this.mostBatched = Math.min(MAX_BATCHED_WRITE, batchCapacity / 2);
        this.sends = new StreamSends(this, queuePair, status, peerWindow, batch);
        this.waits = new WriterWaits(this, queuePair, waiting);
        this.batchSending = new BatchSending(this, writing, status, peerEnd, batch, peerWindow, sends, queuePair, waiting);
    }

    void connect(StreamInput input) {
        sends.connect(input);
    }

    /**
     * Writes all bytes, blocking while the peer has no buffer for them.
     *
     * <p>The monitor is taken once per chunk to decide and take what it needs, and once at the
     * end, in the common case: each turn of it costs about as much as a memory copy of the whole
     * of a small message.
     */
    void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        writing.lock();
        try {
            // Only a small write waits in the batch while credits are merely low: a large one's
            // tail would wait there for credits its own Sends had spent. It waits only when the
            // window is full, so the Send before it went out (a Send is held for the next only
            // while credits remain, and they only grow while we hold the writing lock).
            WriteProgress write = progress.start(b, off, len, len <= mostBatched);
            while (write.len > 0) {
                WriteProgress.Step step = awaitNextStep(write);
                if (step == WriteProgress.Step.ENDED) {
                    return;
                }
                if (step == WriteProgress.Step.BATCHED) {
                    break;
                }
                if (step == WriteProgress.Step.BATCH_FIRST) {
                    batchSending.postIfItCanGo();
                    continue;  // then this write's own bytes
                }
                if (sendChunkEnds(write)) {
                    return;
                }
            }
            awaitArrayHandedToTcp(write);
        } finally {
            progress.end();
            writing.unlock();
            if (batchSending.wanted()) {
                batchSending.postSoon();  // credits came while we held the lock, and we may not have seen them
            }
        }
    }

    /** Decides the write's next step, waiting for credits or a send slot until it can take one. */
    private WriteProgress.Step awaitNextStep(WriteProgress write) throws IOException {
        write.nextChunk();
        while (true) {
            WriteProgress.Step step;
            synchronized (this) {
                step = nextStepLocked(write);
            }
            if (step == WriteProgress.Step.AWAIT_CREDITS) {
                waits.forCredits();
                write.waitedForCredits();
            } else if (step == WriteProgress.Step.AWAIT_SEND_SLOT) {
                waits.forSendSlot();
            } else {
                return step;
            }
        }
    }

    /**
     * Holding the monitor: what the write does next. Batching or sending, it first answers a
     * peer that ended the connection, as TCP would; sending, it takes the chunk's credit.
     */
    private WriteProgress.Step nextStepLocked(WriteProgress write) throws SocketException {
        if (write.firstLook()) {
            if (status.shut() && !status.closed()) {
                // As TCP after shutdown(SHUT_WR): EPIPE, the connection itself unharmed.
                throw SocketErrors.brokenPipe(null);
            }
            if (peerGoneLocked()) {
                peerEnd.answerWrite();
                return WriteProgress.Step.ENDED;
            }
        }
        boolean creditsShort = !canSendLocked();
        if (belongsInBatchLocked(write, creditsShort)) {
            if (peerEndedLocked(write.leftUnreadIfPeerEnds)) {
                return WriteProgress.Step.ENDED;
            }
            if (batch.isEmpty()) {
                waiting.progressWhileIdle();  // the batch goes when the peer's credits come, which someone must read
            }
            batch.add(write.bytes, write.off, write.len);
            return WriteProgress.Step.BATCHED;
        }
        if (creditsShort) {
            return WriteProgress.Step.AWAIT_CREDITS;
        }
        if (!dataSendSlotFreeLocked()) {
            return WriteProgress.Step.AWAIT_SEND_SLOT;
        }
        if (peerEndedLocked(write.leftUnreadIfPeerEnds)) {
            return WriteProgress.Step.ENDED;
        }
        if (!batch.isEmpty()) {
            return WriteProgress.Step.BATCH_FIRST;
        }
        peerWindow.takeDataSend();
        write.chunk = Math.min(write.len, maxPayload);
        // Hold the transmit while more chunks can follow at once: one gathering write.
        write.moreFollows = write.len > write.chunk && peerWindow.moreCanFollowAtOnce();
        return WriteProgress.Step.SEND_CHUNK;
    }

    /** Holding the monitor: whether the rest of the write is copied into the batch rather than sent. */
    private boolean belongsInBatchLocked(WriteProgress write, boolean creditsShort) {
        return (creditsShort || write.small && peerWindow.low()) && write.len <= mostBatched
                && batch.hasRoomFor(write.len);
    }

    /**
     * Posts the chunk taken as a DATA Send from the application's array.
     *
     * @return whether the write ends here, quietly: the peer ended the connection first
     */
    private boolean sendChunkEnds(WriteProgress write) throws IOException {
        try {
            sends.post(StreamHeader.DATA, write.chunkFlags, write.bytes, write.off, write.chunk, !write.moreFollows);
        } catch (SocketException ended) {
            synchronized (this) {
                // The peer ended the connection between the decision and the post: answer as
                // the decision would have (the peer's end is recorded before posts are refused).
                if (peerEnd.ended() && peerEndedLocked(write.leftUnreadIfPeerEnds)) {
                    return true;
                }
            }
            throw ended;
        }
        write.chunkSent();
        return false;
    }

    /**
     * The array must not be used after we return: waits until TCP has every byte sent from it.
     * Like a TCP write, this one succeeded once its bytes went out, even if the connection ended
     * just after (a credit update behind them may then be flushed: not this write's loss).
     * Inline transmission has usually sent them already: then no wait.
     */
    private void awaitArrayHandedToTcp(WriteProgress write) throws SocketException {
        synchronized (this) {
            if (!write.fromArray || dataSentOrClosedLocked()) {
                afterDataSent(write.leftUnreadIfPeerEnds);
                return;
            }
        }
        waits.untilDataSent();
        synchronized (this) {
            afterDataSent(write.leftUnreadIfPeerEnds);
        }
    }

    /** Holding the monitor, once this write's bytes went out: its outcome. */
    private void afterDataSent(boolean leftUnreadIfPeerEnds) throws SocketException {
        if (status.closed()) {
            throw new SocketException("Socket closed");
        }
        if (status.dataFailure() != null) {
            if (peerEnd.ended()) {
                // TCP took the bytes; the peer's end then decides, as for the first
                // write after it: accepted after an orderly close, reset otherwise.
                peerEndedLocked(leftUnreadIfPeerEnds);
                return;
            }
            throw new SocketException(status.dataFailure());
        }
    }

    /** Octets of small writes waiting in the batch for credits. */
    synchronized int batchedOctets() {
        return batch.length();
    }

    /** Ends this side's output: a FIN after everything written so far. */
    void shutdown() throws IOException {
        writing.lock();
        try {
            synchronized (this) {
                if (status.shut()) {
                    return;
                }
            }
            batchSending.send(0);  // every byte written goes before the FIN
            waits.forCreditToSend();
            synchronized (this) {
                if (peerGoneLocked()) {
                    // As on TCP, where shutting down output after the peer's FIN or reset still
                    // succeeds: the peer is gone, so there is nobody left to tell.
                    status.shutDown();
                    return;
                }
                status.requireOpen();
                peerWindow.takeFin();
                status.shutDown();
            }
            try {
                sends.post(StreamHeader.FIN, 0, null, 0, 0, true);
            } catch (SocketException e) {
                synchronized (this) {
                    if (peerGoneLocked()) {
                        // The peer's close came between the check and the post (the stream is
                        // marked ended before posts are refused): the same case, the same success.
                        return;
                    }
                }
                throw e;
            }
        } finally {
            writing.unlock();
        }
    }

    /** Holding the monitor: the peer closed or reset TCP, and this socket is still open. */
    private boolean peerGoneLocked() {
        return peerEnd.ended() && !status.closed();
    }

    /** Holding the monitor, before sending: whether the write ends quietly; throws where it fails. */
    private boolean peerEndedLocked(boolean bytesLeftUnread) throws SocketException {
        return peerEnd.endsWrite(bytesLeftUnread, status);
    }

    /** Credits this writer holds now. */
    synchronized int creditsNow() {
        return peerWindow.credits();
    }

    /**
     * How many octets a write takes now without waiting for the peer (a non-blocking channel's
     * write takes no more): one chunk when credits and a Send are free and nothing waits in the
     * batch before it, else what the batch has room for when a small write would go there; none
     * otherwise. A write that would fail at once (shut down, stopped, the peer gone) counts as
     * taking any length, since it does not wait either.
     */
    synchronized int writableOctets() {
        if (status.shut() || status.stopped() || peerGoneLocked()) {
            return Integer.MAX_VALUE;
        }
        if (batch.isEmpty() && canSendLocked() && !peerWindow.low() && dataSendSlotFreeLocked()) {
            return maxPayload;
        }
        if (!canSendLocked() || peerWindow.low()) {
            return batch.room(mostBatched);
        }
        return 0;
    }

    /** Credits the peer returned since the stream started. */
    synchronized long creditsReceived() {
        return peerWindow.creditsReceived();
    }

    /** Holding the monitor: whether a DATA or FIN Send may go (or waiting for one is over: the stream failed or closed). */
    boolean canSendLocked() {
        return peerWindow.canSend() || status.stopped();
    }

    /** Whether a DATA Send may be posted (or waiting for a slot is over: the stream failed or closed). */
    boolean dataSendSlotFreeLocked() {
        return peerWindow.sendSlotFree() || status.stopped();
    }

    /** Whether TCP has every DATA Send posted (or the socket closed). */
    boolean dataSentOrClosedLocked() {
        return peerWindow.allDataSent() || status.closed();
    }

    /** The peer posted buffers again. */
    void creditsReturned(int count) {
        boolean owed = false;
        boolean batched = false;
        String refused;
        synchronized (this) {
            refused = peerWindow.violation(count);
            if (refused == null) {
                peerWindow.returned(count);
                owed = sends.creditUpdateWantedLocked();
                batched = !batch.isEmpty();
            }
        }
        if (refused != null) {
            peerViolated("the peer broke extsock's stream protocol: " + refused);
            return;
        }
        if (batched) {
            batchSending.postSoon();  // its Send returns what we owe, if it goes now
        }
        if (owed) {
            sendCreditsSoon();
        }
    }

    /** What is wrong with the peer returning {@code count} credits now, or null ({@link PeerWindow#violation}). */
    synchronized String creditsViolation(int count) {
        return peerWindow.violation(count);
    }

    /**
     * The peer broke the stream protocol ({@code reason} names the field and its value): the
     * stream fails with the reason, and the connection ends at once (its requests flush, TCP
     * closes), as TCP ends a connection whose peer breaks TCP. A writer waiting for credits,
     * and a reader waiting for data, see the reason.
     */
    void peerViolated(String reason) {
        synchronized (this) {
            status.fail(reason);
        }
        queuePair.connectionLost(reason);
        closeConnection.run();
        waiting.wakeWaiters();
    }

    /** The reader owes the peer credits: they go in a CREDIT message ({@link StreamSends#sendCreditsSoon}). */
    void sendCreditsSoon() {
        sends.sendCreditsSoon(true);
    }

    /** Before the socket closes: the small writes still batched go out, if the peer makes room in time. */
    void sendBatchBeforeClose() {
        batchSending.sendBeforeClose();
    }

    /**
     * The connection ended; {@code peerClosed}: because the peer closed TCP in order;
     * {@code reset}: because it reset TCP.
     */
    synchronized void ended(boolean peerClosed, boolean reset, String reason) {
        peerEnd.ended(peerClosed, reset);
        status.fail(reason);
    }

    synchronized void close() {
        status.close();
        sends.forgetLocked();
    }
}

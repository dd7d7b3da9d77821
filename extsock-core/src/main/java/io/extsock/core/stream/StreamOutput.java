package io.extsock.core.stream;

import io.extsock.core.verbs.InlineWait;
import io.extsock.core.verbs.QueuePair;
import io.extsock.core.verbs.QueuePairClosedException;
import io.extsock.core.verbs.WorkCompleter;
import io.extsock.internal.InterruptShield;
import io.extsock.internal.SocketErrors;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.CompletionView;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

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
 * closing gives it {@link #CLOSE_FLUSH_NANOS} to go.
 *
 * <p>Whatever the peer sends, the stream's own Sends never fill the queue pair's send queue
 * (posting would throw on the receive path, where credit updates are posted): at most {@link
 * #MAX_DATA_SENDS_IN_FLIGHT} DATA Sends, one CREDIT Send (updates wanted meanwhile go out in
 * one when it leaves) and one FIN are posted and not yet handed to TCP at any time.
 */
final class StreamOutput implements WorkCompleter {

    private static final System.Logger LOG = System.getLogger(StreamOutput.class.getName());

    private final QueuePair queuePair;
    /** The engine's wait: a blocked writer makes the connection progress while it waits. */
    private final InlineWait waiting;
    private final int maxPayload;
    private final ReentrantLock writing = new ReentrantLock();
    /** What each Send goes out from; guarded by this object's monitor. */
    private final OutgoingSendBuffers sendBuffers = new OutgoingSendBuffers();
    private StreamInput input;

    /**
     * The most receive buffers a peer can have posted for our stream: what a receive queue
     * holds ({@link IwarpStream#MAX_PEER_RECEIVE_BUFFERS}; an extsock peer posts at most {@link
     * IwarpStream#MAX_RECEIVE_BUFFERS}). A peer that returns more credits than that breaks the
     * protocol.
     */
    static final int MAX_PEER_CREDITS = IwarpStream.MAX_PEER_RECEIVE_BUFFERS;

    /**
     * Credits DATA and FIN leave unspent: the peer's buffer that our CREDIT messages go into.
     * A CREDIT spends no credit of its own; the peer posts its buffer again at once and does not
     * count it as one to return. So an end can always return what it owes, whatever it holds.
     * Before, a CREDIT spent a credit, and its buffer came back as one more credit to return: an
     * end that spent its last on a CREDIT could then say nothing until the peer returned some,
     * and a peer whose own writer waited (owing fewer than the half window that prompts a
     * CREDIT, its application reading nothing until its write went through) never did. The
     * demo's stream echo once hung so for good: the client with no credit and 15 owed, the
     * server with one credit, two owed, and a writer that needed two.
     */
    static final int RESERVE = 1;

    /** Credits a DATA or FIN Send needs before it goes: its own and the {@link #RESERVE}. */
    private static final int CREDITS_TO_SEND = 1 + RESERVE;

    /**
     * DATA Sends posted and not yet handed to TCP, at most: a quarter of the send queue, which
     * leaves room for the CREDIT and the FIN and for the application's own Writes and Reads. A
     * writer with more credits than that waits for TCP to take what it posted, as a socket
     * write waits for room in the send buffer (64 KiB each: 8 MiB, more than TCP takes at once).
     */
    static final int MAX_DATA_SENDS_IN_FLIGHT = QueuePair.SEND_QUEUE_DEPTH / 4;

    /**
     * The longest write copied into the {@link SmallWriteBatch} when credits run low: small
     * writes, for which a Send each would waste the peer's buffers, not bulk ones, which fill
     * them and must not pay a copy. As long as what the receiving end copies behind unread bytes
     * ({@link StreamInput#MAX_APPENDED}): a {@code BufferedOutputStream}'s flushes are batched.
     */
    static final int MAX_BATCHED_WRITE = StreamInput.MAX_APPENDED;

    /**
     * How long closing waits for the peer to make room for the small writes still batched.
     * A Socket's close does not wait (the kernel sends its buffer afterwards), but here the
     * connection ends with the close; the wait is bounded because a close is also how one thread
     * ends another's stuck exchange. Past it the batch is dropped, and a warning says so.
     */
    static final long CLOSE_FLUSH_NANOS = 2_000_000_000L;

    private int credits;
    /** The most credits this writer has held at once: the peer's window, as far as we can know it. */
    private int window;
    /** DATA Sends not yet completed, and why one of them failed: what decides a write's fate. */
    private int dataSendsOutstanding;
    /** DATA Sends posted and completed since the start: which one carries the batch, and when it left. */
    private long dataSendsPosted;
    private long dataSendsCompleted;
    /** Small writes made while credits ran low, waiting to go together; guarded by this monitor. */
    private final SmallWriteBatch batch;
    /**
     * The longest write batched here: {@link #MAX_BATCHED_WRITE}, or half a batch where the
     * peer's buffers are small (a write that fills a Send of its own gains nothing from it).
     */
    private final int mostBatched;
    /**
     * Credits came back while the batch held bytes: whoever holds or next takes {@link #writing}
     * posts it ({@link #postBatchSoon}).
     */
    private volatile boolean batchWanted;
    private String dataFailure;
    private boolean creditUpdateWanted;
    /** A CREDIT Send is posted and not yet handed to TCP: the next update waits for it. */
    private boolean creditSendOutstanding;
    private boolean finSent;
    private String failure;
    private boolean peerClosed;
    private boolean peerReset;
    /** A write came after the peer closed or reset TCP (the next one fails, as TCP's would). */
    private boolean writeAfterPeerEnded;
    private boolean closed;
    private final Runnable closeConnection;
    /*
     * The conditions writers wait for, made once: a lambda or method reference made at the wait
     * would be allocated on every wait.
     */
    private final BooleanSupplier canSend = this::canSend;
    private final BooleanSupplier dataSendSlotFree = this::dataSendSlotFree;
    private final BooleanSupplier dataSentOrClosed = this::dataSentOrClosed;
    private final BooleanSupplier batchCanGo = this::batchCanGo;

    /**
     * @param closeConnection closes the connection at once, for a peer that breaks the stream
     *     protocol ({@link #peerViolated})
     */
    StreamOutput(QueuePair queuePair, InlineWait waiting, int peerReceiveBuffers, int peerBufferSize,
                 Runnable closeConnection) {
        this.queuePair = queuePair;
        this.waiting = waiting;
        this.closeConnection = closeConnection;
        this.credits = peerReceiveBuffers;
        this.window = peerReceiveBuffers;
        this.maxPayload = peerBufferSize - StreamHeader.LENGTH;
        int batchCapacity = Math.min(maxPayload, IwarpStream.BUFFER_DATA);
        this.batch = new SmallWriteBatch(batchCapacity);
        this.mostBatched = Math.min(MAX_BATCHED_WRITE, batchCapacity / 2);
    }

    void connect(StreamInput input) {
        this.input = input;
    }

    /**
     * Writes all bytes, blocking while the peer has no buffer for them.
     *
     * <p>The monitor is taken once per chunk to check and take what it needs, and once at the
     * end, in the common case: each turn of it costs about as much as a memory copy of the whole
     * of a small message, and a write of 64 bytes took seven.
     */
    void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        writing.lock();
        try {
            // Whether a peer ending now leaves bytes of this write unread (see peerEndedUnderWrite):
            // once the peer's window held it up (its application then had our bytes unread), or
            // once part of it went out (the rest cannot follow).
            boolean leftUnreadIfPeerEnds = false;
            boolean first = true;
            // Whether a Send of this write went out of the application's array (then it must
            // have left before we return); batched octets were copied.
            boolean fromArray = false;
            // Only a small write waits in the batch while credits are merely low: the tail of a
            // large one, batched, waited there for credits its own first Sends had spent, and
            // halved pinned 64 KiB stream bandwidth (1.41x plain TCP to 0.69x, IwarpOverhead).
            // A large write's tail waits only when the window is full, so the Send before it went
            // out (a Send is held for the next only while credits remain, and they only grow
            // while we hold the writing lock).
            boolean smallWrite = len <= mostBatched;
            while (len > 0) {
                int chunk = 0;
                boolean more = false;
                int flags = 0;
                boolean batchFirst = false;
                while (true) {
                    boolean creditsShort;
                    synchronized (this) {
                        if (first) {
                            first = false;
                            if (finSent && !closed) {
                                // As TCP after shutdown(SHUT_WR): EPIPE, the connection itself unharmed.
                                throw SocketErrors.brokenPipe(null);
                            }
                            if (peerGoneLocked()) {
                                writeAfterPeerEnded();
                                return;
                            }
                        }
                        creditsShort = !canSendLocked();
                        if ((creditsShort || smallWrite && creditsLowLocked()) && len <= mostBatched
                                && batch.hasRoomFor(len)) {
                            if (peerEnded(leftUnreadIfPeerEnds)) {
                                return;
                            }
                            if (batch.isEmpty()) {
                                // The batch goes when the peer's credits come, which someone must read.
                                waiting.progressWhileIdle();
                            }
                            batch.add(b, off, len);
                            break;
                        }
                        if (!creditsShort && dataSendSlotFreeLocked()) {
                            if (peerEnded(leftUnreadIfPeerEnds)) {
                                return;
                            }
                            if (!batch.isEmpty()) {
                                batchFirst = true;  // earlier writes' bytes wait in the batch: they go first
                                break;
                            }
                            takeDataSendLocked();
                            chunk = Math.min(len, maxPayload);
                            // Hold the transmit while more chunks can follow at once: one gathering write.
                            more = len > chunk && credits >= CREDITS_TO_SEND && dataSendsOutstanding < MAX_DATA_SENDS_IN_FLIGHT;
                            break;
                        }
                    }
                    queuePair.transmitPosted();  // what is posted goes out while we wait (TCP's taking it frees slots)
                    if (creditsShort) {
                        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
                            LOG.log(System.Logger.Level.DEBUG, "stream writer to " + queuePair.counters().peer()
                                    + " blocked: waiting for credits (" + creditsNow() + " left, " + CREDITS_TO_SEND + " needed)");
                        }
                        awaitInterruptibleOnVirtual(canSend);
                        flags = StreamHeader.WAITED;  // the peer's window held us up: it may widen it
                        leftUnreadIfPeerEnds = true;
                    } else {
                        awaitInterruptibleOnVirtual(dataSendSlotFree);
                    }
                }
                if (batchFirst) {
                    postBatchIfItCanGo();
                    continue;  // then this write's own bytes
                }
                if (chunk == 0) {
                    break;  // the rest of this write is in the batch
                }
                fromArray = true;
                try {
                    post(StreamHeader.DATA, flags, b, off, chunk, !more);
                } catch (SocketException ended) {
                    synchronized (this) {
                        // The peer ended the connection between the check above and the post:
                        // answer as that check would have (its flags are set before the end).
                        if ((peerClosed || peerReset) && peerEnded(leftUnreadIfPeerEnds)) {
                            return;
                        }
                    }
                    throw ended;
                }
                off += chunk;
                len -= chunk;
                // Only if more follows: a write whose one chunk was flushed unsent because the
                // peer's FIN came first is a write after the peer's orderly close, which TCP
                // accepts. It failed with "Connection reset by peer" (the state matrix's
                // WRITE_INT when PEER_CLOSED, about one run in five).
                leftUnreadIfPeerEnds |= len > 0;
            }
            // The array must not be used after we return: wait until TCP has every byte. Like a
            // TCP write, this one succeeded once its bytes went out, even if the connection ended
            // just after (a credit update behind them may then be flushed: not this write's loss).
            // Inline transmission has usually sent them already: then no wait.
            synchronized (this) {
                if (!fromArray || dataSentOrClosedLocked()) {
                    afterDataSent(leftUnreadIfPeerEnds);
                    return;
                }
            }
            waiting.awaitPromptly(dataSentOrClosed, 0, false);  // handed over already: a Socket would not block here
            synchronized (this) {
                afterDataSent(leftUnreadIfPeerEnds);
            }
        } finally {
            writing.unlock();
            if (batchWanted) {
                postBatchSoon();  // credits came while we held the lock, and we may not have seen them
            }
        }
    }

    /** Octets of small writes waiting in the batch for credits. */
    synchronized int batchedOctets() {
        return batch.length();
    }

    /**
     * Holding the monitor: whether half the peer's window or more is spent, so that small writes
     * wait in the batch, to go together when credits come back, rather than spend the rest a
     * credit each (each credit is a whole buffer of the peer's, whatever a Send carries). Safe
     * from deadlock: the peer returns credits once half its buffers are read out ({@link
     * StreamInput}), and with at most half our credits left, reading what it holds gets it there.
     */
    private boolean creditsLowLocked() {
        return credits <= window / 2;
    }

    /** Holding the monitor, with a credit and a send slot free: takes them for a DATA Send; its number. */
    private long takeDataSendLocked() {
        credits--;
        dataSendsOutstanding++;
        return ++dataSendsPosted;
    }

    /**
     * Credits came back while small writes wait in the batch: posts it, here if nobody holds
     * {@link #writing}, else by its holder, who looks at {@link #batchWanted} as it lets go (a
     * writer waiting for credits finds them and posts the batch before its own bytes). Never
     * blocks: this runs on the receive path.
     */
    private void postBatchSoon() {
        batchWanted = true;
        while (batchWanted && writing.tryLock()) {
            try {
                batchWanted = false;
                postBatchIfItCanGo();
            } catch (IOException e) {
                // the connection ended; writers see it
            } finally {
                writing.unlock();
            }
        }
    }

    /** Holding {@link #writing}: posts the batch if it holds bytes and a credit and a send slot are free. */
    private void postBatchIfItCanGo() throws IOException {
        byte[] octets;
        int length;
        synchronized (this) {
            if (batch.isEmpty() || failure != null || closed || !canSendLocked() || !dataSendSlotFreeLocked()) {
                return;
            }
            octets = batch.octets();
            length = batch.length();
            batch.posted(takeDataSendLocked());
        }
        post(StreamHeader.DATA, StreamHeader.WAITED, octets, 0, length, true);
    }

    /**
     * Holding {@link #writing}: sends what the batch holds, waiting for credits as a write
     * would, at most {@code timeoutNanos} (0: no limit), then waits until TCP has it.
     *
     * @return false if the time ran out first
     */
    private boolean sendBatch(long timeoutNanos) throws IOException {
        long deadline = timeoutNanos > 0 ? System.nanoTime() + timeoutNanos : 0;
        while (true) {
            postBatchIfItCanGo();
            synchronized (this) {
                if (failure != null || closed || peerClosed || peerReset) {
                    return true;  // nothing more goes out; the caller's next step says why
                }
                if (batch.isEmpty() && dataSentOrClosedLocked()) {
                    return true;
                }
            }
            queuePair.transmitPosted();
            long remaining = deadline == 0 ? 0 : deadline - System.nanoTime();
            if (deadline != 0 && remaining <= 0) {
                return false;
            }
            if (!waiting.awaitPromptly(batchCanGo, remaining, false) && (deadline == 0 || deadline - System.nanoTime() > 0)) {
                return true;  // the connection ended without it: nothing more goes out
            }
        }
    }

    /** Whether the batch can go now, or has gone, or nothing more will go. */
    private synchronized boolean batchCanGo() {
        if (peerClosed || peerReset) {
            return true;
        }
        return batch.isEmpty() ? dataSentOrClosedLocked() : canSendLocked() && dataSendSlotFreeLocked();
    }

    /** Holding the monitor, once this write's bytes went out: its outcome. */
    private void afterDataSent(boolean leftUnreadIfPeerEnds) throws SocketException {
        if (closed) {
            throw new SocketException("Socket closed");
        }
        if (dataFailure != null) {
            if (peerReset || peerClosed) {
                // TCP took the bytes; the peer's end then decides, as for the first
                // write after it: accepted after an orderly close, reset otherwise.
                peerEnded(leftUnreadIfPeerEnds);
                return;
            }
            throw new SocketException(dataFailure);
        }
    }

    /** Ends this side's output: a FIN after everything written so far. */
    void shutdown() throws IOException {
        writing.lock();
        try {
            synchronized (this) {
                if (finSent) {
                    return;
                }
            }
            sendBatch(0);  // every byte written goes before the FIN
            awaitInterruptibleOnVirtual(canSend);
            synchronized (this) {
                if (peerGoneLocked()) {
                    // As on TCP, where shutting down output after the peer's FIN or reset still
                    // succeeds: the peer is gone, so there is nobody left to tell.
                    finSent = true;
                    return;
                }
                requireOpen();
                credits--;
                finSent = true;
            }
            try {
                post(StreamHeader.FIN, 0, null, 0, 0, true);
            } catch (SocketException e) {
                synchronized (this) {
                    if (peerGoneLocked()) {
                        // The peer's close was processed between the check above and the post
                        // (the engine marks the stream ended before it refuses posts): the same
                        // case, the same success.
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
        return (peerClosed || peerReset) && !closed;
    }

    /** Credits this writer holds now. */
    synchronized int creditsNow() {
        return credits;
    }

    /**
     * Waits for the condition; on a virtual thread an interrupt ends the wait with an
     * InterruptedIOException, as a Socket's write on a virtual thread (the socket then closes).
     */
    private void awaitInterruptibleOnVirtual(BooleanSupplier condition) throws IOException {
        boolean virtual = InterruptShield.currentIsVirtual();
        if (!waiting.awaitPromptly(condition, 0, virtual) && virtual && Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("interrupted while writing");
        }
    }

    /**
     * Whether a write of one byte returns without waiting for the peer: it may go now (credits
     * and a Send free), or wait in the batch, or it fails at once.
     */
    synchronized boolean writableWithoutWaiting() {
        boolean batchTakesIt = (!canSendLocked() || creditsLowLocked()) && batch.hasRoomFor(1);
        return canSendLocked() && dataSendSlotFreeLocked() || batchTakesIt || finSent || peerGoneLocked();
    }

    private synchronized boolean canSend() {
        return canSendLocked();
    }

    /** Whether a DATA or FIN Send may go (or waiting for one is over: the stream failed or closed). */
    private boolean canSendLocked() {
        return credits >= CREDITS_TO_SEND || failure != null || closed;
    }

    private synchronized boolean dataSendSlotFree() {
        return dataSendSlotFreeLocked();
    }

    private boolean dataSendSlotFreeLocked() {
        return dataSendsOutstanding < MAX_DATA_SENDS_IN_FLIGHT || failure != null || closed;
    }

    private synchronized boolean dataSentOrClosed() {
        return dataSentOrClosedLocked();
    }

    private boolean dataSentOrClosedLocked() {
        return dataSendsOutstanding == 0 || closed;
    }

    /** The peer posted buffers again. */
    void creditsReturned(int count) {
        boolean owed = false;
        boolean batched = false;
        String refused = null;
        synchronized (this) {
            refused = creditsViolation(count);
            if (refused != null) {
                refused = "the peer broke extsock's stream protocol: " + refused;
            } else {
                credits += count;
                window = Math.max(window, credits);
                owed = creditUpdateWanted;
                creditUpdateWanted = false;
                batched = !batch.isEmpty();
            }
        }
        if (refused != null) {
            peerViolated(refused);
            return;
        }
        if (batched) {
            postBatchSoon();  // its Send returns what we owe, if it goes now
        }
        if (owed) {
            sendCreditsSoon();
        }
    }

    /**
     * What is wrong with the peer returning {@code count} credits now, or null: no peer has more
     * buffers posted than a receive queue holds ({@link #MAX_PEER_CREDITS}). Found by fuzzing
     * (StreamSendHeaderFuzzTest): credits summed without a bound overflowed after 32768
     * messages returning 65535 each, and every writer then waited for ever.
     */
    synchronized String creditsViolation(int count) {
        if (count <= MAX_PEER_CREDITS - credits) {
            return null;
        }
        return "it returned " + count + " stream credits on top of " + credits + ", more receive buffers than it"
                + " can have posted (" + MAX_PEER_CREDITS + ")";
    }

    /**
     * The peer broke the stream protocol ({@code reason} names the field and its value): the
     * stream fails with the reason, and the connection ends at once (its requests flush, TCP
     * closes), as TCP ends a connection whose peer breaks TCP. A writer waiting for credits,
     * and a reader waiting for data, see the reason.
     */
    void peerViolated(String reason) {
        synchronized (this) {
            if (failure == null) {
                failure = reason;
            }
        }
        queuePair.connectionLost(reason);
        closeConnection.run();
        waiting.wakeWaiters();
    }

    /**
     * The reader owes the peer credits: send them in a CREDIT message. Never blocks and takes
     * no write lock (a writer may be blocked waiting for the peer's credits, and the peer for
     * ours); without a credit to spend, the next credits the peer returns trigger it.
     */
    void sendCreditsSoon() {
        sendCreditsSoon(true);
    }

    /**
     * As {@link #sendCreditsSoon()}; with {@code transmitNow} false the CREDIT waits for the
     * transmit under way (called from our CREDIT's completion, inside the queue pair's transmit).
     * One CREDIT at a time: while one is posted and not yet handed to TCP, the update waits for
     * it, and then one CREDIT returns everything owed by then (a peer that floods us with
     * messages to return can no longer fill the send queue with our answers).
     */
    private void sendCreditsSoon(boolean transmitNow) {
        if (!input.owesCredits()) {
            return;  // returned meanwhile, riding on a DATA Send
        }
        synchronized (this) {
            // Not stopped by our FIN: after a half-close the peer may go on writing to us.
            if (failure != null || closed) {
                return;
            }
            if (creditSendOutstanding) {
                creditUpdateWanted = true;
                return;
            }
            // Spends no credit: it goes into the buffer DATA and FIN leave (see RESERVE), which
            // the peer posts again at once and does not count as one to return.
            creditSendOutstanding = true;
        }
        try {
            post(StreamHeader.CREDIT, 0, null, 0, 0, transmitNow);
        } catch (IOException e) {
            // the connection ended; readers and writers see it
        }
    }

    @Override
    public void complete(CompletionView completion) {
        // Copied out first: the record is reused once this call starts another completion.
        sent(completion.tag(), completion.status(), completion.byteLength(), completion.detail());
    }

    /** One of our stream Sends left (or the connection ended). */
    private void sent(long tag, CompletionStatus status, long length, String detail) {
        boolean deferredCredits = false;
        synchronized (this) {
            String reason = status == CompletionStatus.SUCCESS ? null : detail != null ? detail : status.toString();
            if (tag == StreamHeader.DATA) {
                dataSendsOutstanding--;
                batch.sendsCompletedThrough(++dataSendsCompleted);
                if (reason != null && dataFailure == null) {
                    dataFailure = reason;
                }
            }
            if (tag == StreamHeader.CREDIT) {
                creditSendOutstanding = false;
                deferredCredits = reason == null && creditUpdateWanted;
                if (deferredCredits) {
                    creditUpdateWanted = false;
                }
            }
            if (reason != null && failure == null) {
                failure = reason;
            }
        }
        if (deferredCredits) {
            // Under the queue pair's lock here: posting takes it again (reentrant) and then the
            // reader's monitor (for the credits); the reader never takes the lock holding its own.
            sendCreditsSoon(false);  // the transmit that completed this one frames it next
        }
    }

    /**
     * A write once the peer closed or reset TCP, as a Socket's: after an orderly close the first
     * write is accepted (TCP sends it; the peer's answer is a reset) and later ones fail with
     * "Broken pipe"; after a reset the first fails with "Connection reset by peer", later ones
     * with "Broken pipe". The bytes go nowhere: the peer's socket is gone.
     */
    private void writeAfterPeerEnded() throws SocketException {
        boolean first = !writeAfterPeerEnded;
        writeAfterPeerEnded = true;
        if (!first) {
            throw SocketErrors.brokenPipe(null);
        }
        if (peerReset) {
            throw new SocketException("Connection reset by peer");
        }
    }

    /**
     * The connection ended; {@code peerClosed}: because the peer closed TCP in order;
     * {@code reset}: because it reset TCP.
     */
    synchronized void ended(boolean peerClosed, boolean reset, String reason) {
        this.peerClosed = peerClosed;
        this.peerReset = reset;
        if (failure == null) {
            failure = reason;
        }
    }

    /**
     * Before the socket closes: the small writes still batched go out, if the peer makes room
     * for them within {@link #CLOSE_FLUSH_NANOS}. Not while a writer is blocked in a write: the
     * close ends that write, as a Socket's close does.
     */
    void sendBatchBeforeClose() {
        if (!writing.tryLock()) {
            return;
        }
        try {
            if (!sendBatch(CLOSE_FLUSH_NANOS)) {
                int dropped;
                synchronized (this) {
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

    synchronized void close() {
        closed = true;
        sendBuffers.forget();
    }

    /** Posts a Send of the header and, for DATA, octets {@code [off, off + len)} of {@code b}. */
    private void post(int type, int flags, byte[] b, int off, int len, boolean transmitNow) throws IOException {
        int credits = input.takeCreditsToReturn();
        ByteBuffer header;
        ByteBuffer payload = null;
        int slot = -1;
        synchronized (this) {
            if (failure == null) {
                slot = sendBuffers.take(type, dataSendsOutstanding);
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
            synchronized (this) {
                if (type == StreamHeader.DATA) {
                    dataSendsOutstanding--;
                    if (slot >= 0) {
                        sendBuffers.refused(slot);
                    }
                }
            }
            throw new SocketException(e.getMessage());
        }
    }

    /**
     * Holding the monitor, before sending: whether the write is to end quietly (the peer closed
     * TCP: see {@link #writeAfterPeerEnded}); throws where it is to fail.
     */
    private boolean peerEnded(boolean bytesLeftUnread) throws SocketException {
        if (closed) {
            throw new SocketException("Socket closed");
        }
        if (peerClosed && bytesLeftUnread) {
            throw peerEndedUnderWrite();
        }
        if (peerClosed || peerReset) {
            writeAfterPeerEnded();
            return true;
        }
        if (failure != null) {
            throw new SocketException(failure);
        }
        return false;
    }

    /**
     * The peer closed TCP while this write waited for its window, or with part of this write
     * sent and the rest not: the peer's application left our bytes unread (it died, or closed
     * without reading), or the rest can never follow. TCP answers a close with unread data by a
     * reset, and a writer blocked on a full window then fails with it; so does this one, rather
     * than return as if its bytes had gone out.
     */
    private static SocketException peerEndedUnderWrite() {
        return new SocketException("Connection reset by peer");
    }

    private void requireOpen() throws SocketException {
        if (closed) {
            throw new SocketException("Socket closed");
        }
        if (failure != null) {
            throw new SocketException(failure);
        }
    }
}

package io.extsock.core.stream;

import io.extsock.core.memory.DirectBufferPool;
import io.extsock.core.memory.MemoryLease;
import io.extsock.core.verbs.InlineWait;
import io.extsock.core.verbs.QueuePair;
import io.extsock.core.verbs.QueuePairClosedException;
import io.extsock.core.verbs.WorkCompleter;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.CompletionView;
import io.extsock.internal.InterruptShield;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The receiving half of an IWARP_MODE socket's stream: receive buffers posted on the queue
 * pair ({@link ReceiveBuffers}); each incoming stream Send fills one. Reading takes bytes from
 * filled buffers in order ({@link FilledBuffers}); a buffer read out is posted again, and that
 * is a credit to return to the peer ({@link OwedCredits}).
 *
 * <p>The window grows when the peer's writer waited for credits and showed that it fills the
 * window ({@link WindowGrowth}); the new buffers go to the peer as credits.
 *
 * <p>Threads: the receive side of the engine delivers completions ({@link #complete}); the
 * application reads. Both under this object's monitor.
 */
final class StreamInput implements WorkCompleter {

    private final QueuePair queuePair;
    /** The engine's wait: a blocked reader makes the connection progress while it waits. */
    private final InlineWait waiting;
    /** What a reader waits for, made once: a method reference made at the wait is allocated per wait. */
    private final BooleanSupplier readableOrEnded = this::readableOrEnded;
    private final StreamOutput output;
    /** Guarded by the monitor, as are the two below (but see {@link ReceiveBuffers#get}). */
    private final ReceiveBuffers buffers;
    private final FilledBuffers filled;
    private final OwedCredits credits = new OwedCredits();

    /** Bytes the peer wrote before the switch, read first. */
    private byte[] prefix;
    private int prefixPosition;

    private boolean peerFinished;
    private boolean inputShutdown;
    private boolean endOfStreamRead;
    private String failure;
    private boolean closed;
    /** The peer closed TCP without a stream FIN (its process ended): end of stream, as for TCP. */
    private volatile boolean peerClosed;
    /** The peer reset TCP. */
    private boolean peerReset;

    /** With memory of its own (a pool of {@code bufferSize} blocks and no budget): for tests. */
    StreamInput(QueuePair queuePair, InlineWait waiting, int receiveBuffers, int maxReceiveBuffers, int bufferSize,
                byte[] prefix, StreamOutput output) {
        this(queuePair, waiting, receiveBuffers, maxReceiveBuffers, bufferSize, prefix, output,
                new DirectBufferPool(bufferSize, Long.MAX_VALUE).lease(null));
    }

    /**
     * @param receiveBuffers the buffers to start with (the peer was told this many)
     * @param maxReceiveBuffers how far the window may grow
     * @param memory the connection's lease; its blocks hold at least {@code bufferSize} octets
     */
    StreamInput(QueuePair queuePair, InlineWait waiting, int receiveBuffers, int maxReceiveBuffers, int bufferSize,
                byte[] prefix, StreamOutput output, MemoryLease memory) {
        if (receiveBuffers < 4 || maxReceiveBuffers < receiveBuffers) {
            throw new IllegalArgumentException("receive buffers " + receiveBuffers + ", at most " + maxReceiveBuffers);
        }
        this.queuePair = queuePair;
        this.waiting = waiting;
        this.output = output;
        this.prefix = prefix.length > 0 ? prefix : null;
        this.filled = new FilledBuffers(maxReceiveBuffers);
        this.buffers = new ReceiveBuffers(this, queuePair, receiveBuffers, maxReceiveBuffers, bufferSize, memory,
                credits);
    }

    /** Posts the first receive buffers; before the connection starts, so no peer Send finds none. */
    void postAll() throws QueuePairClosedException {
        buffers.postAll();
    }

    /** Receive buffers posted now: the window the peer may fill. */
    synchronized int windowBuffers() {
        return buffers.posted();
    }

    /** The receive buffer posted with tag {@code index}: where the queue pair places a Send. */
    ByteBuffer receiveBuffer(int index) {
        return buffers.get(index);
    }

    @Override
    public void complete(CompletionView completion) {
        // Copied out first: the record is reused once this call starts another completion.
        received(completion.tag(), completion.status(), completion.byteLength(), completion.detail());
    }

    /** A stream Send arrived in buffer {@code tag}, or the connection ended. */
    private void received(long tag, CompletionStatus status, long length, String detail) {
        if (status == CompletionStatus.SUCCESS) {
            String violation = violationIn((int) tag, length);
            if (violation != null) {
                refuse(violation);
                return;
            }
        }
        int index = (int) tag;
        int creditsReturned = 0;
        boolean repost = false;
        boolean repostReserve = false;
        int growFrom = 0;
        int growTo = 0;
        synchronized (this) {
            if (status != CompletionStatus.SUCCESS) {
                if (failure == null) {
                    failure = detail != null ? detail : status.toString();
                }
                return;
            }
            ByteBuffer message = buffers.get(index);  // the engine is done with it until it is posted again
            if (length < StreamHeader.LENGTH) {
                failure = "a stream message of " + length + " bytes arrived: the peer is not speaking extsock's"
                        + " stream protocol";
                return;
            }
            creditsReturned = StreamHeader.creditsReturned(message);
            int type = StreamHeader.type(message);
            boolean waited = (StreamHeader.flags(message) & StreamHeader.WAITED) != 0;
            // Not once closed: nothing may be read from the buffers then (they go back to the pool).
            if (type == StreamHeader.DATA && !inputShutdown && !closed && length > StreamHeader.LENGTH) {
                int payload = (int) length - StreamHeader.LENGTH;
                buffers.recordPayload(payload);
                if (filled.appendToLast(message, payload)) {
                    repost = true;  // its bytes wait in the buffer before it: a credit for the peer now
                } else {
                    filled.add(index, message, (int) length);
                    growFrom = buffers.allocated();
                    growTo = buffers.claimGrowth(waited);
                }
            } else if (type == StreamHeader.CREDIT) {
                repostReserve = true;  // the peer spent no credit on it (PeerWindow.RESERVE)
            } else if (type == StreamHeader.DATA || type == StreamHeader.FIN) {
                if (type == StreamHeader.FIN) {
                    peerFinished = true;
                }
                repost = true;  // nothing to read in it (or input is shut down): post it again now
            } else {
                failure = "a stream message of unknown type " + type + " arrived: the peer is not speaking"
                        + " extsock's stream protocol";
                return;
            }
            if (repost) {
                credits.decided(1);
            }
        }
        if (creditsReturned > 0) {
            output.creditsReturned(creditsReturned);
        }
        if (repost) {
            repost(index);
        } else if (repostReserve) {
            buffers.postAgain(index);
        }
        if (growTo > growFrom && buffers.grow(growFrom, growTo)) {
            output.sendCreditsSoon();
        }
    }

    /** Reads like a blocking socket: at least one byte, or -1 at end of stream. */
    int read(byte[] b, int off, int len, int timeoutMillis) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        long deadline = timeoutMillis > 0 ? System.nanoTime() + timeoutMillis * 1_000_000L : 0;
        while (true) {
            int headIndex;
            int count;
            boolean bufferDone;
            synchronized (this) {
                if (prefix != null) {
                    return readPrefixLocked(b, off, len);
                }
                if (endOfStreamRead) {
                    return -1;
                }
                if (filled.isEmpty()) {
                    if (closed) {
                        throw new SocketException("Socket closed");
                    }
                    if (peerFinished || inputShutdown || failure != null && peerClosed) {
                        endOfStreamRead = true;
                        return -1;
                    }
                    if (peerReset) {
                        throw new SocketException("Connection reset");  // as NioSocketImpl, every time
                    }
                    if (failure != null) {
                        throw new SocketException(failure);
                    }
                    headIndex = -1;
                    count = 0;
                    bufferDone = false;
                } else {
                    headIndex = filled.headIndex();
                    count = filled.readHead(b, off, len);
                    bufferDone = filled.removeHeadIfReadOut();
                    if (bufferDone) {
                        credits.decided(1);
                    }
                }
            }
            if (headIndex >= 0) {
                if (bufferDone) {
                    repost(headIndex);
                }
                return count;
            }
            long remaining = deadline == 0 ? 0 : deadline - System.nanoTime();
            if (deadline != 0 && remaining <= 0) {
                throw new SocketTimeoutException("Read timed out");
            }
            // then look again; a virtual thread's wait ends on an interrupt, as a Socket's read on
            // a virtual thread does (the socket then closes: ChannelSocketImpl)
            boolean virtual = InterruptShield.currentIsVirtual();
            if (!waiting.awaitPromptly(readableOrEnded, remaining, virtual) && virtual
                    && Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("interrupted while reading");
            }
        }
    }

    /** Under the monitor: reads what the peer wrote before the switch. */
    private int readPrefixLocked(byte[] b, int off, int len) {
        int count = Math.min(len, prefix.length - prefixPosition);
        System.arraycopy(prefix, prefixPosition, b, off, count);
        prefixPosition += count;
        if (prefixPosition == prefix.length) {
            prefix = null;
        }
        return count;
    }

    /** Whether a read returns at once: bytes, the end of the stream, or an error to throw. */
    synchronized boolean readableOrEnded() {
        return !filled.isEmpty() || prefix != null || peerFinished || inputShutdown || failure != null || closed;
    }

    /**
     * Bytes that can be read without blocking: what the socket holds is received first, since
     * nobody else may be receiving it (a connection used through its streams alone is read only
     * by its waiting threads).
     */
    int available() throws IOException {
        waiting.receiveAvailable();
        return buffered();
    }

    private synchronized int buffered() throws IOException {
        if (closed) {
            throw new SocketException("Socket closed");
        }
        if (inputShutdown) {
            return 0;
        }
        return (prefix != null ? prefix.length - prefixPosition : 0) + filled.octets();
    }

    /** Further input is discarded; reads return end of stream. */
    void shutdown() {
        int[] release;
        synchronized (this) {
            inputShutdown = true;
            prefix = null;
            release = filled.removeAll();
            credits.decided(release.length);
        }
        waiting.wakeWaiters();  // a reader blocked on this connection now reads end of stream
        for (int index : release) {
            repost(index);
        }
    }

    /** The connection ended because the peer closed TCP. */
    synchronized void peerClosed() {
        peerClosed = true;
    }

    /** The connection ended because the peer reset TCP: what is here is read first, then "Connection reset". */
    synchronized void peerReset() {
        peerReset = true;
    }

    /**
     * The connection ended otherwise (a Terminate, ours or the peer's, or an I/O error): what is
     * here is read first, then the reason, also for a reader that had taken every buffer before
     * the end (no receive is left posted to be flushed with the error).
     */
    synchronized void ended(String reason) {
        if (failure == null && reason != null) {
            failure = reason;
        }
    }

    /**
     * The socket closed (the connection's close wakes blocked readers). What was received and
     * not read is dropped here, under the monitor every read copies under: no read touches a
     * buffer after this, so the connection may give them back to the pool.
     */
    synchronized void close() {
        closed = true;
        filled.removeAll();
    }

    /** Whether this side owes the peer credits (buffers posted again and not yet announced). */
    synchronized boolean owesCredits() {
        return credits.any();
    }

    /** Credits owed to the peer, taken to ride on an outgoing message. */
    synchronized int takeCreditsToReturn() {
        return credits.take();
    }

    /** Credits owed to the peer now, waiting for a Send to ride on. */
    synchronized int creditsOwed() {
        return credits.owed();
    }

    /** Credits decided on that go to the peer without another read ({@link OwedCredits#onTheirWay}). */
    synchronized int creditsOnTheirWay() {
        return credits.onTheirWay();
    }

    /** Credits given to the peer in our Sends since the stream started. */
    synchronized long creditsSent() {
        return credits.sent();
    }

    /**
     * What breaks the protocol in the stream Send that arrived in buffer {@code index}, or null:
     * every field is checked ({@link StreamHeader#violation}, and the credits it returns by the
     * writer, {@link StreamOutput#creditsViolation}) before any of it is taken, so that a
     * message that breaks the rules delivers nothing. The receive side alone sets what is
     * checked here (the peer's FIN, the writer's credits going up), one message at a time.
     */
    private String violationIn(int index, long length) {
        // Without the monitor: the buffer was published before it was posted, and peerFinished
        // is written by the receive side alone, whose lock orders its holders. This runs for
        // every message.
        ByteBuffer message = buffers.get(index);
        String violation = StreamHeader.violation(message, (int) length, peerFinished);
        return violation != null ? violation : output.creditsViolation(StreamHeader.creditsReturned(message));
    }

    /**
     * The peer broke the protocol: the stream fails, first, so that a reader woken by the end
     * of the connection reads why; then the connection ends (outside our monitor).
     */
    private void refuse(String violation) {
        String reason = "the peer broke extsock's stream protocol: " + violation;
        synchronized (this) {
            if (failure == null) {
                failure = reason;
            }
        }
        output.peerViolated(reason);
    }

    /** Posts a read-out buffer again: one more credit for the peer. */
    private void repost(int index) {
        if (!buffers.postAgain(index)) {
            return;  // the connection ended; nothing more will arrive
        }
        boolean sendNow;
        synchronized (this) {
            sendNow = credits.reposted(buffers.posted());
        }
        if (sendNow) {
            output.sendCreditsSoon();
        }
    }
}

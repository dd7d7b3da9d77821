package io.extsock.core.stream;

import io.extsock.core.events.ExtsockEvents;
import io.extsock.core.memory.DirectBufferPool;
import io.extsock.core.memory.MemoryBudget;
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
 * pair; each incoming stream Send fills one. Reading takes bytes from filled buffers in order; a
 * buffer read out is posted again, and that is a credit to return to the peer.
 *
 * <p>The window grows when the peer's writer waited for credits and showed that it fills the
 * window ({@link WindowGrowth}); the new buffers go to the peer as credits.
 *
 * <p>The buffers come from the connection's {@link MemoryLease}: the base always, growth only as
 * far as the JVM-wide budget allows ({@link DirectBufferPool}); refused, the window stays as it
 * is and the stream works on, slower.
 *
 * <p>Threads: the receive side of the engine delivers completions ({@link #complete}); the
 * application reads. Both under this object's monitor.
 */
final class StreamInput implements WorkCompleter {

    private static final System.Logger LOG = System.getLogger(StreamInput.class.getName());

    /** The longest payload {@link #appendToLastFilled} copies: small writes, not bulk ones. */
    static final int MAX_APPENDED = 8 * 1024;

    private final QueuePair queuePair;
    /** The engine's wait: a blocked reader makes the connection progress while it waits. */
    private final InlineWait waiting;
    /** What a reader waits for, made once: a method reference made at the wait is allocated per wait. */
    private final BooleanSupplier readableOrEnded = this::readableOrEnded;
    private final ByteBuffer[] buffers;
    private final int bufferSize;
    /** Where the buffers come from; the connection gives them back once it is closed and quiet. */
    private final MemoryLease memory;
    /** When the window grows; under the monitor. */
    private final WindowGrowth growth;
    /** Buffers allocated (and posted, or about to be): the first {@code allocated} of {@link #buffers}. */
    private int allocated;
    /** Buffers the peer has been given credits for: allocated and posted. */
    private int posted;
    private final StreamOutput output;

    /** Bytes the peer wrote before the switch, read first. */
    private byte[] prefix;
    private int prefixPosition;

    /** Filled buffers in arrival order: their indexes, a ring. */
    private final int[] filled;
    private int filledHead;
    private int filledCount;
    /** Where reading stands in the head buffer; its limit marks the data's end. */
    private final ByteBuffer[] data;

    private int creditsToReturn;
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
        this.bufferSize = bufferSize;
        this.memory = memory;
        this.buffers = new ByteBuffer[maxReceiveBuffers];
        this.data = new ByteBuffer[maxReceiveBuffers];
        this.filled = new int[maxReceiveBuffers];
        this.growth = new WindowGrowth(maxReceiveBuffers, bufferSize - StreamHeader.LENGTH);
        for (int i = 0; i < receiveBuffers; i++) {
            buffers[i] = receiveBuffer(memory.take());
        }
        this.allocated = receiveBuffers;
    }

    /** Posts the first receive buffers; before the connection starts, so no peer Send finds none. */
    void postAll() throws QueuePairClosedException {
        for (int i = 0; i < allocated; i++) {
            queuePair.postInternalReceive(buffers[i].clear(), i, this);
        }
        synchronized (this) {
            posted = allocated;
        }
        queuePair.counters().streamWindow(windowOctets(allocated));
    }

    /** Receive buffers posted now: the window the peer may fill. */
    synchronized int windowBuffers() {
        return posted;
    }

    /** A receive buffer of {@link #bufferSize} octets in a block of the lease. */
    private ByteBuffer receiveBuffer(ByteBuffer block) {
        if (block.capacity() < bufferSize) {
            throw new IllegalArgumentException("memory blocks of " + block.capacity() + " octets cannot hold stream"
                    + " buffers of " + bufferSize);
        }
        return block.slice(0, bufferSize);
    }

    /** Stream octets that many receive buffers hold: the window as the peer's writer can fill it. */
    private int windowOctets(int buffers) {
        return growth.windowOctets(buffers);
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
        int credits = 0;
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
            ByteBuffer message = buffers[index];  // the engine is done with it until it is posted again
            if (length < StreamHeader.LENGTH) {
                failure = "a stream message of " + length + " bytes arrived: the peer is not speaking extsock's"
                        + " stream protocol";
                return;
            }
            credits = StreamHeader.creditsReturned(message);
            int type = StreamHeader.type(message);
            boolean waited = (StreamHeader.flags(message) & StreamHeader.WAITED) != 0;
            // Not once closed: nothing may be read from the buffers then (they go back to the pool).
            if (type == StreamHeader.DATA && !inputShutdown && !closed && length > StreamHeader.LENGTH) {
                int payload = (int) length - StreamHeader.LENGTH;
                growth.recordPayload(payload);
                if (appendToLastFilled(message, payload)) {
                    repost = true;  // its bytes wait in the buffer before it: a credit for the peer now
                } else {
                    data[index] = message.limit((int) length).position(StreamHeader.LENGTH);
                    filled[(filledHead + filledCount) % filled.length] = index;
                    filledCount++;
                    int wanted = growth.growTo(waited, allocated, posted);
                    if (wanted > allocated) {
                        growFrom = allocated;
                        growTo = wanted;
                        allocated = growTo;
                    }
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
        }
        if (credits > 0) {
            output.creditsReturned(credits);
        }
        if (repost) {
            repost(index);
        } else if (repostReserve) {
            postAgain(index);
        }
        if (growTo > growFrom) {
            grow(growFrom, growTo);
        }
    }

    /**
     * Under the monitor: copies a small message's payload behind the unread bytes of the last
     * filled buffer, if they fit, so that its own buffer can go back to the peer at once.
     *
     * <p>Why: each Send takes a whole receive buffer, so without this a few small writes that
     * the peer's application has not read yet used up the window, and the next write blocked
     * (three 1-byte writes did), where TCP takes hundreds of kilobytes unread. Two programs that
     * each write before they read (a pipelining protocol) then both blocked for good. Appended,
     * small messages fill buffers by bytes, as TCP's window does. Large ones are not copied
     * (they fill buffers well on their own, and a bulk stream must not pay a second copy).
     *
     * @return whether it was appended (the caller posts the message's buffer again)
     */
    private boolean appendToLastFilled(ByteBuffer message, int payload) {
        if (filledCount == 0 || payload > MAX_APPENDED) {
            return false;
        }
        ByteBuffer last = data[filled[(filledHead + filledCount - 1) % filled.length]];
        int end = last.limit();
        if (last.capacity() - end < payload) {
            return false;
        }
        last.limit(end + payload);
        last.put(end, message, StreamHeader.LENGTH, payload);
        return true;
    }

    /**
     * Takes buffers {@code from} up to {@code wanted} from the lease (as many as the budget
     * grants), posts them, and gives the peer their credits.
     */
    private void grow(int from, int wanted) {
        ByteBuffer[] blocks = new ByteBuffer[wanted - from];
        int to;
        synchronized (this) {  // under the monitor: readers find the new buffers published
            int granted = memory.tryTake(blocks, blocks.length);
            for (int i = 0; i < granted; i++) {
                buffers[from + i] = receiveBuffer(blocks[i]);
            }
            to = from + granted;
            allocated = to;  // complete() claimed up to wanted; what was not granted is not there
            if (to < wanted) {
                growth.refused();
            }
        }
        if (to < wanted) {
            refused(from, wanted, to);
        }
        if (to == from) {
            return;
        }
        try {
            for (int i = from; i < to; i++) {
                queuePair.postInternalReceive(buffers[i].clear(), i, this);
            }
        } catch (QueuePairClosedException e) {
            return;  // the connection ended; nothing more will arrive
        }
        synchronized (this) {
            posted = to;
            creditsToReturn += to - from;
        }
        String peer = queuePair.counters().peer();
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, "stream window for " + peer + " grown from " + windowOctets(from)
                    + " to " + windowOctets(to) + " bytes (" + to + " buffers): the peer's writer waited for credits");
        }
        ExtsockEvents.streamWindowGrown(peer, windowOctets(from), windowOctets(to));
        queuePair.counters().streamWindow(windowOctets(to));  // after the event: who sees the size, sees it
        output.sendCreditsSoon();
    }

    /** The memory budget refused (part of) a growth: the window stays smaller, and the stream works on. */
    private void refused(int from, int wanted, int to) {
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, "stream window for " + queuePair.counters().peer() + " not grown from "
                    + windowOctets(from) + " to " + windowOctets(wanted) + " bytes" + (to > from ? " but to "
                    + windowOctets(to) : "") + ": the JVM's memory budget for stream windows is spent (-D"
                    + MemoryBudget.PROPERTY + ")");
        }
        ExtsockEvents.streamWindowRefused(queuePair.counters().peer(), windowOctets(from), windowOctets(wanted),
                windowOctets(to));
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
                    count = Math.min(len, prefix.length - prefixPosition);
                    System.arraycopy(prefix, prefixPosition, b, off, count);
                    prefixPosition += count;
                    if (prefixPosition == prefix.length) {
                        prefix = null;
                    }
                    return count;
                }
                if (endOfStreamRead) {
                    return -1;
                }
                if (filledCount == 0) {
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
                    headIndex = filled[filledHead];
                    ByteBuffer head = data[headIndex];
                    count = Math.min(len, head.remaining());
                    head.get(b, off, count);
                    bufferDone = !head.hasRemaining();
                    if (bufferDone) {
                        data[headIndex] = null;
                        filledHead = (filledHead + 1) % filled.length;
                        filledCount--;
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

    private synchronized boolean readableOrEnded() {
        return filledCount > 0 || prefix != null || peerFinished || inputShutdown || failure != null || closed;
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
        int total = prefix != null ? prefix.length - prefixPosition : 0;
        for (int i = 0; i < filledCount; i++) {
            total += data[filled[(filledHead + i) % filled.length]].remaining();
        }
        return total;
    }

    /** Further input is discarded; reads return end of stream. */
    void shutdown() {
        int[] release;
        synchronized (this) {
            inputShutdown = true;
            prefix = null;
            release = new int[filledCount];
            for (int i = 0; i < filledCount; i++) {
                release[i] = filled[(filledHead + i) % filled.length];
                data[release[i]] = null;
            }
            filledCount = 0;
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
     * here is read first, then the reason. Without this a reader that had taken every buffer
     * before the end waited on: no receive was left posted to be flushed with the error.
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
        for (int i = 0; i < filledCount; i++) {
            data[filled[(filledHead + i) % filled.length]] = null;
        }
        filledCount = 0;
    }

    /**
     * Posts buffer {@code index} again, with no credit for the peer: what a CREDIT message's
     * buffer needs ({@link StreamOutput#RESERVE}), and the first half of {@link #repost}.
     *
     * @return false if the connection ended
     */
    private boolean postAgain(int index) {
        try {
            queuePair.postInternalReceive(buffers[index].clear(), index, this);
            return true;
        } catch (QueuePairClosedException e) {
            return false;
        }
    }

    /** Whether this side owes the peer credits (buffers posted again and not yet announced). */
    synchronized boolean owesCredits() {
        return creditsToReturn > 0;
    }

    /** Credits owed to the peer, taken to ride on an outgoing message. */
    synchronized int takeCreditsToReturn() {
        int credits = Math.min(creditsToReturn, 0xFFFF);
        creditsToReturn -= credits;
        return credits;
    }

    /**
     * What breaks the protocol in the stream Send that arrived in buffer {@code index}, or null:
     * every field is checked ({@link StreamHeader#violation}, and the credits it returns by the
     * writer, {@link StreamOutput#creditsViolation}) before any of it is taken, so that a
     * message that breaks the rules delivers nothing. The receive side alone sets what is
     * checked here (the peer's FIN, the writer's credits going up), one message at a time.
     */
    private String violationIn(int index, long length) {
        // Without the monitor: the buffer was published before it was posted (the queue pair's
        // lock orders the two), and peerFinished is written by the receive side alone, whose
        // lock orders its holders. This runs for every message.
        ByteBuffer message = buffers[index];
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
        if (!postAgain(index)) {
            return;  // the connection ended; nothing more will arrive
        }
        boolean sendNow;
        synchronized (this) {
            creditsToReturn++;
            sendNow = creditsToReturn >= posted / 2;
        }
        if (sendNow) {
            output.sendCreditsSoon();
        }
    }
}

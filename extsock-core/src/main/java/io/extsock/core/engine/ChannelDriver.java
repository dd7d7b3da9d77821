package io.extsock.core.engine;

import io.extsock.core.events.StatisticsEvents;
import io.extsock.core.memory.DirectBufferPool;
import io.extsock.core.memory.MemoryLease;
import io.extsock.core.verbs.InlineWait;
import io.extsock.core.verbs.QueuePair;
import io.extsock.internal.InterruptShield;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Moves the bytes of one IWARP_MODE connection between its channel (non-blocking) and its
 * {@link QueuePair}.
 *
 * <p>Transmit runs on whichever thread has something to send: the application thread that
 * posted a request frames and writes it itself when the transmit lock is free (no hand-off,
 * no wake-up); only when the socket pushes back does the progress thread take over, on
 * OP_WRITE.
 *
 * <p>Receive runs where the waiting is. An application thread that must block on this
 * connection (a stream read, a completion-queue wait) does the receive work itself in {@link
 * #await}: it reads and processes what the socket holds and, when there is nothing, blocks in a
 * Selector of its own on this channel, so that a message costs one wake-up, as with TCP. While
 * application threads drive the connection, the progress thread's read interest is off. Once
 * something must progress while nobody waits (the verbs are in use, or stream writes wait for
 * credits), it takes the connection back after {@link ReadingOwnership#HANDBACK_NANOS} without a waiter, so that
 * one-sided operations progress; until then the connection stays with the threads that read it,
 * as a TCP socket does ({@link #progressWhileIdle}). Large payloads are read from the socket
 * straight into their registered destination (with CRCs, into the hold where their FPDU waits for its check),
 * everything else through a staging buffer; while large FPDUs come, the reads into staging are
 * kept short so that their bulk is read directly ({@code QueuePair.stagedReadLength}).
 *
 * <p>State ownership: the staging buffer, the inline Selector and the queue pair's receive
 * side belong to the holder of {@link #receiveLock}; the gathering write and the queue pair's
 * transmit side to the holder of the {@link Transmitter}'s lock; the selection key and {@link
 * #reading} changes that the progress thread acts on (interest, hand-back ticks) to the
 * progress thread.
 */
final class ChannelDriver implements QueuePair.Driver, InlineWait {

    private static final System.Logger LOG = System.getLogger(ChannelDriver.class.getName());

    /**
     * How long the initiator's RTR (RFC 6581 section 4) may wait, when it is all there is to
     * send, for the application's first message to go out in the same write: a system call and
     * a wake-up of the peer fewer a connection. The application's first wait sends it at once,
     * as the peer may have to see it before it sends what the wait is for.
     */
    private static final long READY_TO_RECEIVE_HOLD_MILLIS = 1;
    /** Payloads at least this large are read straight into their destination. */
    private static final int DIRECT_READ_MIN = 4 * 1024;
    /** How long to wait for the peer's close after we sent a Terminate, before closing anyway. */
    private static final long TERMINATE_LINGER_MILLIS = 2_000;
    /**
     * After the connection ended, how long a waiter waits for the requests a transmitter still
     * held (it flushes them as it lets go, within microseconds), and how often it looks.
     */
    private static final long SETTLE_LIMIT_NANOS = 2_000_000_000L;
    private static final long SETTLE_POLL_NANOS = 1_000_000;

    private final SocketChannel channel;
    private final ProgressThread progress;
    private final ReentrantLock receiveLock = new ReentrantLock();
    /** The direct memory of this connection (and its stream's), given back when the application closes it. */
    private final MemoryLease memory;
    /** Staging for received octets: headers, small payloads, read-ahead. One block of {@link #memory}. */
    private final ByteBuffer staging;
    /** The gathering write's arena, one block of {@link #memory}, until the transmitter takes it. */
    private final ByteBuffer gatherArena;
    private final ByteTransport transport;
    /** Frames and writes; made when the queue pair is attached. */
    private Transmitter transmitter;

    private QueuePair queuePair;
    private SelectionKey key;

    /** Who reads the socket now: the progress thread, or the threads that wait on the connection. */
    private final ReadingOwnership reading = new ReadingOwnership();
    /** How a thread waits on this connection: spin, block in a Selector, wait for a signal, park. */
    private final IdleStrategy idle;
    private volatile boolean closing;
    private volatile boolean closed;
    /** When {@link #closed} became true: a waiter waits for the last flush a bounded time. */
    private volatile long closedAtNanos;
    /** A waiter gave up on the requests still due after {@link #SETTLE_LIMIT_NANOS} (logged once). */
    private volatile boolean settleGivenUp;
    private volatile boolean endedByPeerClose;
    /** The connection ended because the peer reset it (ECONNRESET): TCP's own end, not ours. */
    private volatile boolean endedByReset;
    private volatile EndListener endListener = (peerClosed, reset, reason) -> { };

    /** Hears how the connection ended, before its outstanding work is flushed. */
    interface EndListener {
        /**
         * @param peerClosed the peer closed TCP (an orderly end, as far as a stream goes)
         * @param reset the peer reset TCP (what a Socket reports as "Connection reset")
         * @param reason why, in words
         */
        void connectionEnded(boolean peerClosed, boolean reset, String reason);
    }

    /**
     * @param inlineSelector a Selector with the channel registered for reading, which the waiting
     *     thread's handshake used and this connection now owns; null to make one at the first wait
     * @param pool where the connection's direct memory comes from: staging and the gather's arena
     *     are taken here, the stream's buffers by the stream ({@link #memory()}); should the
     *     connection be dropped without a close, its blocks go back when it is collected
     * @param inlineSpin whether and how long a waiting thread polls before it blocks (the
     *     connection's {@code SPIN_MICROS})
     */
    ChannelDriver(SocketChannel channel, Selector inlineSelector, ProgressThread progress, DirectBufferPool pool,
                  InlineSpin inlineSpin) {
        this.channel = channel;
        this.idle = new IdleStrategy(channel, inlineSelector, reading, inlineSpin);
        this.progress = progress;
        this.memory = pool.lease(this);
        this.staging = memory.take().flip();
        this.gatherArena = memory.take();
        this.transport = new SocketChannelTransport(channel);
    }

    /** The longest spin of this connection's waits from now on (its SPIN_MICROS changed). */
    void spinLongest(long nanos) {
        idle.spinLongest(nanos);
    }

    /** Connects the queue pair (which needs this as its driver, hence not in the constructor). */
    void attach(QueuePair queuePair) {
        this.queuePair = queuePair;
        this.transmitter = new Transmitter(transport, queuePair, transmitting, idle, receiveLock, gatherArena);
    }

    /** What the transmitter asks of this connection, made once. */
    private final Transmitter.Connection transmitting = new Transmitter.Connection() {
        @Override
        public boolean ended() {
            return closed;
        }

        @Override
        public void transmitFailed(String reason, IOException cause) {
            if (cause != null) {
                lost(reason, cause);
            } else {
                lost(reason);
            }
        }

        @Override
        public void transmitted() {
            signalWaiters();
        }

        @Override
        public void watchForRoom() {
            progress.execute(() -> setInterest(readInterest() | SelectionKey.OP_WRITE));
        }
    };

    /** Called when the connection ends (possibly more than once: listeners are idempotent). */
    void onEnd(EndListener listener) {
        this.endListener = listener;
    }

    QueuePair queuePair() {
        return queuePair;
    }

    /** The connection's memory lease, for its stream's receive buffers. */
    MemoryLease memory() {
        return memory;
    }

    /**
     * Starts full operation: the FPDU octets read ahead during MPA setup are processed first,
     * then the progress thread watches the channel.
     */
    void start(byte[] readAhead) throws IOException {
        channel.configureBlocking(false);
        if (readAhead.length > 0) {
            queuePair.counters().bytesReceived(readAhead.length);  // FPDU octets read with the MPA frame
            receiveLock.lock();
            try {
                if (closed) {
                    return;  // ended while starting (its memory may be given back already)
                }
                staging.clear();
                staging.put(readAhead).flip();
                processStaged();
            } finally {
                receiveLock.unlock();
            }
        }
        // The initiator's RTR alone waits for the application's first message (or wait).
        boolean holdReadyToReceive = queuePair.onlyReadyToReceivePending();
        // Soon, not at once: an application thread that waits reads for itself meanwhile, and what
        // arrives unwatched is read when the key is in (below). A wake-up spared per connection.
        progress.executeSoon(() -> {
            if (closed) {
                return;  // ended while starting: nothing to watch
            }
            try {
                key = channel.register(progress.selector(), SelectionKey.OP_READ, this);
            } catch (ClosedChannelException e) {
                closeNow();
                return;
            }
            onReadable();  // octets may have arrived while we were not watching
            if (holdReadyToReceive) {
                progress.schedule(READY_TO_RECEIVE_HOLD_MILLIS, this::sendHeldReadyToReceive);
            }
        });
        if (!holdReadyToReceive) {
            transmitPending();
        }
    }

    /** The RTR's hold ended, and the application has neither sent nor waited (progress thread). */
    private void sendHeldReadyToReceive() {
        if (!closed && queuePair.readyToReceivePending()) {
            transmitPending();
        }
    }

    // ---- transmit -----------------------------------------------------------------------

    @Override
    public void transmitPending() {
        transmitter.request();
    }

    /**
     * Holding the receive lock: processes the staged octets, and transmits what that finds to
     * send (a Read Response per Read Request, the next Read once one completed, credits) a few
     * messages at a time, and the rest once the read is processed, so that a long run of
     * arrivals delays nothing by more than one read's processing.
     */
    private void processStaged() {
        transmitter.processing(processStaged);
    }

    private final Runnable processStaged = this::receiveStaged;

    private void receiveStaged() {
        queuePair.receive(staging);
    }

    /** As {@link #processStaged}, for octets read straight into their destination. */
    private void processPlacedDirectly(int count) {
        placedCount = count;
        transmitter.processing(processPlaced);
    }

    /** The count {@link #processPlaced} processes; receive lock. */
    private int placedCount;
    private final Runnable processPlaced = this::receivePlaced;

    private void receivePlaced() {
        queuePair.placedDirectly(placedCount);
    }

    /** The socket can take more: the progress thread continues where transmit stopped. */
    void onWritable() {
        setInterest(readInterest());
        transmitter.resume();
    }

    // ---- receive ------------------------------------------------------------------------

    /** Octets arrived (progress thread). */
    void onReadable() {
        if (!receiveLock.tryLock()) {
            // An application thread is reading inline: stop watching, or epoll would spin us.
            if (reading.platformWaiting()) {
                stopEngineReads();
            }
            return;
        }
        try {
            receiveHeld();
        } finally {
            receiveLock.unlock();
        }
        signalWaiters();
    }

    /** Holding the receive lock: receives what the socket holds; a failure ends the connection. */
    private void receiveHeld() {
        try {
            receiveWhilePossible();
        } catch (IOException e) {
            lost("receiving failed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            processingFailed(e);
        }
    }

    /**
     * A fault of ours while processing what arrived (protocol violations are not runtime
     * exceptions: they end in a Terminate). Left alone, the connection would stop reading and
     * both ends would wait forever: end it loudly instead.
     */
    private void processingFailed(RuntimeException e) {
        System.getLogger(ChannelDriver.class.getName()).log(System.Logger.Level.ERROR,
                "iWARP receive processing failed", e);
        lost("receiving failed: " + e);
    }

    // ---- waiting: the application thread receives inline ---------------------------------

    /**
     * Waits until the condition holds, doing this connection's receive work on the calling
     * thread meanwhile. Unless {@code interruptible}, an interrupt does not end the wait (as for
     * a Socket's read); the interrupt status is kept for the caller either way.
     *
     * @param timeoutNanos how long at most; 0 or less for no limit
     * @return whether the condition holds (false: the timeout elapsed, or the connection closed
     *     without it and every request of it has completed)
     */
    @Override
    public boolean await(BooleanSupplier condition, long timeoutNanos, boolean interruptible) {
        return await(condition, timeoutNanos, interruptible, true);
    }

    @Override
    public boolean awaitPromptly(BooleanSupplier condition, long timeoutNanos, boolean interruptible) {
        return await(condition, timeoutNanos, interruptible, false);
    }

    /** @param doze whether a spin may sleep its longest gaps ({@link SpinPolling}) */
    private boolean await(BooleanSupplier condition, long timeoutNanos, boolean interruptible, boolean doze) {
        if (condition.getAsBoolean()) {
            return true;
        }
        if (queuePair.readyToReceivePending()) {
            transmitPending();  // a held RTR: the peer may have to see it before it sends what we wait for
        }
        if (InterruptShield.currentIsVirtual()) {
            return awaitParked(condition, timeoutNanos, interruptible);
        }
        if (interruptible && Thread.currentThread().isInterrupted()) {
            return false;
        }
        long deadline = timeoutNanos > 0 ? System.nanoTime() + timeoutNanos : 0;
        boolean interrupted = Thread.interrupted();
        try {
            if (reading.platformWaitBegins()) {
                progress.executeSoon(stopWatchingInput);  // meanwhile both may read: whoever does signals the other
            }
            // Checked above; each way on below looks again before it blocks (receiveInline
            // before its select, the monitor wait before waiting).
            boolean checked = true;
            while (true) {
                if (!checked && condition.getAsBoolean()) {
                    return true;
                }
                checked = false;
                if (endedAndSettled()) {
                    return condition.getAsBoolean();
                }
                long remaining = deadline == 0 ? Long.MAX_VALUE : deadline - System.nanoTime();
                if (remaining <= 0) {
                    return false;
                }
                if (!closed && receiveLock.tryLock()) {
                    try {
                        receiveInline(condition, remaining, doze);
                    } finally {
                        receiveLock.unlock();
                    }
                    if (reading.othersWaiting()) {
                        signalWaiters();  // what we received may be what another waiter waits for
                    }
                } else {
                    // Another thread receives, or the connection ended with requests that a
                    // transmitter still flushes as it lets go: wait for its signal.
                    try {
                        idle.awaitSignal(() -> condition.getAsBoolean() || endedAndSettled(), remaining);
                    } catch (InterruptedException e) {
                        interrupted = true;
                        if (interruptible) {
                            return condition.getAsBoolean();
                        }
                    }
                }
                if (Thread.interrupted()) {
                    interrupted = true;
                    if (interruptible) {
                        return condition.getAsBoolean();
                    }
                }
            }
        } finally {
            if (reading.platformWaitEnds(progress.tickStretched())) {
                progress.wakeUp();  // a long wait ended while the progress thread ticks slowly
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * A virtual thread's wait: parks until signalled (the progress thread reads this connection
     * meanwhile: parked waiters do not hold reading back from it, and one that finds the
     * reading left to platform threads asks for it back), with java.util.concurrent locks
     * only, so that the virtual thread never pins its carrier.
     */
    private boolean awaitParked(BooleanSupplier condition, long timeoutNanos, boolean interruptible) {
        if (interruptible && Thread.currentThread().isInterrupted()) {
            return false;
        }
        long deadline = timeoutNanos > 0 ? System.nanoTime() + timeoutNanos : 0;
        boolean interrupted = false;
        if (reading.parkedWaitBegins()) {
            progress.executeSoon(watchForHandback);  // a platform thread read before: the engine reads for this one
        }
        try {
            while (true) {
                if (condition.getAsBoolean()) {
                    return true;
                }
                if (endedAndSettled()) {
                    return condition.getAsBoolean();
                }
                try {
                    // Closed: a flush is due any moment.
                    if (!idle.park(condition, deadline, closed ? SETTLE_POLL_NANOS : 0)) {
                        return false;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                    if (interruptible) {
                        return condition.getAsBoolean();
                    }
                }
            }
        } finally {
            reading.parkedWaitEnds();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Holding the receive lock: block until the socket is readable (at once if it is: epoll is
     * level-triggered, so no read is needed to find out), then read and process what came.
     */
    private void receiveInline(BooleanSupplier condition, long remainingNanos, boolean doze) {
        try {
            if (closed) {
                return;  // nothing more is received (and the staging buffer may be another's now)
            }
            if (staging.hasRemaining()) {
                processStaged();
                return;
            }
            if (!idle.awaitInput(spinInput, condition, remainingNanos, doze, queuePair.counters())) {
                return;  // the spin took input, or a signal or the timeout: the caller looks again
            }
            receiveWhilePossible();
        } catch (IOException e) {
            lost("receiving failed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            processingFailed(e);
        }
    }

    /** The socket as a spin polls it, made once: an object made per spin would be garbage on a hot path. */
    private final SpinPolling.Input spinInput = new SpinPolling.Input() {
        @Override
        public long poll() throws IOException {
            return receiveWhilePossible();
        }

        @Override
        public boolean closed() {
            return closed;
        }
    };

    @Override
    public void wakeWaiters() {
        signalWaiters();
    }

    /** Something a waiter may wait for happened on another thread: let it look again. */
    void signalWaiters() {
        idle.signal();
    }

    /**
     * Applications read now: the progress thread stops watching this channel for input and, on
     * a connection that hands back, watches for the moment to take it back ({@link
     * ReadingOwnership}). The one way back is {@link #handbackIfIdle}, which turns the read
     * interest on: were the engine said to read without the interest on, nobody would read it
     * until an application waited on it again. On a connection used through its streams alone
     * that is the point.
     */
    private void stopEngineReads() {
        reading.applicationReads();
        progress.executeSoon(stopWatchingInput);  // meanwhile both may read: whoever does signals the other
    }

    /** {@link #stopWatchingInput()} as a task, made once: a task per call would be garbage on a hot path. */
    private final Runnable stopWatchingInput = this::stopWatchingInput;

    /** Progress thread: the other half of {@link #stopEngineReads}. */
    private void stopWatchingInput() {
        switch (reading.afterWaitBegan()) {
            case INTEREST_OFF -> changeInterest(0, SelectionKey.OP_READ);
            case INTEREST_OFF_AND_WATCH -> {
                changeInterest(0, SelectionKey.OP_READ);
                watchForHandback();
            }
            case WATCH -> watchForHandback();
            case NOTHING -> { }
        }
    }

    /** {@link #watchForHandback()} as a task, made once. */
    private final Runnable watchForHandback = this::watchForHandback;

    /** Progress thread: tick this connection until it is idle long enough to take its reading back. */
    private void watchForHandback() {
        if (reading.watch(System.nanoTime())) {
            progress.watchHandback(this);
        }
    }

    /**
     * From now on the connection progresses while no thread waits: its reading comes back to
     * the progress thread after the usual quiet.
     */
    @Override
    public void progressWhileIdle() {
        if (reading.progressWhileIdle()) {
            progress.executeSoon(watchForHandback);
        }
    }

    /**
     * Receives what the socket holds, without blocking, when neither the progress thread nor
     * another thread does: what a caller asking what it could read without waiting must see,
     * since a connection used through its streams alone is read only by its waiting threads.
     */
    @Override
    public void receiveAvailable() {
        // The holder may be this very thread, in the middle of what it received (available() in
        // a completion's callback): it must not receive again there.
        if (reading.engineReads() || closed || receiveLock.isHeldByCurrentThread() || !receiveLock.tryLock()) {
            return;
        }
        try {
            receiveHeld();
        } finally {
            receiveLock.unlock();
        }
        signalWaiters();  // what we received may be what a waiter waits for
    }

    /**
     * Called by the progress thread on its tick: takes reading back once no application thread
     * has waited for a while ({@link ReadingOwnership#tick}).
     *
     * @param now the tick's time ({@link System#nanoTime}), read once for all connections
     */
    ReadingOwnership.Tick handbackIfIdle(long now) {
        ReadingOwnership.Tick tick = reading.tick(now, closed);
        switch (tick) {
            case LEFT_TO_READERS -> changeInterest(0, SelectionKey.OP_READ);
            case TAKEN_BACK -> {
                changeInterest(SelectionKey.OP_READ, 0);
                onReadable();  // what arrived while nobody watched
            }
            default -> { }
        }
        return tick;
    }

    /**
     * Reads and processes until the socket is drained. A read that returns less than it asked
     * for has drained it (the next readiness event brings the rest), which saves the system call
     * that would only say "nothing more".
     */
    private long receiveWhilePossible() throws IOException {
        long total = 0;
        while (!closed) {
            if (staging.hasRemaining()) {
                processStaged();
                continue;
            }
            int direct = queuePair.directCapacity();
            int asked;
            int n;
            if (direct >= DIRECT_READ_MIN) {
                ByteBuffer target = queuePair.directTarget();
                int limit = target.limit();
                target.limit(target.position() + direct);
                asked = direct;
                try {
                    n = transport.read(target);
                    queuePair.counters().socketRead();
                } finally {
                    target.limit(limit);
                }
                if (n > 0) {
                    processPlacedDirectly(n);
                }
            } else {
                staging.clear();
                int wanted = queuePair.stagedReadLength();  // while large FPDUs come, little: see SegmentReader
                if (wanted < staging.capacity()) {
                    staging.limit(wanted);
                }
                asked = staging.remaining();
                try {
                    n = transport.read(staging);
                    queuePair.counters().socketRead();
                } finally {
                    staging.flip();
                }
            }
            if (n == 0) {
                return total;
            }
            if (n < 0) {
                endOfStream();
                return total;
            }
            total += n;
            queuePair.counters().bytesReceived(n);
            if (n < asked) {
                if (staging.hasRemaining()) {
                    processStaged();
                }
                return total;
            }
        }
        return total;
    }

    private void endOfStream() {
        if (!closing && queuePair.peerClosedMidFpdu()) {
            return;  // a Terminate goes out; closeRequested then half-closes and closes
        }
        if (!closing && !queuePair.endedByOurTerminate()) {
            // (After a Terminate of ours the peer's close is its answer, in the instant before
            // our own close: the stream's calls then fail with our reason, not as after a close.)
            endedByPeerClose = true;
            // Before the flush: a reader woken by it must already know this is end of stream.
            endListener.connectionEnded(true, false, "the peer closed the connection");
            lost("the peer closed the connection");
        }
        closeNow();
    }

    /** Whether the connection ended because the peer closed TCP (not by a Terminate or error). */
    boolean endedByPeerClose() {
        return endedByPeerClose;
    }

    // ---- ending -------------------------------------------------------------------------

    /**
     * The queue pair is done (it sent or received a Terminate): half-close so that the peer
     * reads everything we sent, then close when the peer closes, or after a linger.
     */
    @Override
    public void closeRequested() {
        if (closing) {
            return;
        }
        closing = true;
        try {
            channel.shutdownOutput();
        } catch (IOException e) {
            closeNow();
            return;
        }
        progress.schedule(TERMINATE_LINGER_MILLIS, this::closeNow);
    }

    /**
     * The application closed the socket: the connection ends at once. TCP closes as the JDK's
     * Socket closes it, output shut down first so that the peer reads our FIN; and while the
     * peer has not closed, it lingers ({@link LingeringClose}), so that what the peer's engine
     * still sends cannot reset the socket before our last bytes are out. SO_LINGER 0 resets at
     * once, as it does over TCP; a connection that had already ended closes at once.
     */
    void close() {
        if (queuePair == null) {  // setting up failed before the queue pair: nothing ever ran
            closed = true;
            memory.release();
            return;
        }
        boolean endedBefore = closed;
        queuePair.close();
        sendTheEndingTerminate();
        closeNow();
        releaseMemoryWhenQuiet();
        boolean reset;
        try {
            reset = !channel.isConnected() || channel.getOption(StandardSocketOptions.SO_LINGER) == 0;
        } catch (IOException | RuntimeException e) {
            reset = true;
        }
        if (!reset && !endedBefore) {
            LingeringClose.begin(channel, progress);
            return;
        }
        try {
            if (!reset) {
                channel.shutdownOutput();
            }
        } catch (IOException | RuntimeException ignored) {
            // closing anyway
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing: nothing left to tell
        }
    }

    /**
     * A Terminate the queue pair queued as it ended is owed to the peer (RFC 5040 section 7),
     * even when the application closes in the instant between its queuing and its sending (it
     * may learn of the end first, from a failed call). Taking the transmit lock waits for a
     * thread that is writing it right now; then one more non-blocking attempt writes what is left.
     */
    private void sendTheEndingTerminate() {
        if (closing || transmitter.blocked() || !queuePair.endedByOurTerminate()) {  // closing: it went out already
            return;
        }
        // Bounded: whoever holds the lock is writing without blocking, and the close must not hang.
        transmitter.flushBeforeClose(50);
    }

    /**
     * The application closed the socket: the connection's memory goes back to the pool, once
     * nothing can touch it again. That is when this thread holds both locks and the connection
     * is closed: every receive and transmit checks {@link #closed} under its lock before it
     * touches staging, arena or a stream buffer (the stream's reads were closed before this).
     * Tried, never waited for (a thread inside select holds the receive lock until woken); a
     * thread already inside receive or transmit work further up its stack leaves it to the
     * progress thread.
     */
    private void releaseMemoryWhenQuiet() {
        if (!receiveLock.isHeldByCurrentThread() && !transmitter.heldByCurrentThread()
                && receiveLock.tryLock()) {
            try {
                if (transmitter.whenQuiet(memory::release)) {
                    return;
                }
            } finally {
                receiveLock.unlock();
            }
        }
        progress.schedule(1, this::releaseMemoryWhenQuiet);
    }

    private void lost(String reason) {
        queuePair.connectionLost(reason);
        closeNow();
    }

    private void lost(String reason, IOException cause) {
        String message = cause.getMessage();
        if (message != null && message.contains("Connection reset")) {
            endedByReset = true;
        }
        lost(reason);
    }

    /**
     * Ends the connection: nothing more is read or sent, waiters wake. The channel itself stays
     * open until the application closes the socket, as a TCP socket whose peer went away does:
     * its addresses and options can still be read.
     */
    private void closeNow() {
        if (closed) {
            return;
        }
        closedAtNanos = System.nanoTime();
        closed = true;
        closing = true;
        progress.executeSoon(this::stopWatching);  // a ready key meanwhile finds the connection closed
        String failure = queuePair.failure();
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, "iWARP connection to " + queuePair.counters().peer() + " closed: "
                    + (failure != null ? failure : "closed") + (endedByReset ? " (the peer reset TCP)"
                    : endedByPeerClose ? " (the peer closed TCP)" : ""));
        }
        StatisticsEvents.closed(queuePair.counters());
        queuePair.counters().markClosed();
        endListener.connectionEnded(endedByPeerClose, endedByReset, failure);
        // A gather stuck behind backpressure will never go out: flush its requests. (A thread
        // writing right now finds the channel closed and does the same.)
        transmitter.abandonIfFree();
        signalWaiters();
    }

    /** Progress thread: stop watching the ended connection (its channel may stay open). */
    private void stopWatching() {
        if (key != null) {
            key.cancel();
        }
        giveBackInlineSelector();
    }

    /** The inline Selector goes with the connection, to the spares (on a thread not using it). */
    private void giveBackInlineSelector() {
        if (receiveLock.tryLock()) {
            try {
                idle.giveBackSelector();
            } finally {
                receiveLock.unlock();
            }
        } else {
            progress.schedule(10, this::giveBackInlineSelector);
        }
    }

    boolean isClosed() {
        return closed;
    }

    /**
     * Whether a waiter may give up on an ended connection: every request has completed, or a
     * flush that was due came so late that something is wrong (it is logged; a wait must not
     * hang on it).
     */
    private boolean endedAndSettled() {
        if (!closed) {
            return false;
        }
        if (queuePair.settled()) {
            return true;
        }
        if (System.nanoTime() - closedAtNanos <= SETTLE_LIMIT_NANOS) {
            return false;
        }
        if (!settleGivenUp) {  // once: every later wait on this connection gives up the same way
            settleGivenUp = true;
            LOG.log(System.Logger.Level.WARNING, "iWARP connection to " + queuePair.counters().peer()
                    + " ended with requests that never completed");
        }
        return true;
    }

    private int readInterest() {
        return reading.engineReads() ? SelectionKey.OP_READ : 0;
    }

    private void setInterest(int ops) {
        if (progress.isCurrentThread()) {
            changeInterest(ops, ~ops);
        } else {
            progress.execute(() -> setInterest(ops));
        }
    }

    /**
     * Progress thread: turns the key's {@code on} interests on and its {@code off} ones off. A
     * key that another thread's close cancelled, even between a validity check and the change,
     * has nothing left to watch.
     */
    private void changeInterest(int on, int off) {
        SelectionKey watched = key;
        if (watched == null) {
            return;
        }
        try {
            watched.interestOps((watched.interestOps() | on) & ~off);
        } catch (CancelledKeyException closedMeanwhile) {
            // see above
        }
    }
}

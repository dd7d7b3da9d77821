package io.extsock.core.engine;

import io.extsock.core.memory.DirectBufferPool;
import io.extsock.core.memory.MemoryLease;
import io.extsock.core.verbs.InlineWait;
import io.extsock.core.verbs.QueuePair;
import io.extsock.internal.InterruptShield;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * One IWARP_MODE connection's duty cycle: moves its bytes between its transport and its {@link
 * QueuePair}, on whichever thread is there to do it. It is composed of one part per concern:
 * <ul>
 *   <li>{@link Receiver}: drains the transport into the queue pair (the receive lock);</li>
 *   <li>{@link Transmitter}: frames and writes, on the thread that posted, or on the progress
 *       thread once the transport pushed back (the transmit lock);</li>
 *   <li>{@link ReadingOwnership}: who reads now, the progress thread or the application threads
 *       that wait;</li>
 *   <li>{@link IdleStrategy}: how a thread waits (spin, block, park);</li>
 *   <li>{@link ConnectionEnd}: how the connection ends, in every way it can.</li>
 * </ul>
 *
 * <p>Receive runs where the waiting is. An application thread that must block on this
 * connection (a stream read, a completion-queue wait) runs the receive half itself in {@link
 * #await}, as Agrona's {@code AgentInvoker} runs an agent on the caller's thread: a message then
 * costs one wake-up, as with TCP, and no hand-off. The progress thread runs it for connections
 * nobody waits on, once something must progress while nobody waits ({@link #progressWhileIdle}).
 *
 * <p>State ownership: the staging buffer, the inline Selector and the queue pair's receive
 * side belong to the holder of the receive lock; the gathering write and the queue pair's
 * transmit side to the holder of the {@link Transmitter}'s lock; the selection key, and acting
 * on what {@link ReadingOwnership} decides (interest, hand-back ticks), to the progress thread.
 */
final class ChannelDriver implements QueuePair.Driver, InlineWait {

    /**
     * How long the initiator's RTR (RFC 6581 section 4) may wait, when it is all there is to
     * send, for the application's first message to go out in the same write: a system call and
     * a wake-up of the peer fewer a connection. The application's first wait sends it at once,
     * as the peer may have to see it before it sends what the wait is for.
     */
    private static final long READY_TO_RECEIVE_HOLD_MILLIS = 1;
    /** How often a parked waiter looks, once the connection ended, for the last flush of its requests. */
    private static final long SETTLE_POLL_NANOS = 1_000_000;

    private final SocketChannel channel;
    private final ProgressThread progress;
    /** Drains the transport into the queue pair; its lock is the receive lock. */
    private final Receiver receiver;
    private final ReentrantLock receiveLock;
    /** The direct memory of this connection (and its stream's), given back when the application closes it. */
    private final MemoryLease memory;
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
    /** How the connection ends, in every way it can. */
    private final ConnectionEnd end;

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
        this.transport = new SocketChannelTransport(channel);
        this.receiver = new Receiver(transport, receiving, memory.take().flip());
        this.receiveLock = receiver.lock();
        this.gatherArena = memory.take();
        this.end = new ConnectionEnd(channel, progress, memory, idle, receiveLock, ending);
    }

    /** The longest spin of this connection's waits from now on (its SPIN_MICROS changed). */
    void spinLongest(long nanos) {
        idle.spinLongest(nanos);
    }

    /** Connects the queue pair (which needs this as its driver, hence not in the constructor). */
    void attach(QueuePair queuePair) {
        this.queuePair = queuePair;
        this.transmitter = new Transmitter(transport, queuePair, transmitting, idle, receiveLock, gatherArena);
        receiver.attach(queuePair, transmitter);
        end.attach(queuePair, transmitter);
    }

    /** What the receiver asks of this connection, made once. */
    private final Receiver.Connection receiving = new Receiver.Connection() {
        @Override
        public boolean ended() {
            return end.closed();
        }

        @Override
        public void endOfStream() {
            end.endOfStream();
        }
    };

    /** What the end asks of this connection, made once. */
    private final ConnectionEnd.Connection ending = new ConnectionEnd.Connection() {
        @Override
        public void stopWatching() {
            if (key != null) {
                key.cancel();
            }
        }

        @Override
        public void signalWaiters() {
            ChannelDriver.this.signalWaiters();
        }
    };

    /** What the transmitter asks of this connection, made once. */
    private final Transmitter.Connection transmitting = new Transmitter.Connection() {
        @Override
        public boolean ended() {
            return end.closed();
        }

        @Override
        public void transmitFailed(String reason, IOException cause) {
            if (cause != null) {
                end.lost(reason, cause);
            } else {
                end.lost(reason);
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
    void onEnd(ConnectionEnd.Listener listener) {
        end.onEnd(listener);
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
                if (end.closed()) {
                    return;  // ended while starting (its memory may be given back already)
                }
                receiver.processReadAhead(readAhead);
            } finally {
                receiveLock.unlock();
            }
        }
        // The initiator's RTR alone waits for the application's first message (or wait).
        boolean holdReadyToReceive = queuePair.onlyReadyToReceivePending();
        // Soon, not at once: an application thread that waits reads for itself meanwhile, and what
        // arrives unwatched is read when the key is in (below). A wake-up spared per connection.
        progress.executeSoon(() -> {
            if (end.closed()) {
                return;  // ended while starting: nothing to watch
            }
            try {
                key = channel.register(progress.selector(), SelectionKey.OP_READ, this);
            } catch (ClosedChannelException e) {
                end.closeNow();
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
        if (!end.closed() && queuePair.readyToReceivePending()) {
            transmitPending();
        }
    }

    // ---- transmit -----------------------------------------------------------------------

    @Override
    public void transmitPending() {
        transmitter.request();
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
            receiver.drain();
        } catch (IOException e) {
            end.lost("receiving failed: " + e.getMessage(), e);
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
        end.lost("receiving failed: " + e);
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
                if (end.endedAndSettled()) {
                    return condition.getAsBoolean();
                }
                long remaining = deadline == 0 ? Long.MAX_VALUE : deadline - System.nanoTime();
                if (remaining <= 0) {
                    return false;
                }
                if (!end.closed() && receiveLock.tryLock()) {
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
                        idle.awaitSignal(() -> condition.getAsBoolean() || end.endedAndSettled(), remaining);
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
                if (end.endedAndSettled()) {
                    return condition.getAsBoolean();
                }
                try {
                    // Closed: a flush is due any moment.
                    if (!idle.park(condition, deadline, end.closed() ? SETTLE_POLL_NANOS : 0)) {
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
            if (end.closed()) {
                return;  // nothing more is received (and the staging buffer may be another's now)
            }
            if (receiver.processLeftOver()) {
                return;
            }
            if (!idle.awaitInput(receiver, condition, remainingNanos, doze, queuePair.counters())) {
                return;  // the spin took input, or a signal or the timeout: the caller looks again
            }
            receiver.drain();
        } catch (IOException e) {
            end.lost("receiving failed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            processingFailed(e);
        }
    }

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
        if (reading.engineReads() || end.closed() || receiveLock.isHeldByCurrentThread() || !receiveLock.tryLock()) {
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
        ReadingOwnership.Tick tick = reading.tick(now, end.closed());
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

    /** Whether the connection ended because the peer closed TCP (not by a Terminate or error). */
    boolean endedByPeerClose() {
        return end.endedByPeerClose();
    }

    /**
     * The queue pair is done (it sent or received a Terminate): half-close, then close when the
     * peer closes, or after a linger ({@link ConnectionEnd#closeRequested}).
     */
    @Override
    public void closeRequested() {
        end.closeRequested();
    }

    /** The application closed the socket: the connection ends at once ({@link ConnectionEnd#close}). */
    void close() {
        end.close();
    }

    boolean isClosed() {
        return end.closed();
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

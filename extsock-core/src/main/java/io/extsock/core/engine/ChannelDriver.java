package io.extsock.core.engine;

import io.extsock.core.memory.DirectBufferPool;
import io.extsock.core.memory.MemoryLease;
import io.extsock.core.verbs.InlineWait;
import io.extsock.core.verbs.QueuePair;
import io.extsock.internal.InterruptShield;
import io.extsock.spi.Readiness;
import java.io.IOException;
import java.nio.ByteBuffer;
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
 *   <li>{@link ApplicationWait} and {@link IdleStrategy}: how an application thread waits
 *       (receiving inline: spin, block; or parked), and how a selector watches
 *       ({@link #watchReadiness});</li>
 *   <li>{@link ProgressWatch}: how the progress thread watches (its key, interest, hand-back);</li>
 *   <li>{@link ConnectionEnd}: how the connection ends, in every way it can.</li>
 * </ul>
 *
 * <p>Receive runs where the waiting is. An application thread that must block on this
 * connection (a stream read, a completion-queue wait) runs the receive half itself in {@link
 * #await}, as Agrona's {@code AgentInvoker} runs an agent on the caller's thread: a message then
 * costs one wake-up, as with TCP, and no hand-off. The progress thread runs it for connections
 * nobody waits on, once something must progress while nobody waits ({@link #progressWhileIdle}),
 * and for those that virtual threads or selectors wait on.
 *
 * <p>State ownership: the staging buffer, the inline Selector and the queue pair's receive
 * side belong to the holder of the receive lock; the gathering write and the queue pair's
 * transmit side to the holder of the {@link Transmitter}'s lock; the selection key, and acting
 * on what {@link ReadingOwnership} decides (interest, hand-back ticks), to the progress thread
 * ({@link ProgressWatch}).
 */
final class ChannelDriver implements QueuePair.Driver, InlineWait {

    /**
     * How long the initiator's RTR (RFC 6581 section 4) may wait, when it is all there is to
     * send, for the application's first message to go out in the same write: a system call and
     * a wake-up of the peer fewer a connection. The application's first wait sends it at once,
     * as the peer may have to see it before it sends what the wait is for.
     */
    private static final long READY_TO_RECEIVE_HOLD_MILLIS = 1;

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
    /** How an application thread waits; made when the queue pair is attached. */
    private ApplicationWait waiting;

    private QueuePair queuePair;

    /** Who reads the socket now: the progress thread, or the threads that wait on the connection. */
    private final ReadingOwnership reading = new ReadingOwnership();
    /** The progress thread's watch: its selection key, interest and hand-back ticks. */
    private final ProgressWatch watch;
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
        this.watch = new ProgressWatch(channel, progress, reading, this);
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
        waiting = new ApplicationWait(reading, watch, progress, idle, end, receiver, queuePair.counters());
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
            watch.cancel();
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
            watch.watchForRoom();
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
            if (!watch.register()) {
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
        watch.roomCame();
        transmitter.resume();
    }

    // ---- receive ------------------------------------------------------------------------

    /** Octets arrived (progress thread). */
    void onReadable() {
        if (!receiveLock.tryLock()) {
            // An application thread is reading inline: stop watching, or epoll would spin us.
            if (reading.platformWaiting()) {
                watch.applicationReads();
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
            end.processingFailed(e);
        }
    }

    // ---- waiting: an application thread receives inline ({@link ApplicationWait}) ---------

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
        return InterruptShield.currentIsVirtual()
                ? waiting.parked(condition, timeoutNanos, interruptible)
                : waiting.inline(condition, timeoutNanos, interruptible, doze);
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
     * A selector watches this connection's readiness: {@code changed} is called on every signal
     * (whatever a waiter may wait for changed) until the watch closes; meanwhile the engine reads
     * the connection, as for a parked virtual thread.
     */
    Readiness.Watch watchReadiness(Runnable changed) {
        Runnable registration = changed::run;  // one object per watch: closing one closes no other
        idle.watchers().add(registration);
        if (reading.watchBegins()) {
            watch.handBackWhenQuiet();
        }
        return () -> {
            if (idle.watchers().remove(registration)) {
                reading.watchEnds();
            }
        };
    }

    /**
     * From now on the connection progresses while no thread waits: its reading comes back to
     * the progress thread after the usual quiet.
     */
    @Override
    public void progressWhileIdle() {
        if (reading.progressWhileIdle()) {
            watch.handBackWhenQuiet();
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
        ReadingOwnership.Tick tick = watch.tick(now, end.closed());
        if (tick == ReadingOwnership.Tick.TAKEN_BACK) {
            onReadable();  // what arrived while nobody watched
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
}

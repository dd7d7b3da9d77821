package io.extsock.core.engine;

import io.extsock.core.memory.MemoryLease;
import io.extsock.core.verbs.QueuePair;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How one IWARP_MODE connection ends, in every way it can: a Terminate sent or received (a
 * half-close, then a close when the peer closes or after a linger), the peer's close or reset,
 * a failure of ours, and the application's close (the Terminate still owed to the peer, TCP's
 * lingering close, the memory given back once nothing can touch it). Whatever the way, the end
 * happens once ({@link #closeNow}): nothing more is read or sent, the end's listener hears why,
 * every outstanding request completes and waiters wake.
 */
final class ConnectionEnd {

    private static final System.Logger LOG = System.getLogger(ChannelDriver.class.getName());

    /** How long to wait for the peer's close after we sent a Terminate, before closing anyway. */
    private static final long TERMINATE_LINGER_MILLIS = 2_000;
    /** How long the application's close waits for a thread writing the owed Terminate right now. */
    private static final long OWED_TERMINATE_WAIT_MILLIS = 50;
    /**
     * After the connection ended, how long a waiter waits for the requests a transmitter still
     * held (it flushes them as it lets go, within microseconds).
     */
    private static final long SETTLE_LIMIT_NANOS = 2_000_000_000L;

    /** Hears how the connection ended, before its outstanding work is flushed. */
    interface Listener {
        /**
         * @param peerClosed the peer closed TCP (an orderly end, as far as a stream goes)
         * @param reset the peer reset TCP (what a Socket reports as "Connection reset")
         * @param reason why, in words
         */
        void connectionEnded(boolean peerClosed, boolean reset, String reason);
    }

    /** What the end asks of the rest of the connection. */
    interface Connection {
        /** Progress thread: stop watching the ended connection (its channel may stay open). */
        void stopWatching();

        /** Something waiters wait for happened: let them look again. */
        void signalWaiters();
    }

    private final SocketChannel channel;
    private final ProgressThread progress;
    private final MemoryLease memory;
    private final IdleStrategy idle;
    private final ReentrantLock receiveLock;
    private final Connection connection;
    private QueuePair queuePair;
    private Transmitter transmitter;

    private volatile boolean closing;
    private volatile boolean closed;
    /** When {@link #closed} became true: a waiter waits for the last flush a bounded time. */
    private volatile long closedAtNanos;
    /** A waiter gave up on the requests still due after {@link #SETTLE_LIMIT_NANOS} (logged once). */
    private volatile boolean settleGivenUp;
    private volatile boolean endedByPeerClose;
    /** The connection ended because the peer reset it (ECONNRESET): TCP's own end, not ours. */
    private volatile boolean endedByReset;
    private volatile Listener listener = (peerClosed, reset, reason) -> { };

    ConnectionEnd(SocketChannel channel, ProgressThread progress, MemoryLease memory, IdleStrategy idle,
                  ReentrantLock receiveLock, Connection connection) {
        this.channel = channel;
        this.progress = progress;
        this.memory = memory;
        this.idle = idle;
        this.receiveLock = receiveLock;
        this.connection = connection;
    }

    void attach(QueuePair queuePair, Transmitter transmitter) {
        this.queuePair = queuePair;
        this.transmitter = transmitter;
    }

    /** Called when the connection ends (possibly more than once: listeners are idempotent). */
    void onEnd(Listener listener) {
        this.listener = listener;
    }

    /** Whether the connection ended: nothing more is read or sent. */
    boolean closed() {
        return closed;
    }

    /** Whether the connection ended because the peer closed TCP (not by a Terminate or error). */
    boolean endedByPeerClose() {
        return endedByPeerClose;
    }

    /**
     * The queue pair is done (it sent or received a Terminate): half-close so that the peer
     * reads everything we sent, then close when the peer closes, or after a linger.
     */
    void closeRequested() {
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

    /** The peer closed its side of the transport. */
    void endOfStream() {
        if (!closing && queuePair.peerClosedMidFpdu()) {
            return;  // a Terminate goes out; closeRequested then half-closes and closes
        }
        if (!closing && !queuePair.endedByOurTerminate()) {
            // (After a Terminate of ours the peer's close is its answer, in the instant before
            // our own close: the stream's calls then fail with our reason, not as after a close.)
            endedByPeerClose = true;
            // Before the flush: a reader woken by it must already know this is end of stream.
            listener.connectionEnded(true, false, "the peer closed the connection");
            lost("the peer closed the connection");
        }
        closeNow();
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
        sendTheOwedTerminate();
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
     * may learn of the end first, from a failed call).
     */
    private void sendTheOwedTerminate() {
        if (closing || transmitter.blocked() || !queuePair.endedByOurTerminate()) {  // closing: it went out already
            return;
        }
        transmitter.flushBeforeClose(OWED_TERMINATE_WAIT_MILLIS);
    }

    /**
     * The application closed the socket: the connection's memory goes back to the pool, once
     * nothing can touch it again. That is when this thread holds both locks and the connection
     * is closed: every receive and transmit checks that under its lock before it touches
     * staging, arena or a stream buffer (the stream's reads were closed before this). Tried,
     * never waited for (a thread inside select holds the receive lock until woken); a thread
     * already inside receive or transmit work further up its stack leaves it to the progress
     * thread.
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

    /** The connection is lost: every outstanding request fails with the reason, and it ends. */
    void lost(String reason) {
        queuePair.connectionLost(reason);
        closeNow();
    }

    /** As {@link #lost(String)}, for a failure of the transport (a reset is TCP's own end, said so). */
    void lost(String reason, IOException cause) {
        String message = cause.getMessage();
        if (message != null && message.contains("Connection reset")) {
            endedByReset = true;
        }
        lost(reason);
    }

    /**
     * A fault of ours while processing what arrived (protocol violations are not runtime
     * exceptions: they end in a Terminate). Left alone, the connection would stop reading and
     * both ends would wait forever: end it loudly instead.
     */
    void processingFailed(RuntimeException e) {
        LOG.log(System.Logger.Level.ERROR, "iWARP receive processing failed", e);
        lost("receiving failed: " + e);
    }

    /**
     * Ends the connection: nothing more is read or sent, waiters wake. The channel itself stays
     * open until the application closes the socket, as a TCP socket whose peer went away does:
     * its addresses and options can still be read.
     */
    void closeNow() {
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
        listener.connectionEnded(endedByPeerClose, endedByReset, failure);
        // A gather stuck behind backpressure will never go out: flush its requests. (A thread
        // writing right now finds the connection ended and does the same.)
        transmitter.abandonIfFree();
        connection.signalWaiters();
    }

    /** Progress thread: stop watching the ended connection; its inline Selector goes to the spares. */
    private void stopWatching() {
        connection.stopWatching();
        giveBackInlineSelector();
    }

    /** On a thread not using it: the inline Selector goes with the connection, to the spares. */
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

    /**
     * Whether a waiter may give up on an ended connection: every request has completed, or a
     * flush that was due came so late that something is wrong (it is logged; a wait must not
     * hang on it).
     */
    boolean endedAndSettled() {
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
}

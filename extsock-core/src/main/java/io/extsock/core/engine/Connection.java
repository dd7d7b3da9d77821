package io.extsock.core.engine;

import io.extsock.core.mpa.GatherWrite;
import io.extsock.core.verbs.QueuePair;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Moves the bytes of one IWARP_MODE connection between its channel (non-blocking) and its
 * {@link QueuePair}.
 *
 * <p>Transmit runs on whichever thread has something to send: the application thread that
 * posted a request frames and writes it itself when the transmit lock is free (no hand-off,
 * no wake-up); only when the socket pushes back does the progress thread take over, on
 * OP_WRITE. Receive runs on the progress thread, on OP_READ; large payloads are read from the
 * socket straight into their registered destination, everything else through a staging buffer.
 *
 * <p>State ownership: the staging buffer and the queue pair's receive side belong to the
 * holder of {@link #receiveLock}; the gathering write and the queue pair's transmit side to the
 * holder of {@link #transmitLock}; the selection key to the progress thread.
 */
final class Connection implements QueuePair.Driver {

    /** Staging for received octets: headers, small payloads, read-ahead. */
    private static final int STAGING_BYTES = 64 * 1024;
    /** Payloads at least this large are read straight into their destination. */
    private static final int DIRECT_READ_MIN = 4 * 1024;
    /** How long to wait for the peer's close after we sent a Terminate, before closing anyway. */
    private static final long TERMINATE_LINGER_MILLIS = 2_000;

    private final SocketChannel channel;
    private final ProgressThread progress;
    private final ReentrantLock receiveLock = new ReentrantLock();
    private final ReentrantLock transmitLock = new ReentrantLock();
    private final ByteBuffer staging = ByteBuffer.allocateDirect(STAGING_BYTES).flip();
    private final GatherWrite gather = new GatherWrite(256, 64 * 1024);

    private QueuePair queuePair;
    private SelectionKey key;
    private volatile boolean transmitRequested;
    private volatile boolean writeBlocked;
    private volatile boolean closing;
    private volatile boolean closed;
    private volatile boolean endedByPeerClose;
    private volatile EndListener endListener = (peerClosed, reason) -> { };

    /** Hears how the connection ended, before its outstanding work is flushed. */
    interface EndListener {
        /**
         * @param peerClosed the peer closed TCP (an orderly end, as far as a stream goes)
         * @param reason why, in words
         */
        void connectionEnded(boolean peerClosed, String reason);
    }

    Connection(SocketChannel channel, ProgressThread progress) {
        this.channel = channel;
        this.progress = progress;
    }

    /** Connects the queue pair (which needs this as its driver, hence not in the constructor). */
    void attach(QueuePair queuePair) {
        this.queuePair = queuePair;
    }

    /** Called when the connection ends (possibly more than once: listeners are idempotent). */
    void onEnd(EndListener listener) {
        this.endListener = listener;
    }

    QueuePair queuePair() {
        return queuePair;
    }

    /**
     * Starts full operation: the FPDU octets read ahead during MPA setup are processed first,
     * then the progress thread watches the channel.
     */
    void start(byte[] readAhead) throws IOException {
        channel.configureBlocking(false);
        if (readAhead.length > 0) {
            receiveLock.lock();
            try {
                staging.clear();
                staging.put(readAhead).flip();
                queuePair.receive(staging);
            } finally {
                receiveLock.unlock();
            }
        }
        progress.execute(() -> {
            try {
                key = channel.register(progress.selector(), SelectionKey.OP_READ, this);
            } catch (ClosedChannelException e) {
                closeNow();
                return;
            }
            onReadable();  // octets may have arrived while we were not watching
        });
        transmitPending();
    }

    // ---- transmit -----------------------------------------------------------------------

    @Override
    public void transmitPending() {
        transmitRequested = true;
        if (!writeBlocked) {
            transmit();
        }
    }

    /** The socket can take more: the progress thread continues where transmit stopped. */
    void onWritable() {
        writeBlocked = false;
        setInterest(SelectionKey.OP_READ);
        transmitRequested = true;
        transmit();
    }

    private void transmit() {
        while (transmitRequested && !closed && transmitLock.tryLock()) {
            try {
                transmitRequested = false;
                transmitWhilePossible();
            } catch (IOException e) {
                lost("sending failed: " + e.getMessage());
            } finally {
                transmitLock.unlock();
            }
            if (writeBlocked) {
                return;
            }
        }
    }

    private void transmitWhilePossible() throws IOException {
        while (!closed) {
            if (gather.count() > 0) {
                if (!writeGather()) {
                    writeBlocked = true;
                    progress.execute(() -> setInterest(SelectionKey.OP_READ | SelectionKey.OP_WRITE));
                    return;
                }
                gather.reset();
                queuePair.transmitted();
            }
            if (!queuePair.frame(gather)) {
                return;
            }
        }
    }

    /** Writes the gather; false if the socket took only part of it. */
    private boolean writeGather() throws IOException {
        while (true) {
            int first = gather.firstPending();
            if (first == gather.count()) {
                return true;
            }
            if (channel.write(gather.buffers(), first, gather.count() - first) == 0) {
                return gather.remaining() == 0;
            }
        }
    }

    // ---- receive ------------------------------------------------------------------------

    /** Octets arrived (progress thread). */
    void onReadable() {
        if (!receiveLock.tryLock()) {
            return;
        }
        try {
            receiveWhilePossible();
        } catch (IOException e) {
            lost("receiving failed: " + e.getMessage());
        } finally {
            receiveLock.unlock();
        }
    }

    private void receiveWhilePossible() throws IOException {
        while (!closed) {
            if (staging.hasRemaining()) {
                queuePair.receive(staging);
                continue;
            }
            int direct = queuePair.directCapacity();
            int n;
            if (direct >= DIRECT_READ_MIN) {
                ByteBuffer target = queuePair.directTarget();
                int limit = target.limit();
                target.limit(target.position() + direct);
                try {
                    n = channel.read(target);
                } finally {
                    target.limit(limit);
                }
                if (n > 0) {
                    queuePair.placedDirectly(n);
                }
            } else {
                staging.clear();
                try {
                    n = channel.read(staging);
                } finally {
                    staging.flip();
                }
            }
            if (n == 0) {
                return;
            }
            if (n < 0) {
                endOfStream();
                return;
            }
        }
    }

    private void endOfStream() {
        if (!closing) {
            endedByPeerClose = true;
            // Before the flush: a reader woken by it must already know this is end of stream.
            endListener.connectionEnded(true, "the peer closed the connection");
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

    /** The application closed the socket: end at once. */
    void close() {
        queuePair.close();
        closeNow();
    }

    private void lost(String reason) {
        queuePair.connectionLost(reason);
        closeNow();
    }

    private void closeNow() {
        if (closed) {
            return;
        }
        closed = true;
        closing = true;
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing: nothing left to tell
        }
        endListener.connectionEnded(endedByPeerClose, queuePair.failure());
    }

    boolean isClosed() {
        return closed;
    }

    private void setInterest(int ops) {
        if (progress.isCurrentThread()) {
            if (key != null && key.isValid()) {
                key.interestOps(ops);
            }
        } else {
            progress.execute(() -> setInterest(ops));
        }
    }
}

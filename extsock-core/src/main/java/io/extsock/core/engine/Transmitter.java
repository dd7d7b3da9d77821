package io.extsock.core.engine;

import io.extsock.core.mpa.FpduFramer;
import io.extsock.core.mpa.GatherWrite;
import io.extsock.core.rdmap.MessageWriter;
import io.extsock.core.verbs.QueuePair;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The transmit half of one connection's duty cycle: frames what the queue pair has to send into
 * a gathering write and writes it, on whichever thread has something to send. The thread that
 * posted frames and writes itself when the transmit lock is free (no hand-off, no wake-up);
 * only when the transport pushes back does the progress thread continue, once it is writable.
 *
 * <p>What processing a read finds to send (a Read Response per Read Request, credits, the next
 * Read) goes out a few messages at a time ({@link #TRANSMIT_EVERY_FOUND}) and the rest once the
 * read is processed: fewer system calls, while the peer, whose next messages may wait for these,
 * still gets work while the rest is processed.
 *
 * <p>The gathering write and the queue pair's transmit side belong to the holder of the
 * transmit lock.
 */
final class Transmitter {

    /**
     * Slots of the gathering write: at least room for the largest FPDU there is. With markers a
     * 64 KiB FPDU takes about 2 slots per marker (RFC 5044 section 4.3: one every 512 octets),
     * more than 256; a gather that cannot hold one FPDU can never send it.
     */
    static final int GATHER_SLOTS =
            Math.max(256, FpduFramer.maxSlotsPerFpdu(MessageWriter.PAYLOAD_SLICES_PER_SEGMENT));
    /**
     * Transmits found while processing a read go out together once this many are found. Measured
     * with read_bw at 4 KiB (ORD 16), one JVM against two: one write per message found 888 and
     * 713 MB/s, every 2 1,387 and 985, every 4 1,546 and 1,137, every 8 876 and 1,067, all at the
     * read's end 757 and 1,045.
     */
    static final int TRANSMIT_EVERY_FOUND = 4;

    /** What the transmitter needs of its connection. */
    interface Connection {
        /** Whether the connection ended: nothing more goes out. */
        boolean ended();

        /** Sending failed (the transport's error) or a message could not be framed: the connection is lost. */
        void transmitFailed(String reason, IOException cause);

        /** Something went out, or failed: send completions may be what a waiter waits for. */
        void transmitted();

        /** The transport took only part of the gather: watch it for room (the progress thread continues). */
        void watchForRoom();
    }

    private final ByteTransport transport;
    private final QueuePair queuePair;
    private final Connection connection;
    private final IdleStrategy idle;
    /** Whose holder processes what was read (see {@link #processing}). */
    private final ReentrantLock receiveLock;
    private final ReentrantLock lock = new ReentrantLock();
    /** Its arena is one block of the connection's memory. */
    private final GatherWrite gather;

    private volatile boolean requested;
    private volatile boolean blocked;
    /** The receive lock's holder is processing what it read: transmits wait (see {@link #request}). */
    private boolean processingReceived;
    /** What processing found to send and has not sent yet; receive lock. */
    private boolean sendAfterProcessing;
    /** Transmits found while processing since the last one went out; receive lock. */
    private int foundWhileProcessing;

    Transmitter(ByteTransport transport, QueuePair queuePair, Connection connection, IdleStrategy idle,
                ReentrantLock receiveLock, ByteBuffer arena) {
        this.transport = transport;
        this.queuePair = queuePair;
        this.connection = connection;
        this.idle = idle;
        this.receiveLock = receiveLock;
        this.gather = new GatherWrite(GATHER_SLOTS, arena);
    }

    /** There is something to send: sent now from this thread if it can, or batched, or by the lock's holder. */
    void request() {
        requested = true;
        if (processingReceived && receiveLock.isHeldByCurrentThread()) {
            // Found while processing what was read: it goes out with what the next few messages
            // find, in one gathering write, not a system call per message found.
            if (++foundWhileProcessing < TRANSMIT_EVERY_FOUND) {
                sendAfterProcessing = true;
                return;
            }
            foundWhileProcessing = 0;  // the few found go out now, with this one
            sendAfterProcessing = false;
        }
        if (!blocked) {
            transmit();
        }
    }

    /**
     * Holding the receive lock: runs the processing of what was read, batching what it finds
     * to send, and sends the rest once it is done.
     */
    void processing(Runnable processReceived) {
        processingReceived = true;
        try {
            processReceived.run();
        } finally {
            processingReceived = false;
            foundWhileProcessing = 0;
            if (sendAfterProcessing) {
                sendAfterProcessing = false;
                if (!blocked) {
                    transmit();
                }
            }
        }
    }

    /** The transport has room again (progress thread): continue where transmit stopped. */
    void resume() {
        blocked = false;
        requested = true;
        transmit();
    }

    /** Whether the transport pushed back and the progress thread waits for room. */
    boolean blocked() {
        return blocked;
    }

    private void transmit() {
        while (requested && !connection.ended() && lock.tryLock()) {
            try {
                requested = false;
                transmitWhilePossible();
            } catch (IOException e) {
                abandon("sending failed: " + e.getMessage());
                connection.transmitFailed("sending failed: " + e.getMessage(), e);
            } catch (RuntimeException e) {
                // A message that cannot be framed stays at the head of the send queue, and
                // nothing after it goes out: the peer would wait forever. End it loudly instead.
                System.getLogger(ChannelDriver.class.getName()).log(System.Logger.Level.ERROR,
                        "iWARP framing failed", e);
                abandon("framing failed: " + e.getMessage());
                connection.transmitFailed("framing failed: " + e.getMessage(), null);
            } finally {
                unlock();
            }
            connection.transmitted();
            if (blocked) {
                return;
            }
        }
    }

    private void transmitWhilePossible() throws IOException {
        while (true) {
            if (connection.ended()) {
                abandon(null);
                return;
            }
            if (gather.count() > 0) {
                if (!writeGather()) {
                    blocked = true;
                    connection.watchForRoom();
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

    /** Writes the gather; false if the transport took only part of it. */
    private boolean writeGather() throws IOException {
        while (true) {
            int first = gather.firstPending();
            if (first == gather.count()) {
                return true;
            }
            int pending = gather.count() - first;
            // One buffer (a small message framed whole in the arena): the JDK's single-buffer
            // write, a plain write(2), skips the iovec array a gathering write fills each time.
            long written = pending == 1
                    ? transport.write(gather.buffers()[first])
                    : transport.write(gather.buffers(), first, pending);
            queuePair.counters().socketWrite();
            if (written == 0) {
                return gather.remaining() == 0;
            }
            idle.transmitted();
            queuePair.counters().bytesSent(written);
        }
    }

    /**
     * The connection is closing with a Terminate of ours queued: one more non-blocking attempt
     * writes what is left. Taking the lock waits, a bounded time, for a thread that is writing
     * it right now (it writes without blocking, and the close must not hang).
     */
    void flushBeforeClose(long waitMillis) {
        try {
            if (!lock.tryLock(waitMillis, TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        try {
            if (!connection.ended()) {
                transmitWhilePossible();
            }
        } catch (IOException | RuntimeException e) {
            abandon("sending failed: " + e.getMessage());  // closing anyway
        } finally {
            unlock();
        }
    }

    /** The connection ended: a gather stuck behind backpressure will never go out; its requests flush. */
    void abandonIfFree() {
        if (lock.tryLock()) {
            try {
                abandon(null);
            } finally {
                unlock();
            }
        }
    }

    /**
     * Runs {@code action} holding the transmit lock, once the gather is abandoned, if the lock is
     * free and this thread is not transmitting further up its stack.
     *
     * @return whether it ran
     */
    boolean whenQuiet(Runnable action) {
        if (lock.isHeldByCurrentThread() || !lock.tryLock()) {
            return false;
        }
        try {
            abandon(null);  // closed: whatever it holds will never go out
            action.run();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Whether this thread transmits, further up its stack. */
    boolean heldByCurrentThread() {
        return lock.isHeldByCurrentThread();
    }

    /**
     * Releases the lock. The connection may have ended while it was held: its end could then
     * not take the lock to flush the gather ({@link #abandonIfFree}), so the releaser does, or
     * the requests in it would never complete. (The end is said before the lock is tried, and a
     * releaser looks after unlocking: one of the two always sees the other.)
     */
    private void unlock() {
        lock.unlock();
        if (connection.ended() && lock.getHoldCount() == 0 && lock.tryLock()) {
            try {
                abandon(null);
            } finally {
                lock.unlock();
            }
            connection.transmitted();
        }
    }

    /** Holding the lock: a gather that will never go out whole; its requests flush. */
    private void abandon(String reason) {
        if (gather.count() > 0) {
            gather.reset();
            queuePair.transmitAborted(reason);
        }
    }
}

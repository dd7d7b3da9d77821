package io.extsock.core.engine;

import io.extsock.core.verbs.QueuePair;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The receive half of one connection's duty cycle: drains the transport into the queue pair.
 * Large payloads are read straight into their registered destination (with CRCs, into the hold
 * where their FPDU waits for its check), everything else through a staging buffer; while large
 * FPDUs come, the reads into staging are kept short so that their bulk is read directly ({@code
 * QueuePair.stagedReadLength}).
 *
 * <p>The staging buffer and the queue pair's receive side belong to the holder of {@link #lock}:
 * an application thread that waits on the connection, or the progress thread.
 */
final class Receiver implements SpinPolling.Input {

    /** Payloads at least this large are read straight into their destination. */
    static final int DIRECT_READ_MIN = 4 * 1024;

    /** What the receiver needs of its connection. */
    interface Connection {
        /** Whether the connection ended: nothing more is received (and staging may be another's now). */
        boolean ended();

        /** The peer closed its side of the transport. */
        void endOfStream();
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final ByteTransport transport;
    private final Connection connection;
    /** Staging for received octets: headers, small payloads, read-ahead. One block of the connection's memory. */
    private final ByteBuffer staging;
    private QueuePair queuePair;
    private Transmitter transmitter;
    /** The count {@link #processPlaced} processes; receive lock. */
    private int placedCount;
    /** The processing of staged and of directly placed octets, made once: garbage on a hot path otherwise. */
    private final Runnable processStaged = this::receiveStaged;
    private final Runnable processPlaced = this::receivePlaced;

    /** @param staging an empty buffer ({@code flip}ped: nothing to process) */
    Receiver(ByteTransport transport, Connection connection, ByteBuffer staging) {
        this.transport = transport;
        this.connection = connection;
        this.staging = staging;
    }

    /** Connects the queue pair, and the transmitter that sends what processing finds. */
    void attach(QueuePair queuePair, Transmitter transmitter) {
        this.queuePair = queuePair;
        this.transmitter = transmitter;
    }

    ReentrantLock lock() {
        return lock;
    }

    /** Holding the lock: processes octets read before the connection started (with the MPA frame). */
    void processReadAhead(byte[] readAhead) {
        staging.clear();
        staging.put(readAhead).flip();
        processStaged();
    }

    /** Holding the lock: processes what a read left in staging, if anything; returns whether there was. */
    boolean processLeftOver() {
        if (!staging.hasRemaining()) {
            return false;
        }
        processStaged();
        return true;
    }

    /** Holding the lock: a spin's poll ({@link SpinPolling}). */
    @Override
    public long poll() throws IOException {
        return drain();
    }

    @Override
    public boolean closed() {
        return connection.ended();
    }

    /**
     * Holding the lock: reads and processes until the transport is drained. A read that returns
     * less than it asked for has drained it (the next readiness event brings the rest), which
     * saves the system call that would only say "nothing more".
     *
     * @return the octets read
     */
    long drain() throws IOException {
        long total = 0;
        while (!connection.ended()) {
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
                    placedCount = n;
                    transmitter.processing(processPlaced);
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
                connection.endOfStream();
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

    /**
     * Processes the staged octets; what that finds to send (a Read Response per Read Request,
     * the next Read once one completed, credits) goes out a few messages at a time, and the rest
     * once the read is processed, so that a long run of arrivals delays nothing by more than one
     * read's processing.
     */
    private void processStaged() {
        transmitter.processing(processStaged);
    }

    private void receiveStaged() {
        queuePair.receive(staging);
    }

    private void receivePlaced() {
        queuePair.placedDirectly(placedCount);
    }
}

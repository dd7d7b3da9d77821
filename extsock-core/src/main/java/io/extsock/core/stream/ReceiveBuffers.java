package io.extsock.core.stream;

import io.extsock.core.events.ExtsockEvents;
import io.extsock.core.memory.DirectBufferPool;
import io.extsock.core.memory.MemoryBudget;
import io.extsock.core.memory.MemoryLease;
import io.extsock.core.verbs.QueuePair;
import io.extsock.core.verbs.QueuePairClosedException;
import java.nio.ByteBuffer;

/**
 * A stream's receive buffers: taken from the connection's {@link MemoryLease}, posted on the
 * queue pair (each incoming stream Send fills one), posted again once read out, and more of them
 * when the window grows ({@link WindowGrowth} decides when). The base always comes from the
 * lease; growth only as far as the JVM-wide budget allows ({@link DirectBufferPool}), and
 * refused, the window stays as it is and the stream works on, slower.
 *
 * <p>Counts are guarded by the {@link StreamInput}'s monitor, which readers find the buffers
 * published under.
 */
final class ReceiveBuffers {

    private static final System.Logger LOG = System.getLogger(StreamInput.class.getName());

    private final StreamInput input;
    private final QueuePair queuePair;
    private final ByteBuffer[] buffers;
    private final int bufferSize;
    /** Where the buffers come from; the connection gives them back once it is closed and quiet. */
    private final MemoryLease memory;
    private final WindowGrowth growth;
    private final OwedCredits credits;
    /** Buffers allocated (and posted, or about to be): the first {@code allocated} of {@link #buffers}. */
    private int allocated;
    /** Buffers the peer has been given credits for: allocated and posted. */
    private int posted;

    /**
     * @param receiveBuffers the buffers to start with (the peer was told this many)
     * @param maxReceiveBuffers how far the window may grow
     * @param memory the connection's lease; its blocks hold at least {@code bufferSize} octets
     */
    ReceiveBuffers(StreamInput input, QueuePair queuePair, int receiveBuffers, int maxReceiveBuffers, int bufferSize,
                   MemoryLease memory, OwedCredits credits) {
        this.input = input;
        this.queuePair = queuePair;
        this.bufferSize = bufferSize;
        this.memory = memory;
        this.credits = credits;
        this.buffers = new ByteBuffer[maxReceiveBuffers];
        this.growth = new WindowGrowth(maxReceiveBuffers, bufferSize - StreamHeader.LENGTH);
        for (int i = 0; i < receiveBuffers; i++) {
            buffers[i] = receiveBuffer(memory.take());
        }
        this.allocated = receiveBuffers;
    }

    /** Posts the first receive buffers; before the connection starts, so no peer Send finds none. */
    void postAll() throws QueuePairClosedException {
        for (int i = 0; i < allocated; i++) {
            queuePair.postInternalReceive(buffers[i].clear(), i, input);
        }
        synchronized (input) {
            posted = allocated;
        }
        queuePair.counters().streamWindow(windowOctets(allocated));
    }

    /** Buffer {@code index}: published before it was posted (the queue pair's lock orders the two). */
    ByteBuffer get(int index) {
        return buffers[index];
    }

    /** Under the monitor: the buffers posted, the window the peer may fill. */
    int posted() {
        return posted;
    }

    /** Under the monitor: the buffers there are, posted or about to be. */
    int allocated() {
        return allocated;
    }

    /** Under the monitor: a DATA Send carried {@code octets} of payload. */
    void recordPayload(int octets) {
        growth.recordPayload(octets);
    }

    /**
     * Under the monitor, as a DATA Send takes a buffer of its own: claims the buffers the window
     * is to grow by (their credits decided on), for {@link #grow} to take and post.
     *
     * @param waited whether its writer waited for credits first
     * @return the buffers to grow to; the buffers there are, for no growth
     */
    int claimGrowth(boolean waited) {
        int wanted = growth.growTo(waited, allocated, posted);
        if (wanted > allocated) {
            credits.decided(wanted - allocated);
            allocated = wanted;
        }
        return allocated;
    }

    /**
     * Takes buffers {@code from} up to {@code wanted} from the lease (as many as the budget
     * grants), posts them, and owes the peer their credits.
     *
     * @return whether the window grew (a CREDIT is to tell the peer)
     */
    boolean grow(int from, int wanted) {
        ByteBuffer[] blocks = new ByteBuffer[wanted - from];
        int to;
        synchronized (input) {  // under the monitor: readers find the new buffers published
            int granted = memory.tryTake(blocks, blocks.length);
            for (int i = 0; i < granted; i++) {
                buffers[from + i] = receiveBuffer(blocks[i]);
            }
            to = from + granted;
            allocated = to;  // the claim was up to wanted; what was not granted is not there
            if (to < wanted) {
                growth.refused();
                credits.withdrawn(wanted - to);
            }
        }
        if (to < wanted) {
            refused(from, wanted, to);
        }
        if (to == from) {
            return false;
        }
        try {
            for (int i = from; i < to; i++) {
                queuePair.postInternalReceive(buffers[i].clear(), i, input);
            }
        } catch (QueuePairClosedException e) {
            return false;  // the connection ended; nothing more will arrive
        }
        synchronized (input) {
            posted = to;
            credits.grown(to - from);
        }
        String peer = queuePair.counters().peer();
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, "stream window for " + peer + " grown from " + windowOctets(from)
                    + " to " + windowOctets(to) + " bytes (" + to + " buffers): the peer's writer waited for credits");
        }
        ExtsockEvents.streamWindowGrown(peer, windowOctets(from), windowOctets(to));
        queuePair.counters().streamWindow(windowOctets(to));  // after the event: who sees the size, sees it
        return true;
    }

    /**
     * Posts buffer {@code index} again, with no credit for the peer: what a CREDIT message's
     * buffer needs ({@link PeerWindow#RESERVE}), and the first half of returning a read-out one.
     *
     * @return false if the connection ended
     */
    boolean postAgain(int index) {
        try {
            queuePair.postInternalReceive(buffers[index].clear(), index, input);
            return true;
        } catch (QueuePairClosedException e) {
            return false;
        }
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
}

package io.extsock.core.verbs;

import java.util.function.BooleanSupplier;

/**
 * Lets deregistration return only once the connection can neither place received payload into
 * the region nor send a Read Response from it (nor, for a file region, a message it is framing
 * from it): the fence between the receive and transmit
 * sides, which use regions without a lock, and {@link RegisteredRegion#close}, which promises
 * the application its buffer back. One per connection ({@link MemoryRegistry}).
 *
 * <p>The receive side (the holder of the engine's receive lock, one thread at a time) places
 * payload in two ways: in {@link QueuePair#receive}, copying from staged input, and by the
 * engine reading the socket straight into a region between {@link QueuePair#directCapacity}
 * and {@link QueuePair#placedDirectly}. It announces each call here ({@link #enterReceive})
 * before it looks at the state of the region it places into, and says when it is out ({@link
 * #leaveReceive}) or when a direct read into a region may follow ({@link
 * #directReadMayFollow}). Deregistration marks the region dead first and then {@link
 * #awaitNoPlacementInto waits} while the receive side is inside a call, or may be reading
 * directly into that region, until it comes back through {@link #enterReceive} or leaves. Both
 * sides write a volatile field and then read the other's (the classic Dekker handshake), so
 * either deregistration sees the placement and waits, or the receive side sees the region dead
 * and places nothing more: {@link RegisteredRegion#placementWindow} then gives a throwaway
 * buffer, and {@link ReceiveSide#dropDeadDestination} abandons the rest of a payload already
 * under way.
 *
 * <p>Cost on the receive path: three volatile writes per call into the queue pair's receive
 * side (one per staged buffer or direct read, not per segment or octet), and one plain write
 * per segment placed into a region.
 *
 * <p>A direct read cannot say when it is over unless it placed something: the engine calls
 * {@link QueuePair#placedDirectly} only for a read that returned octets. So after {@link
 * #directReadMayFollow} the fence assumes the read may still be running until the receive side
 * comes back; the payload is then unfinished, the peer owes its remaining octets, and their
 * arrival (or the connection's end) brings the receive side back. A deregistration that meets
 * this waits through the engine's own wait ({@link InlineWait}), which makes the connection
 * progress meanwhile and gives up once the connection closed.
 *
 * <p>The transmit side holds a region from the start of a Read Response from it until the
 * response's last octets left in a gathering write ({@link RegisteredRegion#holdForTransmit}),
 * and a file region likewise for a Send or Write gathered from it ({@link
 * SendWork#holdFileRegions}: its file is read as the message is framed, and deregistration
 * closes it); deregistration waits for the holds to go, which needs the peer to keep reading,
 * or the connection to end.
 *
 * <p>A thread that is itself inside the receive side, the transmit side or the queue pair's
 * lock (a completion handler closing a region) does not wait: what it would wait for is its
 * own work, and the region is dead for everything that comes after.
 */
final class RegionFence {

    private static final int IDLE = 0;
    private static final int IN_CALL = 1;
    private static final int DIRECT_READ = 2;

    /** Calls into the receive side so far: a change means the receive side came back. */
    private volatile long entries;
    private volatile int phase = IDLE;
    /** The thread of the current receive call; written before {@link #phase}, read after it. */
    private Thread receiver;
    /** The region the receive side last placed into; receive side only, published by {@link #phase}. */
    private RegisteredRegion placing;
    /** The thread inside the transmit side, or null. */
    private volatile Thread transmitter;
    private volatile InlineWait waiting;
    private volatile Object queuePairLock;

    /** The engine's wait, and the queue pair's lock (under which nobody may wait). */
    void attach(InlineWait engineWait, Object lock) {
        this.waiting = engineWait;
        this.queuePairLock = lock;
    }

    // ---- the receive side ---------------------------------------------------------------------

    /** A call into the receive side begins: before it looks at any region's state. */
    void enterReceive() {
        receiver = Thread.currentThread();
        entries++;  // one writer: the receive side
        phase = IN_CALL;
    }

    /** The call is over, and no direct read into a region follows. */
    void leaveReceive() {
        phase = IDLE;
    }

    /** The call is over, but the engine may now read the socket straight into the current destination. */
    void directReadMayFollow() {
        phase = DIRECT_READ;
    }

    /** The receive side places into {@code region} now (a segment's destination). */
    void placingInto(RegisteredRegion region) {
        placing = region;
    }

    /** The region the receive side last placed into, or null. Receive side only. */
    RegisteredRegion lastPlacementRegion() {
        return placing;
    }

    // ---- the transmit side --------------------------------------------------------------------

    void enterTransmit() {
        transmitter = Thread.currentThread();
    }

    void leaveTransmit() {
        transmitter = null;
    }

    // ---- deregistration -------------------------------------------------------------------------

    /**
     * Returns once no payload can still be placed into {@code region}, nor a Read Response be
     * sent from it; the caller has already marked it deregistered.
     */
    void awaitUnused(RegisteredRegion region) {
        Thread me = Thread.currentThread();
        Object lock = queuePairLock;
        if (transmitter == me || lock != null && Thread.holdsLock(lock)) {
            return;
        }
        boolean meReceiving = receiver == me;  // only this thread writes it as itself
        if (meReceiving && phase == IN_CALL) {
            return;
        }
        if (!meReceiving) {  // else its direct read, if any, is over: it is here
            awaitNoPlacementInto(region);
        }
        awaitUntil(region::heldForTransmitByNobody);
    }

    private void awaitNoPlacementInto(RegisteredRegion region) {
        long seen = entries;
        int now = phase;
        if (now == IDLE || now == DIRECT_READ && placing != region) {
            return;  // idle, or the read that may be running goes elsewhere
        }
        awaitUntil(() -> entries != seen || phase == IDLE);
    }

    /**
     * Waits until {@code condition} holds, through the engine's wait when there is one (it makes
     * the connection progress meanwhile, and returns once the connection closed, when nothing
     * places or sends any more); else yielding, for a registry without a connection.
     */
    private void awaitUntil(BooleanSupplier condition) {
        if (condition.getAsBoolean()) {
            return;
        }
        InlineWait engineWait = waiting;
        if (engineWait != null) {
            engineWait.await(condition, 0, false);
            return;
        }
        while (!condition.getAsBoolean()) {
            Thread.yield();
        }
    }
}

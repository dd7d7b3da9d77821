package io.extsock.core.stream;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The buffers each stream Send goes out from, reused so that a Send allocates nothing: a slot
 * for each Send that can be outstanding at once, each a header and (for DATA) a view of the
 * writer's array. DATA Sends take the first {@link PeerWindow#MAX_DATA_SENDS_IN_FLIGHT}
 * slots in turn, from the first again whenever no other DATA Send is outstanding; the CREDIT
 * Send has the next slot, the FIN the last.
 *
 * <p>Why from the first again: a writer that waits for each answer (a request/response
 * protocol) then uses one slot, still in the cache, instead of going through a hundred cold
 * ones, each made at its first use; with hundreds of connections each message found its
 * slot out of the cache.
 *
 * <p>Why a slot is free when it is taken: a CREDIT is posted only once the one before it
 * completed, and there is one FIN. DATA Sends are posted by one writer at a time, in the order
 * they take their slots; at most {@code MAX_DATA_SENDS_IN_FLIGHT} are outstanding, counting the
 * one taking its slot, and the queue pair completes Sends in the order they were posted. So the
 * outstanding ones hold the slots just before the next in turn, and with at most {@code
 * MAX_DATA_SENDS_IN_FLIGHT} of them, counting the new one, that slot is not among them; with
 * none outstanding but the new one, no slot is held. A Send that completed successfully was
 * handed to TCP whole: the gathering write no longer references its buffers. One that completed
 * otherwise may still be on the wire (a message being finished so that a Terminate can follow
 * it): once a Send failed, the caller stops reusing slots and gives each Send buffers of its own
 * ({@link #detachedHeader}).
 *
 * <p>A slot's view of the writer's array is kept for the next write of the same array (the
 * usual case: one buffer written again and again); the views go when {@link #forget()} is
 * called. Guarded by the {@link StreamOutput}'s monitor.
 */
final class OutgoingSendBuffers {

    private static final int DATA_SLOTS = PeerWindow.MAX_DATA_SENDS_IN_FLIGHT;
    private static final int CREDIT_SLOT = DATA_SLOTS;
    private static final int FIN_SLOT = DATA_SLOTS + 1;
    private static final int SLOTS = DATA_SLOTS + 2;

    private final ByteBuffer[] headers = new ByteBuffer[SLOTS];
    private final ByteBuffer[] payloads = new ByteBuffer[DATA_SLOTS];
    /** The DATA slot next in turn. */
    private int nextDataSlot;

    /**
     * The slot of the next Send of this type.
     *
     * @param dataSendsOutstanding DATA Sends posted and not completed, counting this one if it is
     *     DATA (at least 1 then, at most {@link PeerWindow#MAX_DATA_SENDS_IN_FLIGHT})
     */
    int take(int type, int dataSendsOutstanding) {
        switch (type) {
            case StreamHeader.DATA:
                if (dataSendsOutstanding < 1 || dataSendsOutstanding > DATA_SLOTS) {
                    throw new IllegalStateException(dataSendsOutstanding + " DATA Sends outstanding, counting this one");
                }
                if (dataSendsOutstanding == 1) {
                    nextDataSlot = 0;  // every other completed: the slot a writer that waits for each answer always uses
                }
                int slot = nextDataSlot;
                nextDataSlot = (slot + 1) % DATA_SLOTS;
                return slot;
            case StreamHeader.CREDIT:
                return CREDIT_SLOT;
            case StreamHeader.FIN:
                return FIN_SLOT;
            default:
                throw new IllegalArgumentException("not a stream message type: " + type);
        }
    }

    /**
     * The DATA Send that took {@code slot} last was refused before it was queued (the queue pair
     * had ended): the slot is next in turn again, so that refused Sends never move the turn onto
     * the slot of one still outstanding.
     */
    void refused(int slot) {
        nextDataSlot = slot;
    }

    /**
     * The slot's header, filled in, ready to be written. Made the first time the slot is used:
     * a connection that never has many Sends in flight never pays for a hundred headers.
     */
    ByteBuffer header(int slot, int type, int flags, int creditsReturned) {
        ByteBuffer header = headers[slot];
        if (header == null) {
            header = ByteBuffer.allocate(StreamHeader.LENGTH);
            headers[slot] = header;
        }
        header.clear();
        StreamHeader.put(header, type, flags, creditsReturned);
        return header.flip();
    }

    /** Octets {@code [off, off + len)} of {@code b}, through the DATA slot's view of that array. */
    ByteBuffer payload(int slot, byte[] b, int off, int len) {
        ByteBuffer view = payloads[slot];
        if (view == null || view.array() != b) {
            view = ByteBuffer.wrap(b);
            payloads[slot] = view;
        }
        return view.clear().position(off).limit(off + len);
    }

    /** A header and payload view of their own, for a Send after one failed (see above). */
    static ByteBuffer detachedHeader(int type, int flags, int creditsReturned) {
        ByteBuffer header = ByteBuffer.allocate(StreamHeader.LENGTH);
        StreamHeader.put(header, type, flags, creditsReturned);
        return header.flip();
    }

    /** As {@link #detachedHeader}, for the payload. */
    static ByteBuffer detachedPayload(byte[] b, int off, int len) {
        return ByteBuffer.wrap(b, off, len);
    }

    /** Drops the views of the writer's arrays, so that a closed socket holds none of them. */
    void forget() {
        Arrays.fill(payloads, null);
    }
}

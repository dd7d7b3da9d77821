package io.extsock.core.mpa;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One gathering write being assembled: a fixed array of buffer slots for
 * {@code channel.write(buffers(), firstPending(), count() - firstPending())}, and a small
 * direct scratch arena for the octets framing adds (length fields, DDP headers, markers, pad,
 * CRCs). Large direct payload buffers (registered regions) are referenced, not copied.
 *
 * <p>Framing octets that lie next to each other in the stream share one slot (the CRC of one
 * FPDU and the length field of the next, for instance), so n small FPDUs without payload take
 * one slot. Heap payloads and small direct ones are copied into the arena instead (see {@link
 * #copyPayload}). When {@link FpduFramer#frame} finds no room it returns false: write out what
 * is here, {@link #reset()} and frame again. A slot's view of the arena is made the first time
 * the slot holds framing, and kept: after the first writes nothing is allocated, and a
 * connection whose writes never take many slots never pays for hundreds of views.
 */
public final class GatherWrite {

    private final ByteBuffer[] buffers;
    private final ByteBuffer[] scratchViews;
    private final ByteBuffer arena;
    private final ByteBuffer arenaReader;
    private int count;
    private int arenaUsed;
    private int arenaReferenced;
    private boolean lastIsScratch;

    /**
     * @param maxBuffers slots for one gathering write (the kernel takes up to 1024 iovecs)
     * @param scratchCapacity octets of framing the arena holds
     */
    public GatherWrite(int maxBuffers, int scratchCapacity) {
        this(maxBuffers, ByteBuffer.allocateDirect(Math.max(0, scratchCapacity)));
    }

    /**
     * With an arena the caller provides (a connection's, from its {@code MemoryLease}): all of
     * its capacity is used, and the caller may hand it on once this write is no longer used.
     *
     * @param arena direct memory for the framing octets
     */
    public GatherWrite(int maxBuffers, ByteBuffer arena) {
        int scratchCapacity = arena.capacity();
        if (maxBuffers < 1 || scratchCapacity < MpaConstants.MIN_FPDU_LENGTH || !arena.isDirect()) {
            throw new IllegalArgumentException("need at least one slot and " + MpaConstants.MIN_FPDU_LENGTH
                    + " direct scratch octets, not " + maxBuffers + " and " + scratchCapacity
                    + (arena.isDirect() ? "" : " on the heap"));
        }
        buffers = new ByteBuffer[maxBuffers];
        this.arena = arena.clear();
        arenaReader = arena.duplicate();
        scratchViews = new ByteBuffer[maxBuffers];
    }

    /** The slots; the first {@link #count()} are in use. */
    public ByteBuffer[] buffers() {
        return buffers;
    }

    public int count() {
        return count;
    }

    /** The index of the first slot with octets still to write, {@link #count()} if none. */
    public int firstPending() {
        int index = 0;
        while (index < count && !buffers[index].hasRemaining()) {
            index++;
        }
        return index;
    }

    /** Octets still to write. */
    public long remaining() {
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += buffers[i].remaining();
        }
        return total;
    }

    public boolean isEmpty() {
        return count == 0 && arenaUsed == 0;
    }

    /** Empties the write once its octets went out, dropping the references to payload buffers. */
    public void reset() {
        Arrays.fill(buffers, 0, count, null);
        count = 0;
        arenaUsed = 0;
        arenaReferenced = 0;
        lastIsScratch = false;
    }

    public int capacity() {
        return buffers.length;
    }

    public int scratchCapacity() {
        return arena.capacity();
    }

    int freeSlots() {
        return buffers.length - count;
    }

    int freeScratch() {
        return arena.capacity() - arenaUsed;
    }

    /** Where the next framing octet goes in the arena. */
    int scratchPosition() {
        return arenaUsed;
    }

    /** A view of the arena for reading octets back (for the CRC). */
    ByteBuffer arena() {
        return arenaReader;
    }

    void putScratch(int octet) {
        arena.put(arenaUsed++, (byte) octet);
    }

    /** Makes the framing octets written since the last call part of the write. */
    void commitScratch() {
        if (arenaReferenced == arenaUsed) {
            return;
        }
        if (lastIsScratch && buffers[count - 1].limit() == arenaReferenced) {
            buffers[count - 1].limit(arenaUsed);
        } else {
            ByteBuffer view = scratchViews[count];
            if (view == null) {
                view = arena.duplicate();
                scratchViews[count] = view;
            }
            view.clear();
            view.position(arenaReferenced).limit(arenaUsed);
            buffers[count++] = view;
            lastIsScratch = true;
        }
        arenaReferenced = arenaUsed;
    }

    /**
     * Copies payload octets into the arena, after the framing written so far: they then share
     * its slot, and the write keeps no reference to the payload. Worth it for a heap buffer (the
     * JDK would copy it into a temporary direct buffer of its own for the system call anyway)
     * and for a few direct octets (cheaper than one more iovec); the caller checks the room.
     */
    void copyPayload(ByteBuffer payload, int from, int count) {
        arena.put(arenaUsed, payload, from, count);
        arenaUsed += count;
    }

    /** Appends a payload buffer after the framing octets written so far. */
    void addPayload(ByteBuffer payload) {
        commitScratch();
        buffers[count++] = payload;
        lastIsScratch = false;
    }
}

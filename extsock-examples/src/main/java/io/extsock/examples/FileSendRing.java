package io.extsock.examples;

import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.RegionSlice;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Set;

/**
 * Where a file leaves the serving end of the write method: a ring of registered buffers, each
 * filled from the file with read(2) and RDMA-Written from there, then filled again.
 *
 * <p>Why not RDMA straight from a mapping of the file (as the read method did until it served a
 * file region, {@code IwarpConnection.registerFile}): on the 2-vCPU VM of the README, the first
 * pass over a fresh 1 GiB mapping took 0.44-0.97 s against 0.045 s for the next one. MAP_POPULATE did not help; the
 * cost is paid per 4 KiB page-table entry, so a file whose page cache is in 2 MiB folios pays it
 * once, one written 1 MiB at a time on every mapping. A mapping kept for later transfers came
 * out slower still (4 GiB by write, 4 rounds: 378-540 MB/s against 611-711). A read(2) into a
 * buffer that stays mapped costs a kernel copy instead and leaves the chunk in the cache for the
 * CRC and the send: 1 GiB read in chunks of 256 KiB, each then CRC-ed, took 0.25-0.38 s, and in
 * a 4 GiB get the server's CRC fell from 1.4 s of CPU to 0.05 s.
 */
final class FileSendRing implements AutoCloseable {

    /** Bytes per slot, as the getting end's ring (see {@link FileRing#SLOT_SIZE}). */
    static final int SLOT_SIZE = FileRing.SLOT_SIZE;
    /** Slots: chunks in flight at most, as the getting end's ring. */
    static final int SLOTS = FileRing.SLOTS;

    private final MemoryRegion memory;
    private final FileChannel file;
    private final int slots;

    private FileSendRing(MemoryRegion memory, FileChannel file, int slots) {
        this.memory = memory;
        this.file = file;
        this.slots = slots;
    }

    /** A ring of {@code slots} slots of {@link #SLOT_SIZE} bytes, registered for local use only, filled from {@code file}. */
    static FileSendRing register(IwarpConnection verbs, FileChannel file, int slots) throws IOException {
        if (slots < 1 || slots > SLOTS) {
            throw new IllegalArgumentException("slots must be from 1 to " + SLOTS + ": " + slots);
        }
        return new FileSendRing(verbs.register(ByteBuffer.allocateDirect(slots * SLOT_SIZE), Set.of()), file, slots);
    }

    /** Slots of the ring. */
    int slots() {
        return slots;
    }

    /**
     * Reads {@code length} bytes of the file from {@code position} into {@code slot}, and
     * returns them as a slice of the registered ring, to be sent from.
     *
     * @throws EOFException if the file ends first (it shrank while being sent)
     */
    RegionSlice fill(int slot, long position, int length) throws IOException {
        if (slot < 0 || slot >= slots) {
            throw new IndexOutOfBoundsException("slot " + slot + " of a ring of " + slots);
        }
        if (length < 0 || length > SLOT_SIZE) {
            throw new IllegalArgumentException("a slot holds 0 to " + SLOT_SIZE + " bytes, not " + length);
        }
        ByteBuffer into = memory.buffer().duplicate();
        into.limit(slot * SLOT_SIZE + length).position(slot * SLOT_SIZE);
        for (long at = position; into.hasRemaining(); ) {
            int n = file.read(into, at);
            if (n < 0) {
                throw new EOFException("the file ended at " + at + " bytes while being sent (it shrank)");
            }
            at += n;
        }
        return memory.slice((long) slot * SLOT_SIZE, length);
    }

    /** Deregisters the ring. */
    @Override
    public void close() {
        memory.close();
    }
}

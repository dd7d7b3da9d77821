package io.extsock.bench;

import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.RemoteBuffer;
import java.io.IOException;

/**
 * Streaming of RDMA Reads of the peer's memory, the peer's application idle (one-sided), as
 * many outstanding as the send queue's slots allow (the engine sends at most the negotiated
 * ORD at once): MB/s per round, from the first post to the last completion. Each Read takes a
 * different place of the peer's read source; the ends of every result (in round 0, all of
 * it) are checked against the pattern there before its slot is used again.
 */
final class RdmaReadBandwidth implements Contender {

    private final VerbsEndpoint reader;
    private final int size;
    private final long reads;
    private final RemoteBuffer[] places;
    private final long[] placeOffsets;
    private final ReadRequest[] readIntoSlot;
    /** Per read-sink slot: the place the Read into it fetched. */
    private final int[] placeInSlot;
    private long checkedUpTo;

    /** {@code total} bytes (at least a few Reads) in RDMA Reads of {@code size} bytes of the server's memory. */
    RdmaReadBandwidth(VerbsPair pair, int size, long total) {
        this.reader = pair.client;
        this.size = size;
        this.reads = Math.max(4, total / size);
        int placeCount = (int) Math.min(reader.slots * 4L, reader.peerReadSourceLength() / size);
        this.places = new RemoteBuffer[placeCount];
        this.placeOffsets = new long[placeCount];
        for (int i = 0; i < placeCount; i++) {
            placeOffsets[i] = (long) i * size;
            places[i] = reader.peerReadSource(placeOffsets[i], size);
        }
        this.readIntoSlot = new ReadRequest[reader.slots];
        for (int slot = 0; slot < reader.slots; slot++) {
            readIntoSlot[slot] = new ReadRequest().tag(slot).sink(reader.readSinkSlot(slot, size));
        }
        this.placeInSlot = new int[reader.slots];
    }

    @Override
    public void serve(int round) {
        // One-sided: the peer's application does nothing; its engine answers the Reads.
    }

    @Override
    public double run(int round) throws IOException {
        checkedUpTo = reader.sendQueuePosted();  // earlier requests are not ours
        long start = System.nanoTime();
        for (long i = 0; i < reads; i++) {
            int slot = reader.claimSlot();
            checkCompleted(round == 0);  // before a slot is used again
            int place = (int) (i % places.length);
            placeInSlot[slot] = place;
            reader.post(readIntoSlot[slot].source(places[place]));
        }
        reader.awaitSendQueueIdle();
        long elapsed = System.nanoTime() - start;
        checkCompleted(round == 0);
        return reads * size / (elapsed / 1e9) / 1e6;
    }

    private void checkCompleted(boolean wholly) throws IOException {
        for (; checkedUpTo < reader.sendQueueCompleted(); checkedUpTo++) {
            int slot = (int) (checkedUpTo % reader.slots);
            int offset = reader.slotOffset(slot);
            long source = placeOffsets[placeInSlot[slot]];
            if (wholly) {
                DataPattern.check(reader.readSinkBuffer(), offset, size, source, "RDMA Read result");
            } else {
                int end = size - DataPattern.STAMP_BYTES;
                DataPattern.check(reader.readSinkBuffer(), offset, DataPattern.STAMP_BYTES, source, "RDMA Read result");
                DataPattern.check(reader.readSinkBuffer(), offset + end, DataPattern.STAMP_BYTES, source + end,
                        "RDMA Read result's end");
            }
        }
    }
}

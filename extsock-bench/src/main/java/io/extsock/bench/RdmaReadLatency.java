package io.extsock.bench;

import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.RemoteBuffer;
import java.io.IOException;

/**
 * Time of an RDMA Read of the peer's memory, from posting to its completion, the peer's
 * application idle (one-sided): median per round, microseconds. Successive Reads fetch
 * different places of the peer's read source, and each result is checked against the pattern
 * there, so a Read that brought stale or misplaced bytes fails.
 */
final class RdmaReadLatency implements Contender {

    /** Places of the peer's read source that the Reads take turns on. */
    private static final int PLACES = 64;

    private final VerbsEndpoint reader;
    private final int size;
    private final int iterations;
    private final RemoteBuffer[] places;
    private final long[] placeOffsets;
    /** Per read-sink slot, reused with the place of the moment. */
    private final ReadRequest[] readIntoSlot;
    private final long[] nanos;

    RdmaReadLatency(VerbsPair pair, int size, int iterations) {
        this.reader = pair.client;
        this.size = size;
        this.iterations = iterations;
        this.places = new RemoteBuffer[PLACES];
        this.placeOffsets = new long[PLACES];
        long stride = (reader.peerReadSourceLength() - size) / PLACES;
        for (int i = 0; i < PLACES; i++) {
            placeOffsets[i] = i * stride + i;  // "+ i": not every place aligned alike
            places[i] = reader.peerReadSource(placeOffsets[i], size);
        }
        this.readIntoSlot = new ReadRequest[reader.slots];
        for (int slot = 0; slot < reader.slots; slot++) {
            readIntoSlot[slot] = new ReadRequest().tag(slot).sink(reader.readSinkSlot(slot, size));
        }
        this.nanos = new long[iterations];
    }

    @Override
    public void serve(int round) {
        // One-sided: the peer's application does nothing; its engine answers the Reads.
    }

    @Override
    public double run(int round) throws IOException {
        for (int i = 0; i < iterations; i++) {
            int place = i % PLACES;
            long start = System.nanoTime();
            int slot = reader.claimSlot();
            reader.post(readIntoSlot[slot].source(places[place]));
            reader.awaitSendQueueIdle();
            nanos[i] = System.nanoTime() - start;
            DataPattern.check(reader.readSinkBuffer(), reader.slotOffset(slot), size, placeOffsets[place],
                    "RDMA Read result");
        }
        return Stats.median(nanos) / 1_000.0;
    }
}

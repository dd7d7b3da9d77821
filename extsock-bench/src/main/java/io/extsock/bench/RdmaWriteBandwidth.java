package io.extsock.bench;

import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;

/**
 * Streaming of RDMA Writes into the peer's registered memory, the peer's application idle
 * (one-sided): MB/s per round. A Write completes when its bytes have left, not when they have
 * landed; what stops the clock is an 8-byte RDMA Read of the last Write's tail, posted behind
 * the Writes: the peer answers a Read only after placing everything that came before it
 * (RFC 5040 section 5.2, in-order processing over TCP), and the Read brings back the last
 * Write's stamp as proof. Round 0 also reads back every Write still in the target and checks
 * all its bytes.
 */
final class RdmaWriteBandwidth implements Contender {

    private final VerbsEndpoint writer;
    private final int size;
    private final long writes;
    /** Per outbox slot: the Write from it, into the peer's write-target slot of the same index. */
    private final WriteRequest[] writeFromSlot;
    /** Per read-sink slot: the Read of the tail of the Write posted just before it. */
    private final ReadRequest[] tailOfPreviousWrite;

    /** {@code total} bytes (at least a few Writes) in RDMA Writes of {@code size} bytes, client to server. */
    RdmaWriteBandwidth(VerbsPair pair, int size, long total) {
        this.writer = pair.client;
        this.size = size;
        this.writes = Math.max(4, total / size);
        int slots = writer.slots;
        this.writeFromSlot = new WriteRequest[slots];
        this.tailOfPreviousWrite = new ReadRequest[slots];
        for (int slot = 0; slot < slots; slot++) {
            writeFromSlot[slot] = new WriteRequest().tag(slot).gather(writer.outboxSlot(slot, size))
                    .target(writer.peerWriteTargetSlot(slot, size));
            int previous = (slot + slots - 1) % slots;
            tailOfPreviousWrite[slot] = new ReadRequest().tag(slot)
                    .source(writer.peerWriteTargetSlot(previous, size).slice(size - DataPattern.STAMP_BYTES,
                            DataPattern.STAMP_BYTES))
                    .sink(writer.readSinkSlot(slot, DataPattern.STAMP_BYTES));
        }
    }

    @Override
    public void serve(int round) {
        // One-sided: the target's application does nothing; its engine places the Writes.
    }

    @Override
    public double run(int round) throws IOException {
        if (round == 0) {
            writer.refillOutbox();
        }
        long start = System.nanoTime();
        int lastWrite = -1;
        for (long i = 0; i < writes; i++) {
            lastWrite = writer.claimSlot();
            writer.stampOutbox(lastWrite, size, DataPattern.sequence(round, i));
            writer.post(writeFromSlot[lastWrite]);
        }
        int fence = writer.claimSlot();
        writer.post(tailOfPreviousWrite[fence]);
        writer.awaitSendQueueIdle();  // completions come in order: the Read's is the last
        long elapsed = System.nanoTime() - start;

        long lastSequence = DataPattern.sequence(round, writes - 1);
        long landed = writer.readSinkBuffer().getLong(writer.slotOffset(fence));
        if (landed != lastSequence) {
            throw new IOException("the last RDMA Write's tail reads back as " + Long.toHexString(landed)
                    + ", not " + Long.toHexString(lastSequence));
        }
        if (round == 0) {
            checkLandedWrites(round, lastWrite);
        }
        return writes * size / (elapsed / 1e9) / 1e6;
    }

    /**
     * Reads back the Writes still in the peer's write target (the last one per slot) and checks
     * every byte: each must be the stamped message that went to that slot last.
     */
    private void checkLandedWrites(int round, int lastWrite) throws IOException {
        int slots = writer.slots;
        for (int back = 0; back < Math.min(slots, writes); back++) {
            int slot = (lastWrite - back + slots) % slots;
            int sink = writer.claimSlot();
            writer.post(new ReadRequest().source(writer.peerWriteTargetSlot(slot, size))
                    .sink(writer.readSinkSlot(sink, size)));
            writer.awaitSendQueueIdle();
            DataPattern.checkMessage(writer.readSinkBuffer(), writer.slotOffset(sink), size,
                    DataPattern.sequence(round, writes - 1 - back), "RDMA Write read back");
        }
    }
}

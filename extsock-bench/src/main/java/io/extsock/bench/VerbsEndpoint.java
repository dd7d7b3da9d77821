package io.extsock.bench;

import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionHandler;
import io.extsock.verbs.CompletionQueue;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.CompletionView;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.IwarpSettings;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.RegionSlice;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import io.extsock.verbs.WorkRequest;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One side of a verbs-only IWARP_MODE connection, set up for measuring: registered buffers, a
 * ring of Receives that stays posted, and completion bookkeeping that allocates nothing.
 *
 * <p>Buffers, each cut into slots of {@link #slotSize} bytes:
 * <ul>
 *   <li>{@code inbox}: the Receive ring, one Receive per slot. Receives complete in posting
 *       order, and each is posted again as soon as its message was taken, so messages land in
 *       slots 0, 1, ... ring - 1, 0, ... and the ring is whole again between rounds (a Send
 *       that found no Receive would end the connection).
 *   <li>{@code outbox} (sources of Sends and RDMA Writes) and {@code readSink} (where RDMA
 *       Reads land): the n-th request this side posts to its send queue uses slot n % slots.
 *       Send-queue completions come in posting order, so the slot is free again once request
 *       n - slots has completed; {@link #claimSlot} waits for that.
 *   <li>{@code writeTarget} and {@code readSource}: what the peer may RDMA Write into and RDMA
 *       Read from; advertised to it in a Send ({@link #advertise}). The outbox holds the
 *       {@link DataPattern} from 0 in every slot (a message is the pattern with stamps), the
 *       read source holds it at its own offsets.
 * </ul>
 */
final class VerbsEndpoint {

    /** How long no completion may come before we call the engine stalled. */
    private static final long STALL_SECONDS = 20;
    private static final int POLL_BATCH = 32;
    /** Our write target's and read source's descriptors. */
    private static final int ADVERTISEMENT_BYTES = 2 * RemoteBuffer.ENCODED_LENGTH;

    final String name;
    /** What a failed inbox check names (made once: the checks run per message). */
    private final String inboxLabel;
    final int slotSize;
    final int ringDepth;
    final int slots;
    private final ByteBuffer inboxBuffer;
    private final ByteBuffer outboxBuffer;
    private final ByteBuffer readSinkBuffer;
    private final ByteBuffer writeTargetBuffer;
    private final ByteBuffer readSourceBuffer;
    private final ByteBuffer advertisementBuffer = ByteBuffer.allocateDirect(ADVERTISEMENT_BYTES);

    private IwarpConnection connection;
    private CompletionQueue completions;
    private MemoryRegion inbox;
    private MemoryRegion outbox;
    private MemoryRegion readSink;
    private MemoryRegion writeTarget;
    private MemoryRegion readSource;
    private MemoryRegion advertisement;
    private ReceiveRequest[] receives;
    /** The peer's regions, learned from its advertisement. */
    private RemoteBuffer peerWriteTarget;
    private RemoteBuffer peerReadSource;

    private long receivesArrived;
    private long receivesTaken;
    private final long[] arrivedLength;
    private long sendQueuePosted;
    private long sendQueueCompleted;
    private String failure;
    private final CompletionHandler onCompletion = this::onCompletion;

    VerbsEndpoint(String name, int slotSize, int ringDepth, int slots) {
        this.name = name;
        this.inboxLabel = name + " inbox";
        this.slotSize = slotSize;
        this.ringDepth = ringDepth;
        this.slots = slots;
        this.arrivedLength = new long[ringDepth];
        this.inboxBuffer = ByteBuffer.allocateDirect(ringDepth * slotSize);
        this.outboxBuffer = ByteBuffer.allocateDirect(slots * slotSize);
        this.readSinkBuffer = ByteBuffer.allocateDirect(slots * slotSize);
        this.writeTargetBuffer = ByteBuffer.allocateDirect(slots * slotSize);
        this.readSourceBuffer = ByteBuffer.allocateDirect(slots * slotSize);
        refillOutbox();
        DataPattern.fill(readSourceBuffer, 0, readSourceBuffer.capacity(), 0);
    }

    /**
     * Puts the pattern from 0 back in every outbox slot, over the stamps of earlier messages
     * (whose ends depend on their length): a measurement that stamps does this in its round 0,
     * on the endpoint's thread. Only between measurements, when no Send or Write from the
     * outbox is still going out.
     */
    void refillOutbox() {
        for (int slot = 0; slot < slots; slot++) {
            DataPattern.fill(outboxBuffer, slotOffset(slot), slotSize, 0);
        }
    }

    /**
     * Registers the buffers and posts the Receive ring: the connection's {@link
     * io.extsock.IwarpOptions#SETUP}, so that the ring is posted before the peer can send.
     */
    void attach(IwarpConnection connection) throws IOException {
        this.connection = connection;
        this.completions = connection.completions();
        inbox = connection.register(inboxBuffer, EnumSet.of(Access.LOCAL_WRITE));
        outbox = connection.register(outboxBuffer, Set.of());
        readSink = connection.register(readSinkBuffer, EnumSet.of(Access.LOCAL_WRITE));
        // Readable too: the writer reads a Write's tail back to know that everything landed.
        writeTarget = connection.register(writeTargetBuffer, EnumSet.of(Access.REMOTE_WRITE, Access.REMOTE_READ));
        readSource = connection.register(readSourceBuffer, EnumSet.of(Access.REMOTE_READ));
        advertisement = connection.register(advertisementBuffer, Set.of());
        receives = new ReceiveRequest[ringDepth];
        for (int slot = 0; slot < ringDepth; slot++) {
            receives[slot] = new ReceiveRequest().tag(slot).scatter(inbox.slice(inboxOffset(slot), slotSize));
            connection.post(receives[slot]);
        }
    }

    // ---- setup: telling the peer where it may write and read ---------------------------------

    /** Sends the peer our write target and read source, in the 16-byte form each. */
    void advertise() throws IOException {
        ByteBuffer message = advertisementBuffer.duplicate();
        writeTarget.remote().writeTo(message);
        readSource.remote().writeTo(message);
        claimSlot();
        post(new SendRequest().gather(advertisement.slice(0, ADVERTISEMENT_BYTES)));
    }

    /** Takes the peer's advertisement. */
    void learnPeer() throws IOException {
        int slot = awaitMessage();
        if (messageLength(slot) != ADVERTISEMENT_BYTES) {
            throw new IOException(name + ": expected the peer's two buffer descriptors, got "
                    + messageLength(slot) + " bytes");
        }
        ByteBuffer message = inboxBuffer.duplicate().position(inboxOffset(slot));
        peerWriteTarget = RemoteBuffer.readFrom(message);
        peerReadSource = RemoteBuffer.readFrom(message);
        repost(slot);
    }

    // ---- receiving ----------------------------------------------------------------------------

    /** Whether a message arrived that was not taken yet. */
    boolean hasMessage() {
        return receivesTaken < receivesArrived;
    }

    /** Waits for the next message in arrival order; returns its inbox slot. */
    int awaitMessage() throws IOException {
        while (!hasMessage()) {
            progress();
        }
        return (int) (receivesTaken % ringDepth);
    }

    /** The length of the message in an inbox slot. */
    long messageLength(int slot) {
        return arrivedLength[slot];
    }

    /**
     * Fails unless the message in an inbox slot is the stamped message {@code sequence} of
     * {@code length} bytes; {@code wholly}: every byte checked, else the length and the stamps.
     */
    void checkMessage(int slot, int length, long sequence, boolean wholly) throws IOException {
        if (arrivedLength[slot] != length) {
            throw new IOException(name + ": a " + arrivedLength[slot] + "-byte message where " + length
                    + " bytes were sent");
        }
        if (wholly) {
            DataPattern.checkMessage(inboxBuffer, inboxOffset(slot), length, sequence, inboxLabel);
        } else {
            DataPattern.checkStamps(inboxBuffer, inboxOffset(slot), length, sequence, inboxLabel);
        }
    }

    /** Done with the message in this slot (the oldest taken): its Receive is posted again. */
    void repost(int slot) throws IOException {
        if (slot != receivesTaken % ringDepth) {
            throw new IllegalStateException("inbox slots go back in arrival order");
        }
        connection.post(receives[slot]);
        receivesTaken++;
    }

    ByteBuffer inboxBuffer() {
        return inboxBuffer;
    }

    /** Where the message in an inbox slot starts in {@link #inboxBuffer()}. */
    int inboxOffset(int slot) {
        return slot * slotSize;
    }

    // ---- the send queue (Sends, RDMA Writes and Reads) ----------------------------------------

    /** Whether the next send-queue request's slot is free now. */
    boolean hasFreeSlot() {
        return sendQueuePosted - sendQueueCompleted < slots;
    }

    /** Waits until the next send-queue request's slot is free; returns it. */
    int claimSlot() throws IOException {
        while (!hasFreeSlot()) {
            progress();
        }
        return (int) (sendQueuePosted % slots);
    }

    /** Posts a Send, RDMA Write or RDMA Read that uses the slot {@link #claimSlot} returned. */
    void post(WorkRequest request) throws IOException {
        connection.post(request);
        sendQueuePosted++;
    }

    /** Waits until every send-queue request posted so far has completed. */
    void awaitSendQueueIdle() throws IOException {
        while (sendQueueCompleted < sendQueuePosted) {
            progress();
        }
    }

    long sendQueuePosted() {
        return sendQueuePosted;
    }

    long sendQueueCompleted() {
        return sendQueueCompleted;
    }

    /** Where a slot starts in the outbox and in the read sink. */
    int slotOffset(int slot) {
        return slot * slotSize;
    }

    ByteBuffer readSinkBuffer() {
        return readSinkBuffer;
    }

    /** One reusable Send per outbox slot, of the slot's first {@code length} bytes. */
    SendRequest[] sendsFromEverySlot(int length) {
        SendRequest[] sends = new SendRequest[slots];
        for (int slot = 0; slot < slots; slot++) {
            sends[slot] = new SendRequest().tag(slot).gather(outboxSlot(slot, length));
        }
        return sends;
    }

    /** Stamps the message in an outbox slot (see {@link DataPattern#stamp}). */
    void stampOutbox(int slot, int length, long sequence) {
        DataPattern.stamp(outboxBuffer, slotOffset(slot), length, sequence);
    }

    /** The first {@code length} bytes of an outbox slot, to gather from. */
    RegionSlice outboxSlot(int slot, int length) {
        return outbox.slice(slotOffset(slot), length);
    }

    /** The first {@code length} bytes of a read-sink slot, for an RDMA Read to land in. */
    RegionSlice readSinkSlot(int slot, int length) {
        return readSink.slice(slotOffset(slot), length);
    }

    /** The first {@code length} bytes of the slot of the peer's write target with this index. */
    RemoteBuffer peerWriteTargetSlot(int slot, int length) {
        return peerWriteTarget.slice(slotOffset(slot), length);
    }

    /** {@code length} bytes of the peer's read source, from {@code offset}; they hold the pattern from there. */
    RemoteBuffer peerReadSource(long offset, int length) {
        return peerReadSource.slice(offset, length);
    }

    long peerReadSourceLength() {
        return peerReadSource.length();
    }

    /** What MPA negotiation agreed on. */
    IwarpSettings settings() {
        return connection.settings();
    }

    // ---- completions --------------------------------------------------------------------------

    /**
     * Takes the completions there are or, when there are none, waits for one: the connection's
     * receive work runs on this thread meanwhile, as a blocked socket read would.
     */
    void progress() throws IOException {
        if (completions.poll(onCompletion, POLL_BATCH) == 0) {
            boolean available;
            try {
                available = completions.await(STALL_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException(name + ": interrupted waiting for a completion");
            }
            if (!available) {
                throw new IOException(name + ": no completion within " + STALL_SECONDS + " s, or the connection"
                        + " ended (send queue: " + sendQueuePosted + " posted, " + sendQueueCompleted
                        + " completed; Receives: " + receivesArrived + " completed)");
            }
        }
        if (failure != null) {
            throw new IOException(name + ": " + failure);
        }
    }

    private void onCompletion(CompletionView completion) {
        if (completion.status() != CompletionStatus.SUCCESS) {
            if (failure == null) {
                failure = "a request failed: " + WorkCompletion.of(completion);
            }
            return;
        }
        if (completion.opcode() == WorkOpcode.RECEIVE) {
            int slot = (int) (receivesArrived % ringDepth);
            if (completion.tag() != slot && failure == null) {
                failure = "Receive " + completion.tag() + " completed where " + slot + " was next";
            }
            arrivedLength[slot] = completion.byteLength();
            receivesArrived++;
        } else {
            sendQueueCompleted++;
        }
    }
}

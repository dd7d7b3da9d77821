package io.extsock.core.verbs;

import io.extsock.core.engine.SoftwareIwarpProvider;
import io.extsock.core.mpa.FpduFramer;
import io.extsock.core.mpa.GatherWrite;
import io.extsock.core.mpa.MpaAgreement;
import io.extsock.core.mpa.MpaRole;
import io.extsock.core.mpa.PrivateData;
import io.extsock.core.mpa.RtrKind;
import io.extsock.core.rdmap.MessageWriter;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.IwarpSettings;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.BooleanSupplier;

/**
 * Two queue pairs joined without a socket, in the spirit of Netty's EmbeddedChannel: a fake
 * driver frames each side's messages into gathering writes as the engine does and hands the
 * octets to the peer's receive side in chunks of 1 to {@code maxChunk} octets, sometimes read
 * "directly" into the payload's destination as the engine's large reads are; the chunk sizes
 * come from a seeded {@link Random}, so a failing run repeats exactly.
 *
 * <p>Everything runs on the test's thread. Transmit work waits for {@link #pump} or {@link
 * #carry} (as behind a transmit lock another thread holds), unless a side is told to frame at
 * once ({@link Side#transmitInline}, as the engine does when the lock is free); what is written
 * reaches the peer only in {@link #pump} or {@link #carry} (or any blocking call of a side's
 * {@link IwarpConnection}: its waits pump), which move the octets until neither side has
 * anything left to do. A side that asks to close (it sent or received
 * a Terminate) shuts its output: once its last octets reached the peer, the peer sees the
 * connection lost, as over TCP.
 */
public final class EmbeddedPair {

    /** The agreement both ends share, from the initiator's view. */
    /**
     * What the two ends agreed, from the initiator's view: its IRD and ORD (the responder's are
     * the other way round, unless {@code responderIrd} says the responder believes otherwise,
     * to let a test make the initiator exceed it).
     */
    public record Terms(boolean crc, int ird, int ord, int responderIrd, Optional<RtrKind> rtr, int maxFpduSize) {

        /** What two extsock ends negotiate by default: CRC, no markers, a Write RTR. */
        public static Terms defaults() {
            return new Terms(true, 8, 8, 8, Optional.of(RtrKind.ZERO_LENGTH_WRITE), 1460);
        }

        public Terms withReadLimits(int ird, int ord) {
            return new Terms(crc, ird, ord, ord, rtr, maxFpduSize);
        }

        /** The responder serves fewer Reads at once than the initiator was told it may send. */
        public Terms withResponderIrd(int limit) {
            return new Terms(crc, ird, ord, limit, rtr, maxFpduSize);
        }

        public Terms withMaxFpduSize(int size) {
            return new Terms(crc, ird, ord, responderIrd, rtr, size);
        }

        public Terms withRtr(Optional<RtrKind> kind) {
            return new Terms(crc, ird, ord, responderIrd, kind, maxFpduSize);
        }

        MpaAgreement agreement(MpaRole role) {
            boolean initiator = role == MpaRole.INITIATOR;
            return new MpaAgreement(role, 2, true, crc, false, false, initiator ? ird : responderIrd,
                    initiator ? ord : ird, true, rtr, PrivateData.EMPTY);
        }
    }

    /** One end: its queue pair, its verbs, and everything it wrote. */
    public final class Side implements QueuePair.Driver, InlineWait {
        private final String name;
        final QueuePair queuePair;
        /** STag keys from a fixed seed per end: the same registrations get the same STags in every run. */
        final MemoryRegistry registry;
        final CompletionRing ring;
        private final QueuePairVerbs verbs;
        private final GatherWrite gather;
        private final ByteArrayOutputStream written = new ByteArrayOutputStream();
        /** Octets written, not yet received by the peer. */
        private final ArrayDeque<byte[]> inFlight = new ArrayDeque<>();
        private byte[] partial;
        private int partialOffset;
        private boolean outputShut;
        private boolean transmitInline;
        private boolean transmitting;
        private boolean lostReported;
        private int gatheringWrites;
        private Side peer;

        private Side(String name, MpaRole role, Terms terms, boolean small) {
            this.name = name;
            this.ring = new CompletionRing(small ? 16 : QueuePair.SEND_QUEUE_DEPTH + QueuePair.RECEIVE_QUEUE_DEPTH);
            // Small: 64 slots hold an FPDU of the most payload slices a segment has (these terms
            // have no markers, which would need more).
            this.gather = small ? new GatherWrite(64, 4 * 1024) : new GatherWrite(
                    Math.max(256, FpduFramer.maxSlotsPerFpdu(MessageWriter.PAYLOAD_SLICES_PER_SEGMENT)), 64 * 1024);
            this.registry = new MemoryRegistry(new Random(name.hashCode()), MemoryRegistry.MAX_REGIONS);
            MpaAgreement agreement = terms.agreement(role);
            this.queuePair = new QueuePair(agreement, SoftwareIwarpProvider.pipeline(agreement, terms.maxFpduSize()),
                    registry, this, this, ConnectionCounters.unnamed());
            this.verbs = new QueuePairVerbs(queuePair, this, registry, ring, new IwarpSettings(2, terms.crc(),
                    false, false, agreement.ird(), agreement.ord(), terms.maxFpduSize(),
                    role == MpaRole.INITIATOR), new byte[0]);
        }

        /** The verbs an application would use on this end. */
        public IwarpConnection verbs() {
            return verbs;
        }

        /** Every octet this end has written so far (FPDUs, as on the wire). */
        public byte[] written() {
            return written.toByteArray();
        }

        /** The gathering writes this end made so far: each one system call of the engine's. */
        public int gatheringWrites() {
            return gatheringWrites;
        }

        /** Why this end's connection ended, or null while it runs. */
        public String failure() {
            return queuePair.failure();
        }

        public boolean isConnected() {
            return queuePair.isConnected();
        }

        /**
         * The ULPDUs this end wrote, in order, cut out of its FPDUs (RFC 5044 section 4: length,
         * ULPDU, pad, CRC; these terms use no markers).
         */
        public List<byte[]> ulpdusWritten() {
            byte[] octets = written();
            List<byte[]> ulpdus = new ArrayList<>();
            int at = 0;
            while (at < octets.length) {
                int length = (octets[at] & 0xFF) << 8 | octets[at + 1] & 0xFF;
                ulpdus.add(Arrays.copyOfRange(octets, at + 2, at + 2 + length));
                at += 2 + length + FpduFramer.padLength(length) + (queuePair.agreement().crc() ? 4 : 0);
            }
            return ulpdus;
        }

        /** The RDMAP opcodes (RFC 5040 section 4.1) of the segments this end wrote, in order. */
        public List<Integer> opcodesWritten() {
            List<Integer> opcodes = new ArrayList<>();
            for (byte[] ulpdu : ulpdusWritten()) {
                opcodes.add(ulpdu[1] & 0x0F);
            }
            return opcodes;
        }

        /**
         * The Terminate header this end sent (RFC 5040 section 4.8: the control word, then the
         * terminated DDP segment's length and header, then the terminated Read Request header, as
         * its flags say), or null if it sent none.
         */
        public byte[] terminateWritten() {
            for (byte[] ulpdu : ulpdusWritten()) {
                if ((ulpdu[1] & 0x0F) == 0x7) {
                    return Arrays.copyOfRange(ulpdu, 18, ulpdu.length);  // after the untagged DDP/RDMAP header
                }
            }
            return null;
        }

        /** Whether this end asked to close (sent or received a Terminate). */
        public boolean askedToClose() {
            return outputShut;
        }

        @Override
        public void transmitPending() {
            if (transmitInline) {
                transmit();  // at once, as the engine does when the transmit lock is free
            }
        }

        /** Whether transmit work is framed at once, by whoever made it, instead of in the next {@link #pump}. */
        public void transmitInline(boolean inline) {
            this.transmitInline = inline;
        }

        @Override
        public void closeRequested() {
            outputShut = true;
        }

        @Override
        public boolean await(BooleanSupplier condition, long timeoutNanos, boolean interruptible) {
            while (!condition.getAsBoolean()) {
                if (!pump()) {
                    return condition.getAsBoolean();  // nothing moves any more: it will never hold
                }
            }
            return true;
        }

        @Override
        public void wakeWaiters() {
            // one thread: nobody else waits
        }

        /** Frames and "writes" what this end has to send; whether it wrote anything. */
        private boolean transmit() {
            if (transmitting) {
                return false;
            }
            transmitting = true;
            try {
                return transmitWhilePossible();
            } finally {
                transmitting = false;
            }
        }

        private boolean transmitWhilePossible() {
            boolean any = false;
            while (queuePair.frame(gather)) {
                ByteBuffer[] buffers = gather.buffers();
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                for (int i = gather.firstPending(); i < gather.count(); i++) {
                    ByteBuffer slice = buffers[i];
                    byte[] bytes = new byte[slice.remaining()];
                    slice.get(bytes);
                    out.writeBytes(bytes);
                }
                gather.reset();
                queuePair.transmitted();
                gatheringWrites++;
                byte[] octets = out.toByteArray();
                written.writeBytes(octets);
                if (octets.length > 0) {
                    inFlight.add(octets);
                }
                any = true;
            }
            return any;
        }

        /** Hands the octets in flight to the peer's receive side, in random chunks; whether any moved. */
        private boolean deliver() {
            boolean any = false;
            while (true) {
                if (partial == null) {
                    partial = inFlight.poll();
                    partialOffset = 0;
                    if (partial == null) {
                        break;
                    }
                }
                int left = partial.length - partialOffset;
                int chunk = Math.min(left, 1 + random.nextInt(maxChunk));
                int direct = peer.queuePair.directCapacity();
                if (direct > 0 && random.nextBoolean()) {
                    // As the engine's large reads: straight into the payload's destination.
                    int count = Math.min(chunk, direct);
                    ByteBuffer target = peer.queuePair.directTarget();
                    target.put(partial, partialOffset, count);
                    peer.queuePair.placedDirectly(count);
                    partialOffset += count;
                } else {
                    // As the engine's staging: offered again until the receive side took all of it.
                    ByteBuffer staged = ByteBuffer.wrap(partial, partialOffset, chunk).slice();
                    while (staged.hasRemaining()) {
                        int before = staged.remaining();
                        peer.queuePair.receive(staged);
                        if (staged.remaining() == before) {
                            throw new AssertionError(peer + "'s receive side took none of " + before + " octets");
                        }
                    }
                    partialOffset += chunk;
                }
                any = true;
                if (partialOffset == partial.length) {
                    partial = null;
                }
            }
            // Asked to close: once what it still had to frame (its Terminate) reached the peer, the
            // peer reads the end of the stream.
            if (outputShut && !peer.lostReported && inFlight.isEmpty() && partial == null
                    && !queuePair.hasTransmitWork()) {
                peer.lostReported = true;
                peer.queuePair.connectionLost("the peer closed the connection");  // end of stream, as TCP says it
                any = true;
            }
            return any;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private final Random random;
    private final int maxChunk;
    private final Side initiator;
    private final Side responder;

    private EmbeddedPair(Terms terms, long seed, int maxChunk, boolean small) {
        this.random = new Random(seed);
        this.maxChunk = maxChunk;
        this.initiator = new Side("initiator", MpaRole.INITIATOR, terms, small);
        this.responder = new Side("responder", MpaRole.RESPONDER, terms, small);
        initiator.peer = responder;
        responder.peer = initiator;
    }

    /** A pair on the default terms; chunks of 1 to {@code maxChunk} octets from {@code seed}. */
    public static EmbeddedPair open(long seed, int maxChunk) {
        return open(Terms.defaults(), seed, maxChunk);
    }

    public static EmbeddedPair open(Terms terms, long seed, int maxChunk) {
        return open(new EmbeddedPair(terms, seed, maxChunk, false));
    }

    /**
     * As {@link #open(Terms, long, int)}, with small ends: completion queues of 16 and gathering
     * writes of 64 slots. Cheaper to make, for the receive fuzz, which makes a pair per
     * input and posts a handful of requests.
     */
    public static EmbeddedPair openSmall(Terms terms, long seed, int maxChunk) {
        return open(new EmbeddedPair(terms, seed, maxChunk, true));
    }

    private static EmbeddedPair open(EmbeddedPair pair) {
        pair.pump();  // the RTR, if any: the responder may send from now on
        return pair;
    }

    /** The MPA initiator ("client"). */
    public Side initiator() {
        return initiator;
    }

    /** The MPA responder ("server"). */
    public Side responder() {
        return responder;
    }

    /**
     * Makes both ends of the {@code from} → peer direction act as if {@code msn} minus one
     * messages had passed on untagged queue {@code queueNumber}: the sender assigns {@code msn}
     * next, the receiver expects it. Lets a test reach the MSN wrap at 2^32 (RFC 5041 section
     * 4.3) without four billion messages. Reaches into the DDP codecs by reflection: they have
     * no such switch, and should not.
     */
    public void skipMessageSequenceNumbers(Side from, int queueNumber, int msn) {
        try {
            java.lang.reflect.Field sequence = TransmitSide.class.getDeclaredField("sendSequence");
            sequence.setAccessible(true);
            Object numbers = sequence.get(from.queuePair.transmitSide);
            java.lang.reflect.Field next = numbers.getClass().getDeclaredField("next");
            next.setAccessible(true);
            ((int[]) next.get(numbers))[queueNumber] = msn;
            java.lang.reflect.Field bookkeeping = ReceiveSide.class.getDeclaredField("bookkeeping");
            bookkeeping.setAccessible(true);
            Object tracker = ((io.extsock.core.ddp.DdpReceiveBookkeeping) bookkeeping.get(
                    from.peer.queuePair.receiveSide)).untagged();
            java.lang.reflect.Method skipTo = tracker.getClass().getDeclaredMethod("skipTo", int.class, int.class);
            skipTo.setAccessible(true);
            skipTo.invoke(tracker, queueNumber, msn);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("the MSN counters moved: update this test hook", e);
        }
    }

    /**
     * Puts {@code octets} on the wire from {@code from}, after what it wrote so far, as if its
     * transmit side had written them: FPDUs no well-behaved peer would send reach the peer's
     * receive side with the next {@link #pump} or {@link #carry}, in the same random chunks.
     */
    public void inject(Side from, byte[] octets) {
        from.transmit();  // what it already had to send goes first
        if (octets.length > 0) {
            from.inFlight.add(octets.clone());
        }
    }

    /**
     * Drops what {@code side} wrote that its peer has not received yet, which must begin at an
     * FPDU boundary: for a test that injected a conversation the peer never took part in, so
     * that what the side answered to it goes nowhere and the two ends can talk afresh.
     */
    public void discardInFlight(Side side) {
        side.transmit();
        if (side.partial != null) {
            throw new IllegalStateException(side + " is part-way through delivering its octets to " + side.peer);
        }
        side.inFlight.clear();
    }

    /**
     * Frames what {@code side} has to send without delivering it: its requests are on the wire
     * (an RDMA Read is outstanding) and the peer has not seen them yet, nor ever will unless a
     * later {@link #pump} or {@link #carry} of this side delivers them.
     */
    public void transmitOnly(Side side) {
        side.transmit();
    }

    /**
     * One direction, once: what {@code from} has to send is framed and reaches its peer's
     * receive side, and the peer sends nothing back yet (a Read Response it owes waits for the
     * next {@link #pump}).
     */
    public void carry(Side from) {
        from.transmit();
        from.deliver();
    }

    /**
     * Moves octets both ways until nothing is left to move.
     *
     * @return whether anything moved
     */
    public boolean pump() {
        boolean any = false;
        boolean moved;
        do {
            moved = initiator.transmit() | responder.transmit();
            moved |= initiator.deliver() | responder.deliver();
            any |= moved;
        } while (moved);
        return any;
    }
}

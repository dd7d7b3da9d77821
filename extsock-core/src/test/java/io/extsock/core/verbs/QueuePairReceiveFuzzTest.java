package io.extsock.core.verbs;

import static io.extsock.core.verbs.RawSegments.READ_REQUEST;
import static io.extsock.core.verbs.RawSegments.READ_RESPONSE;
import static io.extsock.core.verbs.RawSegments.SEND;
import static io.extsock.core.verbs.RawSegments.TERMINATE;
import static io.extsock.core.verbs.RawSegments.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.Tier;
import io.extsock.core.fuzz.Fuzz;
import io.extsock.core.fuzz.Mutator;
import io.extsock.core.mpa.FpduFramer;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.RegionSlice;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes a queue pair's receive side through {@link EmbeddedPair}: valid conversations from the
 * peer (Sends of every variant, RDMA Writes, Read Requests, the Read Responses to this side's
 * outstanding Reads, a Terminate now and then), mutated at the segment level (header fields to
 * boundary values, bit flips, truncation, splices, dropped, doubled and swapped segments) or,
 * now and then, after framing (CRC, lengths), and fed in random chunks to the initiator's
 * receive side. Every input's end state is held to the rules:
 * <ul>
 *   <li>nothing escapes the receive path, and every call consumes octets (no hang);</li>
 *   <li>an ended connection sent a Terminate, or received one; never the local catastrophic
 *       error (RDMAP layer 0, type 0), which means a bug of ours was caught;</li>
 *   <li>once ended, every request of the side completed, exactly once;</li>
 *   <li>left up, the connection still carries traffic both ways (a Write from the peer lands,
 *       a Send to the peer arrives).</li>
 * </ul>
 * The receiving side is set up the same way for every input (deterministic STags, {@link
 * EmbeddedPair}), so an input's octets mean the same each time: a failure's octets and chunk
 * seed become a regression test. Sizes: {@link Fuzz#inputs}.
 */
@Tag("stress")
@Timeout(value = 30, unit = TimeUnit.MINUTES)  // per test: a hang fails; the long runs' largest surface takes minutes
class QueuePairReceiveFuzzTest {

    private static final int INPUTS = 100_000;
    private static final byte[][] RECEIVE_SHAPES = {{64}, {40, 24}, {127}};
    private static final int[][] READS = {{0, 64}, {100, 40}};  // sink offset, length
    private static final int REGION = 256;
    /** What travels each way after an input that left the connection up. */
    private static final byte[] AFTERWARDS = "still carrying traffic".getBytes(StandardCharsets.US_ASCII);
    /** The octets of an FPDU's CRC (these terms have CRC on and no markers). */
    private static final int CRC = 4;
    /** The DDP control octet's T and L bits (RFC 5041 section 4.2). */
    private static final int DDP_TAGGED = 0x80;
    private static final int DDP_LAST = 0x40;

    /** The receiving side, ready as for every input: its regions, Receives and outstanding Reads. */
    private static final class Receiver {
        final EmbeddedPair pair;
        final IwarpConnection verbs;
        final int writable;
        final int readable;
        final int sink;
        /** A region the peer may invalidate (RFC 5040 section 5.3) without breaking the rest. */
        final int disposable;
        final List<WorkCompletion> completions = new ArrayList<>();
        final int posted;

        Receiver(long chunkSeed, int maxChunk, Buffers buffers) throws IOException {
            pair = EmbeddedPair.openSmall(EmbeddedPair.Terms.defaults(), chunkSeed, maxChunk);
            verbs = pair.initiator().verbs();
            writable = verbs.register(buffers.writable, EnumSet.of(Access.REMOTE_WRITE, Access.LOCAL_WRITE)).stag();
            readable = verbs.register(buffers.readable, EnumSet.of(Access.REMOTE_READ)).stag();
            MemoryRegion sinkRegion = verbs.register(buffers.sink, EnumSet.of(Access.LOCAL_WRITE));
            sink = sinkRegion.stag();
            MemoryRegion inbox = verbs.register(buffers.inbox, EnumSet.of(Access.LOCAL_WRITE));
            disposable = verbs.register(buffers.disposable, EnumSet.of(Access.REMOTE_WRITE)).stag();
            int at = 0;
            int count = 0;
            for (byte[] shape : RECEIVE_SHAPES) {
                RegionSlice[] slices = new RegionSlice[shape.length];
                for (int i = 0; i < shape.length; i++) {
                    slices[i] = inbox.slice(at, shape[i]);
                    at += shape[i];
                }
                verbs.submit(new ReceiveRequest().tag(count++).scatter(slices))
                        .whenComplete((done, failure) -> completions.add(done));
            }
            for (int[] read : READS) {
                verbs.submit(new ReadRequest().tag(count++).source(new RemoteBuffer(0x0BAD_0000, 0, read[1]))
                        .sink(sinkRegion.slice(read[0], read[1]))).whenComplete((done, failure) -> completions.add(done));
            }
            posted = count;
            pair.transmitOnly(pair.initiator());  // the Read Requests are out; the peer never sees them
        }
    }

    /** Heap buffers the regions of every input's receiver wrap (registered anew each time). */
    private static final class Buffers {
        final ByteBuffer writable = ByteBuffer.allocate(REGION);
        final ByteBuffer readable = ByteBuffer.allocate(REGION);
        final ByteBuffer sink = ByteBuffer.allocate(REGION);
        final ByteBuffer inbox = ByteBuffer.allocate(REGION);
        final ByteBuffer disposable = ByteBuffer.allocate(16);
    }

    private final Buffers buffers = new Buffers();
    /** The STags every receiver gets (deterministic: {@link EmbeddedPair}'s registries). */
    private final Receiver template;

    QueuePairReceiveFuzzTest() throws IOException {
        template = new Receiver(0, 1, buffers);
    }

    @Test
    @DisplayName("Valid conversations: nothing ends, every request the conversation serves completes SUCCESS")
    void validConversationsPass() throws Exception {
        for (int index = 0; index < 500; index++) {
            SplittableRandom random = new SplittableRandom(index);
            Conversation conversation = new Conversation(random, template);
            byte[] octets = RawSegments.fpdus(conversation.ulpdus);
            Receiver receiver = feed(octets, random.nextLong(), 1 + random.nextInt(64));
            assertTrue(receiver.pair.initiator().isConnected() || conversation.terminated,
                    "input " + index + " ended: " + receiver.pair.initiator().failure() + "; "
                            + HexFormat.of().formatHex(octets));
            if (!conversation.terminated) {
                assertEquals(conversation.servedRequests, receiver.completions.size(), "input " + index);
                for (WorkCompletion done : receiver.completions) {
                    assertEquals(CompletionStatus.SUCCESS, done.status(), "input " + index + ": " + done);
                }
                assertStillWorks(receiver, octets);
            }
        }
    }

    @Test
    @DisplayName("Mutated conversations: no exception, no hang, every end a Terminate (never local catastrophic), every request completed")
    void mutatedConversations() {
        int[] ended = new int[4];  // by a Terminate sent, by one received; left up, checked both ways, one way
        Fuzz.Stats stats = Fuzz.run("queue pair receive side", Fuzz.inputs(INPUTS), this::mutatedConversation,
                (input, random) -> check(input, random, ended));
        Tier.current().figures("fuzz %s: %d ended in a Terminate sent, %d in one received; %d left up carried"
                + " traffic both ways afterwards, %d left a message unfinished and carried a Send out", stats.surface,
                ended[0], ended[1], ended[2], ended[3]);
        assertTrue(ended[0] > stats.total() / 2, "most mutants break a rule: " + ended[0]);
        assertTrue(ended[2] > 0, "some mutants leave the connection up, and it is checked");
    }

    /**
     * Found by this fuzz on the receive side as it was: a Send whose FPDU fails its CRC, the
     * octets in chunks of 1 to 3. The reader kept parsing the rest of the stream after the
     * Terminate and spun for ever in SegmentReader.read; now the stream ends at the Terminate.
     */
    @Test
    @DisplayName("Regression: an FPDU with a bad CRC, then more octets: one Terminate (MPA CRC error), no hang")
    void regressionBadCrcThenMoreOctets() throws IOException {
        byte[] input = HexFormat.of().parseHex("003541450000000000000000000000010000000002b532858be80b11321c9ec472065327"
                + "aae1001df26d09592b96122de6097e88e6b300bb3f6441004ec1420000036e00000000000000004bb30329927dac28a9ef"
                + "deea5d909fe32c5398b8721a521f480a160c18468f776b6bb9f9c4");
        Receiver receiver = feed(input, -4774761173542740515L, 3);
        TerminateAssertions.assertTerminate(receiver.pair.initiator().terminateWritten(), 0x20, 0x02, 0);
        assertEquals(receiver.posted, receiver.completions.size(), "every request completed");
        check(input, new SplittableRandom(0), new int[4]);
    }

    private byte[] mutatedConversation(SplittableRandom random) {
        Conversation conversation = new Conversation(random, template);
        List<byte[]> ulpdus = conversation.ulpdus;
        if (random.nextInt(8) == 0) {
            return Mutator.mutate(random, RawSegments.fpdus(ulpdus), new Mutator.Field[] {new Mutator.Field(0, 2)},
                    null);  // after framing: lengths, pads, CRCs
        }
        int mutations = 1 + random.nextInt(2);
        for (int i = 0; i < mutations && !ulpdus.isEmpty(); i++) {
            int at = random.nextInt(ulpdus.size());
            switch (random.nextInt(6)) {
                case 0:
                    ulpdus.remove(at);
                    break;
                case 1:
                    ulpdus.add(at, ulpdus.get(at).clone());
                    break;
                case 2:
                    ulpdus.add(ulpdus.remove(at));
                    break;
                default:
                    byte[] ulpdu = ulpdus.get(at);
                    byte[] donor = ulpdus.get(random.nextInt(ulpdus.size()));
                    byte[] mutant = Mutator.mutate(random, ulpdu, headerFields(ulpdu), donor);
                    ulpdus.set(at, mutant.length > 0xFFFF ? ulpdu : mutant);
            }
        }
        return RawSegments.fpdus(ulpdus);
    }

    /** The DDP header's fields (RFC 5041 section 4), and a Read Request's or Terminate's after it. */
    private static Mutator.Field[] headerFields(byte[] ulpdu) {
        boolean tagged = ulpdu.length > 0 && (ulpdu[0] & 0x80) != 0;
        if (tagged) {
            return new Mutator.Field[] {new Mutator.Field(0, 1), new Mutator.Field(1, 1), new Mutator.Field(2, 4),
                new Mutator.Field(6, 4), new Mutator.Field(10, 4)};
        }
        return new Mutator.Field[] {new Mutator.Field(0, 1), new Mutator.Field(1, 1), new Mutator.Field(2, 4),
            new Mutator.Field(6, 4), new Mutator.Field(10, 4), new Mutator.Field(14, 4), new Mutator.Field(18, 4),
            new Mutator.Field(26, 4), new Mutator.Field(30, 4), new Mutator.Field(38, 4)};
    }

    private void check(byte[] input, SplittableRandom random, int[] ended) throws IOException {
        Receiver receiver = feed(input, random.nextLong(), 1 + random.nextInt(64));
        EmbeddedPair.Side side = receiver.pair.initiator();
        if (side.isConnected()) {
            ended[assertStillWorks(receiver, input) ? 2 : 3]++;
            return;
        }
        byte[] terminate = side.terminateWritten();
        String failure = side.failure();
        if (terminate != null) {
            if ((terminate[0] & 0xFF) == 0x00) {
                throw new AssertionError("a bug of ours was caught (Terminate 0x00/0x00): " + failure);
            }
            ended[0]++;
        } else if (failure.startsWith("terminated by the peer")) {
            ended[1]++;
        } else {
            throw new AssertionError("ended without a Terminate: " + failure);
        }
        if (receiver.completions.size() != receiver.posted) {
            throw new AssertionError(receiver.completions.size() + " of " + receiver.posted
                    + " requests completed after the end: " + failure);
        }
    }

    /**
     * Proves a connection the input left up still works: a Send of this side reaches a Receive of
     * the real peer (its own completion may wait behind this side's outstanding Reads, the send
     * queue's order, but it is not an error), and, unless the input left a message unfinished
     * (an FPDU cut short, which the deframer waits to complete, or a tagged message without its
     * last segment, which the next tagged segment must continue: RFC 5041 section 4.2), an RDMA
     * Write from the peer into a region registered after the input lands.
     *
     * @return whether both ways were checked
     */
    private static boolean assertStillWorks(Receiver receiver, byte[] input) throws IOException {
        EmbeddedPair pair = receiver.pair;
        boolean receivable = leavesNothingUnfinished(input);
        if (receivable) {
            ByteBuffer landing = ByteBuffer.allocate(AFTERWARDS.length);
            int stag = receiver.verbs.register(landing, EnumSet.of(Access.REMOTE_WRITE, Access.LOCAL_WRITE)).stag();
            pair.inject(pair.responder(), RawSegments.fpdu(RawSegments.tagged(WRITE, true, stag, 0, AFTERWARDS)));
            pair.carry(pair.responder());
            if (!pair.initiator().isConnected()) {
                throw new AssertionError("a Write after the input ended the connection: " + pair.initiator().failure());
            }
            if (!Arrays.equals(AFTERWARDS, landing.array())) {
                throw new AssertionError("a Write after the input did not land: " + HexFormat.of().formatHex(landing.array()));
            }
        }
        pair.discardInFlight(pair.initiator());  // its answers to the injected conversation, which the peer never had
        IwarpConnection peer = pair.responder().verbs();
        ByteBuffer arrivals = ByteBuffer.allocate(AFTERWARDS.length);
        MemoryRegion inbox = peer.register(arrivals, EnumSet.of(Access.LOCAL_WRITE));
        CompletableFuture<WorkCompletion> received = peer.submit(
                new ReceiveRequest().tag(100).scatter(inbox.slice(0, AFTERWARDS.length)));
        MemoryRegion outbox = receiver.verbs.register(ByteBuffer.wrap(AFTERWARDS.clone()),
                EnumSet.of(Access.LOCAL_WRITE));
        CompletableFuture<WorkCompletion> sent = receiver.verbs.submit(
                new SendRequest().tag(101).gather(outbox.slice(0, AFTERWARDS.length)));
        pair.carry(pair.initiator());
        WorkCompletion arrived = received.getNow(null);
        WorkCompletion left = sent.getNow(null);
        if (arrived == null || arrived.status() != CompletionStatus.SUCCESS
                || left != null && left.status() != CompletionStatus.SUCCESS) {
            throw new AssertionError("a Send after the input: sent " + left + ", received " + arrived + "; "
                    + pair.initiator().failure() + "; peer " + pair.responder().failure());
        }
        if (!Arrays.equals(AFTERWARDS, arrivals.array())) {
            throw new AssertionError("a Send after the input arrived as " + HexFormat.of().formatHex(arrivals.array()));
        }
        return receivable;
    }

    /**
     * Whether the FPDU lengths (RFC 5044 section 4) walk exactly to the input's end and its last
     * tagged segment, if any, ends its message (the DDP L bit).
     */
    private static boolean leavesNothingUnfinished(byte[] input) {
        int at = 0;
        boolean taggedUnfinished = false;
        while (at + 2 <= input.length) {
            int length = (input[at] & 0xFF) << 8 | input[at + 1] & 0xFF;
            if (length > 0 && at + 2 < input.length && (input[at + 2] & DDP_TAGGED) != 0) {
                taggedUnfinished = (input[at + 2] & DDP_LAST) == 0;
            }
            at += 2 + length + FpduFramer.padLength(length) + CRC;
        }
        return at == input.length && !taggedUnfinished;
    }

    /** A fresh receiver, the octets put on the wire from its peer and carried across in chunks. */
    private Receiver feed(byte[] octets, long chunkSeed, int maxChunk) throws IOException {
        Receiver receiver = new Receiver(chunkSeed, maxChunk, buffers);
        if (receiver.writable != template.writable || receiver.sink != template.sink
                || receiver.disposable != template.disposable) {
            throw new AssertionError("STags differ between receivers: the inputs would mean different things");
        }
        receiver.pair.inject(receiver.pair.responder(), octets);
        receiver.pair.carry(receiver.pair.responder());
        receiver.pair.transmitOnly(receiver.pair.initiator());  // its Terminate, if any
        return receiver;
    }

    /** A valid conversation from the peer to a receiver set up as {@link Receiver} is. */
    private static final class Conversation {
        final List<byte[]> ulpdus = new ArrayList<>();
        /** Requests of the receiver the conversation completes (Receives filled, Reads answered). */
        int servedRequests;
        boolean terminated;

        private int sendMsn = 1;
        private int readRequestMsn = 1;
        private int receivesUsed;
        private int readsAnswered;

        Conversation(SplittableRandom random, Receiver receiver) {
            int messages = 1 + random.nextInt(6);
            for (int i = 0; i < messages; i++) {
                switch (random.nextInt(5)) {
                    case 0:
                        send(random, receiver);
                        break;
                    case 1:
                        write(random, receiver);
                        break;
                    case 2:
                        readRequest(random, receiver);
                        break;
                    default:
                        readResponse(random, receiver);
                }
            }
            if (random.nextInt(10) == 0) {
                byte[] control = RawSegments.terminateControl(random.nextInt(3), random.nextInt(3), random.nextInt(256));
                ulpdus.add(RawSegments.untagged(TERMINATE, true, 2, 1, 0, control));
                terminated = true;
            }
        }

        private void send(SplittableRandom random, Receiver receiver) {
            if (receivesUsed == RECEIVE_SHAPES.length) {
                return;
            }
            int capacity = 0;
            for (byte piece : RECEIVE_SHAPES[receivesUsed]) {
                capacity += piece;
            }
            receivesUsed++;
            servedRequests++;
            int opcode = SEND + random.nextInt(4);  // Send, with Invalidate, with SE, with SE and Invalidate
            int invalidate = opcode == 0x4 || opcode == 0x6 ? receiver.disposable : 0;
            byte[] payload = payload(random, random.nextInt(capacity + 1));
            int msn = sendMsn++;
            int offset = 0;
            for (int[] piece : split(random, payload.length)) {
                byte[] part = java.util.Arrays.copyOfRange(payload, piece[0], piece[0] + piece[1]);
                boolean last = piece[0] + piece[1] == payload.length;
                ulpdus.add(RawSegments.untagged(opcode, last, invalidate, 0, msn, offset, part));
                offset += piece[1];
            }
        }

        private void write(SplittableRandom random, Receiver receiver) {
            int start = random.nextInt(REGION);
            byte[] payload = payload(random, random.nextInt(REGION - start + 1));
            for (int[] piece : split(random, payload.length)) {
                boolean last = piece[0] + piece[1] == payload.length;
                ulpdus.add(RawSegments.tagged(WRITE, last, receiver.writable, start + piece[0],
                        java.util.Arrays.copyOfRange(payload, piece[0], piece[0] + piece[1])));
            }
        }

        private void readRequest(SplittableRandom random, Receiver receiver) {
            if (readRequestMsn > 8) {
                return;  // IRD 8
            }
            int start = random.nextInt(REGION);
            int size = random.nextInt(REGION - start + 1);
            ulpdus.add(RawSegments.untagged(READ_REQUEST, true, 1, readRequestMsn++, 0,
                    RawSegments.readRequestHeader(0x0C0F_FE00, random.nextInt(64), size, receiver.readable, start)));
        }

        private void readResponse(SplittableRandom random, Receiver receiver) {
            if (readsAnswered == READS.length) {
                return;
            }
            int[] read = READS[readsAnswered++];
            servedRequests++;
            byte[] payload = payload(random, read[1]);
            for (int[] piece : split(random, payload.length)) {
                boolean last = piece[0] + piece[1] == payload.length;
                ulpdus.add(RawSegments.tagged(READ_RESPONSE, last, receiver.sink, read[0] + piece[0],
                        java.util.Arrays.copyOfRange(payload, piece[0], piece[0] + piece[1])));
            }
        }

        /** A message's segments: {offset, length} pairs, one to three, covering it (one empty segment for an empty message). */
        private static List<int[]> split(SplittableRandom random, int length) {
            List<int[]> pieces = new ArrayList<>();
            int segments = length == 0 ? 1 : 1 + random.nextInt(Math.min(3, length));
            int at = 0;
            for (int i = 0; i < segments; i++) {
                int size = i == segments - 1 ? length - at : 1 + random.nextInt(length - at - (segments - 1 - i));
                pieces.add(new int[] {at, size});
                at += size;
            }
            return pieces;
        }

        private static byte[] payload(SplittableRandom random, int length) {
            byte[] payload = new byte[length];
            for (int i = 0; i < length; i++) {
                payload[i] = (byte) random.nextInt(256);
            }
            return payload;
        }
    }
}

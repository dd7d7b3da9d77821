package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.WorkCompletion;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With CRCs, a large Send into a stream's own receive buffer is read from the socket straight
 * into that buffer and checked there (one copy fewer than through the hold), while a Send into
 * the application's memory still waits in the hold until its CRC matched. Driven as the engine
 * drives a connection: the FPDU's first octets arrive staged, the bulk is read into {@link
 * QueuePair#directTarget()}, the end arrives staged again.
 */
class SpeculativePlacementTest {

    /** A Send's payload, large enough to be read straight (a ULPDU of at least 16 KiB). */
    private static final int PAYLOAD = 40_000;
    /** The first staged read: MPA length, DDP header and some payload, as the engine's 4.5 KiB read. */
    private static final int FIRST_READ = 4608;
    private static final int MPA_LENGTH = 2;
    private static final int UNTAGGED_HEADER = 18;
    /** The MSN's last octet in the FPDU (MPA length, then the DDP header: QN at 6-9, MSN at 10-13). */
    private static final int MSN_LAST_OCTET = MPA_LENGTH + 13;
    private static final int QN_LAST_OCTET = MPA_LENGTH + 9;

    private final List<WorkCompletion> completions = new ArrayList<>();
    private final List<CompletionStatus> internal = new ArrayList<>();

    @Test
    void aLargeSendIntoAStreamBufferIsReadStraightThereAndDelivered() throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(1, 64);
        QueuePair qp = pair.initiator().queuePair;
        ByteBuffer streamBuffer = ByteBuffer.allocateDirect(65536);
        postStreamBuffer(qp, streamBuffer.duplicate());
        byte[] payload = payload();
        byte[] wire = oneSend(payload);

        qp.receive(ByteBuffer.wrap(wire, 0, FIRST_READ));
        ByteBuffer target = qp.directTarget();
        assertTrue(qp.directCapacity() > 0, "the bulk may be read straight");
        assertEquals(FIRST_READ - MPA_LENGTH - UNTAGGED_HEADER, target.position(),
                "the payload at hand was placed in front of the direct read's place");
        assertTrue(internal.isEmpty(), "nothing completes before the CRC");
        int rest = readStraight(qp, wire, FIRST_READ);
        qp.receive(ByteBuffer.wrap(wire, rest, wire.length - rest));

        assertEquals(List.of(CompletionStatus.SUCCESS), internal);
        assertHolds(streamBuffer, payload);
        assertTrue(qp.isConnected());
    }

    @Test
    void theStreamBufferIsTheDirectTargetAndTheHoldIsNot() throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(1, 64);
        QueuePair qp = pair.initiator().queuePair;
        ByteBuffer streamBuffer = ByteBuffer.allocateDirect(65536);
        ByteBuffer posted = streamBuffer.duplicate();
        postStreamBuffer(qp, posted);
        byte[] wire = oneSend(payload());

        qp.receive(ByteBuffer.wrap(wire, 0, FIRST_READ));

        assertSame(posted, qp.directTarget(), "the posted buffer itself");
    }

    @Test
    void theSecondSegmentOfASendGoesStraightIntoTheReceiveBeingFilled() throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(1, 64);
        QueuePair qp = pair.initiator().queuePair;
        ByteBuffer streamBuffer = ByteBuffer.allocateDirect(65536);
        ByteBuffer posted = streamBuffer.duplicate();
        postStreamBuffer(qp, posted);
        byte[] payload = payload();
        int half = PAYLOAD / 2;
        byte[] first = RawSegments.fpdu(RawSegments.untagged(RawSegments.SEND, false, 0, 1, 0,
                java.util.Arrays.copyOfRange(payload, 0, half)));
        byte[] second = RawSegments.fpdu(RawSegments.untagged(RawSegments.SEND, true, 0, 1, half,
                java.util.Arrays.copyOfRange(payload, half, PAYLOAD)));

        qp.receive(ByteBuffer.wrap(first));  // whole in the input: checked where it lies
        qp.receive(ByteBuffer.wrap(second, 0, FIRST_READ));
        assertSame(posted, qp.directTarget(), "the Receive being filled, at the second segment's offset");
        assertEquals(half + FIRST_READ - MPA_LENGTH - UNTAGGED_HEADER, posted.position());
        int rest = readStraight(qp, second, FIRST_READ);
        qp.receive(ByteBuffer.wrap(second, rest, second.length - rest));

        assertEquals(List.of(CompletionStatus.SUCCESS), internal);
        assertHolds(streamBuffer, payload);
    }

    @Test
    void aConnectionClosedBeforeTheCrcDropsTheSpeculatedSend() throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(1, 64);
        QueuePair qp = pair.initiator().queuePair;
        postStreamBuffer(qp, ByteBuffer.allocateDirect(65536));
        byte[] wire = oneSend(payload());

        qp.receive(ByteBuffer.wrap(wire, 0, FIRST_READ));
        int rest = readStraight(qp, wire, FIRST_READ);
        qp.close();  // the application, on another thread, in the middle of the FPDU
        qp.receive(ByteBuffer.wrap(wire, rest, wire.length - rest));

        assertEquals(List.of(CompletionStatus.FLUSHED), internal, "completed once, by the close");
        assertEquals("the connection was closed", qp.failure(), "and not as a fault of ours");
    }

    @Test
    void aLargeSendIntoTheApplicationsMemoryWaitsInTheHold() throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(1, 64);
        QueuePair qp = pair.initiator().queuePair;
        ByteBuffer inbox = ByteBuffer.allocateDirect(65536);
        MemoryRegion region = pair.initiator().verbs().register(inbox, EnumSet.of(Access.LOCAL_WRITE));
        pair.initiator().verbs().submit(new ReceiveRequest().tag(3).scatter(region.slice(0, 65536)))
                .whenComplete((done, failure) -> completions.add(done));
        byte[] payload = payload();
        byte[] wire = oneSend(payload);

        qp.receive(ByteBuffer.wrap(wire, 0, FIRST_READ));
        assertNotSame(inbox, qp.directTarget());
        int rest = readStraight(qp, wire, FIRST_READ);
        assertTrue(zero(inbox, PAYLOAD), "nothing placed in the application's memory before the CRC");
        qp.receive(ByteBuffer.wrap(wire, rest, wire.length - rest));

        assertEquals(1, completions.size());
        assertEquals(CompletionStatus.SUCCESS, completions.get(0).status());
        assertHolds(inbox, payload);
    }

    @Test
    void aFlippedPayloadOctetEndsWithTheCrcTerminateAndTheStreamBufferIsNeverDelivered() throws Exception {
        assertFlipEndsWithTheCrcTerminate(MPA_LENGTH + UNTAGGED_HEADER + 30_000, true);
    }

    @Test
    void aGarbledSequenceNumberEndsWithTheCrcTerminateAndTheStreamBufferIsNeverDelivered() throws Exception {
        // The unchecked MSN (9, not 1) is out of order, which DDP would refuse, yet names the
        // queue's head as MSN 1 does: the payload goes there, then the CRC fails first.
        assertFlipEndsWithTheCrcTerminate(MSN_LAST_OCTET, true);
    }

    @Test
    void aGarbledHeaderThatNamesNoBufferGoesThroughTheHoldAndEndsWithTheCrcTerminate() throws Exception {
        // The queue number's last octet: queue 8 does not exist, so nothing is read straight.
        assertFlipEndsWithTheCrcTerminate(QN_LAST_OCTET, false);
    }

    /** @param readStraight whether the unchecked headers name the stream buffer, which then takes the payload */
    private void assertFlipEndsWithTheCrcTerminate(int flipped, boolean readStraight) throws Exception {
        EmbeddedPair pair = EmbeddedPair.open(1, 64);
        QueuePair qp = pair.initiator().queuePair;
        ByteBuffer streamBuffer = ByteBuffer.allocateDirect(65536);
        postStreamBuffer(qp, streamBuffer.duplicate());
        byte[] wire = oneSend(payload());
        wire[flipped] ^= 0x08;

        qp.receive(ByteBuffer.wrap(wire, 0, FIRST_READ));
        assertEquals(readStraight, qp.directCapacity() > 0);
        int rest = readStraight ? readStraight(qp, wire, FIRST_READ) : FIRST_READ;
        assertEquals(readStraight, !zero(streamBuffer, PAYLOAD), "the payload went to the stream buffer unchecked");
        qp.receive(ByteBuffer.wrap(wire, rest, wire.length - rest));

        assertEquals(List.of(CompletionStatus.FLUSHED), internal, "the stream never sees that buffer's octets");
        pair.transmitOnly(pair.initiator());
        byte[] terminate = pair.initiator().terminateWritten();
        assertNotNull(terminate, "a Terminate went out");
        assertEquals(0x20, terminate[0] & 0xFF, "layer 2 (LLP), type 0");
        assertEquals(0x02, terminate[1] & 0xFF, "MPA CRC error (RFC 5040 section 4.8)");
        assertTrue(!qp.isConnected());
    }

    /**
     * As the engine's direct reads: octets from {@code from} straight into the direct target, as
     * far as it takes them, reported after each read.
     *
     * @return where the staged input continues
     */
    private static int readStraight(QueuePair qp, byte[] wire, int from) {
        int at = from;
        for (int capacity; (capacity = qp.directCapacity()) > 0; ) {
            int count = Math.min(capacity, 16 * 1024);  // a few reads, as the socket gives them
            ByteBuffer target = qp.directTarget();
            target.put(target.position(), wire, at, count);
            target.position(target.position() + count);
            qp.placedDirectly(count);
            at += count;
        }
        return at;
    }

    /** Posts a stream receive buffer, as the stream does: a plain buffer, the engine's own. */
    private void postStreamBuffer(QueuePair qp, ByteBuffer posted) throws QueuePairClosedException {
        qp.postInternalReceive(posted, 7, completion -> internal.add(completion.status()));
    }

    /** The peer's first Send (MSN 1) of the payload, whole in one FPDU with its CRC. */
    private static byte[] oneSend(byte[] payload) {
        return RawSegments.fpdu(RawSegments.untagged(RawSegments.SEND, true, 0, 1, 0, payload));
    }

    /** The payload is in the buffer, from its first octet. */
    private static void assertHolds(ByteBuffer buffer, byte[] payload) {
        byte[] placed = new byte[payload.length];
        buffer.get(0, placed);
        assertArrayEquals(payload, placed);
    }

    private static boolean zero(ByteBuffer buffer, int length) {
        for (int i = 0; i < length; i++) {
            if (buffer.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    private static byte[] payload() {
        byte[] payload = new byte[PAYLOAD];
        for (int i = 0; i < PAYLOAD; i++) {
            payload[i] = (byte) (i * 31 + 7);
        }
        return payload;
    }
}

package io.extsock.core.ddp;

import static io.extsock.core.ddp.TestSegments.untagged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class UntaggedMessageTrackerTest {

    /** Buffers of 1000 octets for every message; records each question. */
    private final List<String> asked = new ArrayList<>();
    private long capacity = 1000;
    private final UntaggedMessageTracker tracker = new UntaggedMessageTracker((queue, msn) -> {
        asked.add(queue + "/" + Integer.toUnsignedString(msn));
        return capacity;
    });

    @Test
    void theFirstMessageOfEveryQueueHasMsnOne_rfc5041_4_3() throws Exception {
        for (int queue = 0; queue < 3; queue++) {
            assertEquals(1, tracker.expectedMessageSequenceNumber(queue));
            assertTrue(tracker.accept(untagged(queue, 1, 0, 10, true)));
        }
        UntaggedMessageTracker fresh = new UntaggedMessageTracker((queue, msn) -> 1000);
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_MSN_RANGE, fresh, untagged(0, 0, 0, 10, true));
    }

    @Test
    void msnGrowsByOnePerMessage_rfc5041_4_3() throws Exception {
        tracker.accept(untagged(0, 1, 0, 10, true));
        tracker.accept(untagged(0, 2, 0, 10, true));
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_MSN_RANGE, untagged(0, 2, 0, 10, true));
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_MSN_RANGE, untagged(0, 4, 0, 10, true));
        assertTrue(tracker.accept(untagged(0, 3, 0, 10, true)));
    }

    @Test
    void msnWrapsToZeroAfterAllOnes_rfc5041_4_3() throws Exception {
        tracker.skipTo(0, 0xFFFF_FFFE);
        tracker.accept(untagged(0, 0xFFFF_FFFE, 0, 1, true));
        tracker.accept(untagged(0, 0xFFFF_FFFF, 0, 1, true));
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_MSN_RANGE, untagged(0, 1, 0, 1, true));
        tracker.accept(untagged(0, 0, 0, 1, true));
        assertEquals(1, tracker.expectedMessageSequenceNumber(0));
    }

    @Test
    void allSegmentsOfAMessageShareItsMsnAndContinueItsMo_rfc5041_5_2() throws Exception {
        assertFalse(tracker.accept(untagged(0, 1, 0, 100, false)));
        assertFalse(tracker.accept(untagged(0, 1, 100, 100, false)));
        assertTrue(tracker.accept(untagged(0, 1, 200, 50, true)));
        assertEquals(250, tracker.completedMessageLength(), "the message length DDP hands up (RFC 5041 5.4)");
        assertEquals(List.of("0/1"), asked, "one buffer question per message");
    }

    @Test
    void aGapInMoIsInvalidMo_rfc5041_7_1_check3() throws Exception {
        tracker.accept(untagged(0, 1, 0, 100, false));
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_MO, untagged(0, 1, 150, 10, true));
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_MO, untagged(0, 1, 0, 10, true));
    }

    @Test
    void aMessageStartsAtMoZero_rfc5041_4_3() {
        assertCause(TerminateCause.DDP_UNTAGGED_INVALID_MO, untagged(0, 1, 10, 10, true));
        assertTrue(asked.isEmpty(), "no buffer is claimed for a malformed start");
    }

    @Test
    void theNextMessageCannotStartBeforeTheLastOneEnds_rfc5041_5_3() throws Exception {
        tracker.accept(untagged(0, 1, 0, 100, false));
        ProtocolViolationException e = assertCause(TerminateCause.DDP_UNTAGGED_INVALID_MSN_RANGE,
                untagged(0, 2, 0, 10, true));
        assertTrue(e.getMessage().contains("unfinished"), e.getMessage());
    }

    @Test
    void noBufferForTheMessageIsNoBufferAvailable_rfc5041_7_1_check2() {
        capacity = UntaggedBufferLookup.NO_BUFFER;
        assertCause(TerminateCause.DDP_UNTAGGED_NO_BUFFER, untagged(0, 1, 0, 10, true));
        assertEquals(1, tracker.expectedMessageSequenceNumber(0), "a rejected segment changes nothing");
    }

    @Test
    void aMessageLongerThanItsBufferIsTooLong_rfc5041_7_1_check4() throws Exception {
        capacity = 150;
        tracker.accept(untagged(0, 1, 0, 100, false));
        assertCause(TerminateCause.DDP_UNTAGGED_MESSAGE_TOO_LONG, untagged(0, 1, 100, 51, true));
        assertTrue(tracker.messageInProgress(0), "a rejected segment changes nothing");
        assertTrue(tracker.accept(untagged(0, 1, 100, 50, true)), "exactly filling the buffer is fine");
    }

    @Test
    void aZeroLengthMessageStillConsumesABuffer_rfc5040_5_3() throws Exception {
        assertTrue(tracker.accept(untagged(0, 1, 0, 0, true)));
        assertEquals(List.of("0/1"), asked);
        assertEquals(0, tracker.completedMessageLength());
        capacity = UntaggedBufferLookup.NO_BUFFER;
        assertCause(TerminateCause.DDP_UNTAGGED_NO_BUFFER, untagged(0, 2, 0, 0, true));
    }

    @Test
    void queuesAreIndependentAndMayInterleave_rfc5041_5_1_2() throws Exception {
        tracker.accept(untagged(0, 1, 0, 100, false));
        tracker.accept(untagged(1, 1, 0, 28, true));
        tracker.accept(untagged(0, 1, 100, 100, false));
        tracker.accept(untagged(1, 2, 0, 28, true));
        assertTrue(tracker.accept(untagged(0, 1, 200, 1, true)));
        assertEquals(3, tracker.expectedMessageSequenceNumber(1));
        assertEquals(2, tracker.expectedMessageSequenceNumber(0));
        assertEquals(List.of("0/1", "1/1", "1/2"), asked);
    }

    @Test
    void senderMsnsStartAtOneAndCountPerQueue_rfc5041_4_3() {
        MessageSequenceNumbers numbers = new MessageSequenceNumbers();
        assertEquals(1, numbers.assign(0));
        assertEquals(2, numbers.assign(0));
        assertEquals(1, numbers.assign(2));
        assertEquals(3, numbers.peek(0));
        assertEquals(1, numbers.peek(1));
        assertThrows(IllegalArgumentException.class, () -> numbers.assign(3));
    }

    private ProtocolViolationException assertCause(TerminateCause expected, DdpSegmentHeader segment) {
        return assertCause(expected, tracker, segment);
    }

    private static ProtocolViolationException assertCause(TerminateCause expected, UntaggedMessageTracker tracker,
            DdpSegmentHeader segment) {
        ProtocolViolationException e = assertThrows(ProtocolViolationException.class, () -> tracker.accept(segment));
        assertSame(expected, e.terminateCause(), e.getMessage());
        assertTrue(e.getMessage().contains("RFC"), e.getMessage());
        return e;
    }
}

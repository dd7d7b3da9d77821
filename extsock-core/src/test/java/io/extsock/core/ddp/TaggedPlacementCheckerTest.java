package io.extsock.core.ddp;

import static io.extsock.core.ddp.TestSegments.tagged;
import static io.extsock.core.ddp.TestSegments.untagged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TaggedPlacementCheckerTest {

    private static final int SINK = 0x1000_0001;
    private static final int FOREIGN = 0x2000_0002;
    private static final int READ_ONLY = 0x3000_0003;
    private static final int TOP = 0x4000_0004;

    /** A toy STag table: SINK spans TO [0x1000, 0x2000). */
    private final Map<Integer, long[]> usable = new HashMap<>(Map.of(SINK, new long[] {0x1000, 0x1000},
            TOP, new long[] {-0x1000L, 0x1000}));
    private int lookups;
    private final TaggedBufferLookup table = (stag, answer) -> {
        lookups++;
        if (stag == FOREIGN) {
            answer.notAssociatedWithStream();
        } else if (stag == READ_ONLY) {
            answer.placementNotAllowed();
        } else if (usable.containsKey(stag)) {
            answer.usable(usable.get(stag)[0], usable.get(stag)[1]);
        } else {
            answer.noSuchStag();
        }
    };
    private final TaggedPlacementChecker checker = new TaggedPlacementChecker(table);

    @Test
    void placesDataInsideTheBuffer() throws Exception {
        checker.check(tagged(SINK, 0x1000, 0x1000, true));
        checker.check(tagged(SINK, 0x1800, 16, true));
        assertEquals(2, lookups);
    }

    @Test
    void unknownStagIsInvalidStag_rfc5041_7_1_check1() {
        assertCause(TerminateCause.DDP_TAGGED_INVALID_STAG, tagged(0x0bad, 0x1000, 1, true));
    }

    @Test
    void stagOfAnotherStreamIsNotAssociated_rfc5041_7_1_check1_and_8_2() {
        assertCause(TerminateCause.DDP_TAGGED_STAG_NOT_ASSOCIATED, tagged(FOREIGN, 0x1000, 1, true));
    }

    @Test
    void stagWithoutRemoteWriteIsInvalidStag_rfc5041_7_1_check2() {
        assertCause(TerminateCause.DDP_TAGGED_INVALID_STAG, tagged(READ_ONLY, 0x1000, 1, true));
    }

    @Test
    void toBelowTheBufferIsBaseOrBounds_rfc5041_7_1_check3() {
        assertCause(TerminateCause.DDP_TAGGED_BASE_OR_BOUNDS, tagged(SINK, 0x0fff, 1, true));
        assertCause(TerminateCause.DDP_TAGGED_BASE_OR_BOUNDS, tagged(SINK, 0x2000, 1, true));
    }

    @Test
    void payloadRunningPastTheBufferIsBaseOrBounds_rfc5041_7_1_check4() {
        assertCause(TerminateCause.DDP_TAGGED_BASE_OR_BOUNDS, tagged(SINK, 0x1ff0, 17, true));
    }

    @Test
    void toPlusLengthWrapping2To64IsToWrap_rfc5041_7_1_check5() throws Exception {
        checker.check(tagged(TOP, -0x1000L, 0x0fff, true));
        assertCause(TerminateCause.DDP_TAGGED_TO_WRAP, tagged(TOP, -16L, 16, true));
        assertCause(TerminateCause.DDP_TAGGED_TO_WRAP, tagged(SINK, -1L, 2, true));
    }

    @Test
    void zeroLengthSegmentsAreNotChecked_rfc5041_5_2() throws Exception {
        checker.check(tagged(0, 0, 0, true));
        checker.check(tagged(FOREIGN, -1L, 0, true));
        assertEquals(0, lookups, "the STag of a zero-length message MUST NOT be checked");
    }

    @Test
    void laterSegmentsContinueTheTaggedOffset_rfc5041_5_2() throws Exception {
        checker.check(tagged(SINK, 0x1000, 100, false));
        assertTrue(checker.messageInProgress());
        assertCause(TerminateCause.DDP_TAGGED_BASE_OR_BOUNDS, tagged(SINK, 0x1065, 100, true));
        checker.check(tagged(SINK, 0x1064, 100, true));
        assertFalse(checker.messageInProgress());
    }

    @Test
    void laterSegmentsKeepTheStag_rfc5041_4_2() throws Exception {
        usable.put(0x77, new long[] {0, 0x10000});
        checker.check(tagged(SINK, 0x1000, 100, false));
        assertCause(TerminateCause.DDP_TAGGED_INVALID_STAG, tagged(0x77, 0x1064, 100, true));
    }

    @Test
    void sendsMayArriveBetweenSegmentsOfAReadResponse() throws Exception {
        DdpReceiveBookkeeping receiver = new DdpReceiveBookkeeping((queue, msn) -> 64, table);
        assertFalse(receiver.accept(tagged(SINK, 0x1000, 1000, false)));
        assertTrue(receiver.accept(untagged(0, 1, 0, 16, true)));
        assertFalse(receiver.accept(tagged(SINK, 0x1000 + 1000, 1000, false)));
        assertFalse(receiver.accept(untagged(0, 2, 0, 32, false)));
        assertTrue(receiver.accept(tagged(SINK, 0x1000 + 2000, 96, true)));
        assertTrue(receiver.accept(untagged(0, 2, 32, 32, true)));
        assertFalse(receiver.tagged().messageInProgress());
        assertEquals(3, receiver.untagged().expectedMessageSequenceNumber(0));
    }

    private void assertCause(TerminateCause expected, DdpSegmentHeader segment) {
        ProtocolViolationException e = assertThrows(ProtocolViolationException.class, () -> checker.check(segment));
        assertSame(expected, e.terminateCause(), e.getMessage());
        assertTrue(e.getMessage().contains("RFC"), e.getMessage());
    }
}

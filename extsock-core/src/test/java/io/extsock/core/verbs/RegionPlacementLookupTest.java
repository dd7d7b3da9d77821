package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.extsock.core.ddp.DdpConstants;
import io.extsock.core.ddp.DdpHeaderEncoder;
import io.extsock.core.ddp.DdpSegmentHeader;
import io.extsock.core.ddp.TaggedBufferDescription;
import io.extsock.core.ddp.TaggedPlacementChecker;
import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import io.extsock.verbs.Access;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/**
 * The registry as DDP's STag table: real segments through {@link TaggedPlacementChecker}, each
 * refusal with the RFC 5041 section 7.1 check and 7.2 code it maps to.
 */
class RegionPlacementLookupTest {

    private static final int WRITE_CONTROL = 0x40;  // RDMAP RV=01, opcode RDMA Write
    private static final int REGION = 4096;

    private final MemoryRegistry registry = new MemoryRegistry();
    private final TaggedPlacementChecker writes = new TaggedPlacementChecker(RegionPlacementLookup.forRdmaWrite(registry));
    private final TaggedPlacementChecker readResponses =
            new TaggedPlacementChecker(RegionPlacementLookup.forReadResponse(registry));

    @Test
    void writeIntoARemoteWritableRegionIsPlaced() throws Exception {
        RegisteredRegion region = register(Access.REMOTE_WRITE);
        writes.check(segment(region.stag(), 0, REGION));
        writes.check(segment(region.stag(), REGION - 1, 1));
    }

    @Test
    void theAcceptedSegmentsRegionIsAtHandForPlacement() throws Exception {
        RegionPlacementLookup lookup = RegionPlacementLookup.forRdmaWrite(registry);
        TaggedPlacementChecker checker = new TaggedPlacementChecker(lookup);
        RegisteredRegion region = register(Access.REMOTE_WRITE);
        checker.check(segment(region.stag(), 100, 10));
        assertSame(region, lookup.describedRegion());
        ByteBuffer window = lookup.describedRegion().placementWindow(100, 10);
        assertEquals(10, window.remaining());
        assertThrows(ProtocolViolationException.class, () -> checker.check(segment(region.stag() ^ 1, 0, 1)));
        assertNull(lookup.describedRegion(), "a refused STag leaves no region to place into");
    }

    @Test
    void answerSpansTheZeroBasedTaggedOffsets_rfc5040_3_2() throws IOException {
        RegisteredRegion region = register(Access.REMOTE_WRITE);
        TaggedBufferDescription answer = new TaggedBufferDescription();
        RegionPlacementLookup.forRdmaWrite(registry).describe(region.stag(), answer);
        assertSame(TaggedBufferDescription.Status.USABLE, answer.status());
        assertEquals(0, answer.firstTaggedOffset());
        assertEquals(REGION, answer.length());
    }

    @Test
    void unknownStagIsInvalidStag_rfc5041_7_1_check1() {
        assertCause(writes, TerminateCause.DDP_TAGGED_INVALID_STAG, segment(0x0012_3456, 0, 1));
    }

    @Test
    void staleStagIsInvalidStag_rfc5041_7_1_check1() throws IOException {
        RegisteredRegion region = register(Access.REMOTE_WRITE);
        region.close();
        RegisteredRegion reuser = register(Access.REMOTE_WRITE);
        assertCause(writes, TerminateCause.DDP_TAGGED_INVALID_STAG, segment(region.stag(), 0, 1));
        assertNotEquals(region.stag(), reuser.stag());
    }

    @Test
    void guessedStagIsInvalidStag_rfc5041_7_1_check1() throws IOException {
        RegisteredRegion region = register(Access.REMOTE_WRITE);
        int guess = region.stag() ^ 0x5a;
        assertCause(writes, TerminateCause.DDP_TAGGED_INVALID_STAG, segment(guess, 0, 1));
    }

    @Test
    void invalidatedStagIsInvalidStag_rfc5040_5_3() throws IOException {
        RegisteredRegion region = register(Access.REMOTE_WRITE);
        registry.invalidate(region.stag());
        assertCause(writes, TerminateCause.DDP_TAGGED_INVALID_STAG, segment(region.stag(), 0, 1));
    }

    @Test
    void writeWithoutRemoteWriteIsInvalidStag_rfc5041_7_1_check2() throws IOException {
        RegisteredRegion readable = register(Access.REMOTE_READ, Access.LOCAL_WRITE);
        assertCause(writes, TerminateCause.DDP_TAGGED_INVALID_STAG, segment(readable.stag(), 0, 1));
    }

    @Test
    void writeRunningPastTheRegionIsBaseOrBounds_rfc5041_7_1_checks3_and_4() throws IOException {
        RegisteredRegion region = register(Access.REMOTE_WRITE);
        assertCause(writes, TerminateCause.DDP_TAGGED_BASE_OR_BOUNDS, segment(region.stag(), REGION - 10, 11));
        assertCause(writes, TerminateCause.DDP_TAGGED_BASE_OR_BOUNDS, segment(region.stag(), REGION, 1));
    }

    @Test
    void toPlusLengthWrapping2To64IsToWrap_rfc5041_7_1_check5() throws IOException {
        RegisteredRegion region = register(Access.REMOTE_WRITE);
        assertCause(writes, TerminateCause.DDP_TAGGED_TO_WRAP, segment(region.stag(), -10L, 10));
        assertCause(writes, TerminateCause.DDP_TAGGED_BASE_OR_BOUNDS, segment(region.stag(), -11L, 10));
    }

    @Test
    void zeroLengthWriteIsNotChecked_rfc5040_5_2() throws Exception {
        writes.check(segment(0, 0, 0));  // RFC 6581 section 7 RTR: STag 0, no region
    }

    @Test
    void readResponseNeedsLocalWriteNotRemoteWrite() throws Exception {
        RegisteredRegion sink = register(Access.LOCAL_WRITE);
        readResponses.check(segment(sink.stag(), 0, REGION));
        RegisteredRegion remoteOnly = register(Access.REMOTE_WRITE);
        assertCause(readResponses, TerminateCause.DDP_TAGGED_INVALID_STAG, segment(remoteOnly.stag(), 0, 1));
        assertCause(writes, TerminateCause.DDP_TAGGED_INVALID_STAG, segment(sink.stag(), 0, 1));
    }

    private RegisteredRegion register(Access first, Access... rest) throws IOException {
        return registry.register(ByteBuffer.allocateDirect(REGION), EnumSet.of(first, rest), false);
    }

    private static DdpSegmentHeader segment(int stag, long taggedOffset, int payload) {
        ByteBuffer segment = ByteBuffer.allocate(DdpConstants.TAGGED_HEADER_LENGTH + payload);
        DdpHeaderEncoder.putTagged(segment, true, WRITE_CONTROL, stag, taggedOffset);
        try {
            return new DdpSegmentHeader().parse(segment.clear());
        } catch (ProtocolViolationException e) {
            throw new AssertionError(e);
        }
    }

    private static void assertCause(TaggedPlacementChecker checker, TerminateCause cause, DdpSegmentHeader segment) {
        ProtocolViolationException refused = assertThrows(ProtocolViolationException.class, () -> checker.check(segment));
        assertSame(cause, refused.terminateCause(), refused.getMessage());
    }
}

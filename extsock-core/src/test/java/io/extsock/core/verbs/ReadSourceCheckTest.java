package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.terminate.ProtocolViolationException;
import io.extsock.core.terminate.TerminateCause;
import io.extsock.verbs.Access;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** The Data Source's checks of an RDMA Read Request (RFC 5040 sections 5.2 and 7.2), one cause each. */
class ReadSourceCheckTest {

    private static final int REGION = 4096;

    private final MemoryRegistry registry = new MemoryRegistry();
    private final ReadSourceCheck check = new ReadSourceCheck(registry);

    @Test
    void readWithinARemoteReadableRegionIsServed() throws IOException {
        RegisteredRegion region = register(Access.REMOTE_READ);
        assertNull(check.check(region.stag(), 0, REGION));
        assertNull(check.check(region.stag(), REGION - 1, 1));
        assertNull(check.check(region.stag(), 100, 200));
    }

    @Test
    void unknownStagIsInvalidStag_rfc5040_7_2() {
        assertSame(TerminateCause.RDMAP_INVALID_STAG, check.check(0x0000_ab12, 0, 1));
    }

    @Test
    void staleStagIsInvalidStag_rfc5040_7_2() throws IOException {
        RegisteredRegion region = register(Access.REMOTE_READ);
        region.close();
        RegisteredRegion reuser = register(Access.REMOTE_READ);
        assertSame(TerminateCause.RDMAP_INVALID_STAG, check.check(region.stag(), 0, 1));
        assertNull(check.check(reuser.stag(), 0, 1));
    }

    @Test
    void guessedStagIsInvalidStag_rfc5040_7_2() throws IOException {
        RegisteredRegion region = register(Access.REMOTE_READ);
        int guess = region.stag() ^ 1;
        assertSame(TerminateCause.RDMAP_INVALID_STAG, check.check(guess, 0, 1));
    }

    @Test
    void invalidatedStagIsInvalidStag_rfc5040_5_3() throws IOException {
        RegisteredRegion region = register(Access.REMOTE_READ);
        assertNull(registry.invalidate(region.stag()));
        assertSame(TerminateCause.RDMAP_INVALID_STAG, check.check(region.stag(), 0, 1));
    }

    @Test
    void regionWithoutRemoteReadIsAccessRights_rfc5040_7_2() throws IOException {
        RegisteredRegion writable = register(Access.REMOTE_WRITE, Access.LOCAL_WRITE);
        assertSame(TerminateCause.RDMAP_ACCESS_RIGHTS, check.check(writable.stag(), 0, 1));
    }

    @Test
    void readPastTheRegionIsBaseOrBounds_rfc5040_7_2() throws IOException {
        RegisteredRegion region = register(Access.REMOTE_READ);
        assertSame(TerminateCause.RDMAP_BASE_OR_BOUNDS, check.check(region.stag(), REGION - 10, 11));
        assertSame(TerminateCause.RDMAP_BASE_OR_BOUNDS, check.check(region.stag(), REGION, 1));
        assertSame(TerminateCause.RDMAP_BASE_OR_BOUNDS, check.check(region.stag(), 0, 0xFFFF_FFFFL));
        assertSame(TerminateCause.RDMAP_BASE_OR_BOUNDS, check.check(region.stag(), Long.MIN_VALUE, 1),
                "a TO of 2^63 is above the region, not below zero");
    }

    @Test
    void toPlusSizeWrapping2To64IsToWrap_rfc5040_7_2() throws IOException {
        RegisteredRegion region = register(Access.REMOTE_READ);
        assertSame(TerminateCause.RDMAP_TO_WRAP, check.check(region.stag(), -1L, 1), "ends exactly at 2^64");
        assertSame(TerminateCause.RDMAP_TO_WRAP, check.check(region.stag(), -100L, 0xFFFF_FFFFL));
        assertSame(TerminateCause.RDMAP_BASE_OR_BOUNDS, check.check(region.stag(), -2L, 1), "ends at 2^64 - 1");
    }

    @Test
    void zeroLengthReadIsNotChecked_rfc5040_5_2_and_rfc6581_7() throws IOException {
        assertNull(check.check(0, 0, 0), "the zero-length RDMA Read RTR carries STag 0");
        RegisteredRegion writable = register(Access.REMOTE_WRITE);
        assertNull(check.check(writable.stag(), -1L, 0));
    }

    @Test
    void readSizeIs32Bits_rfc5040_4_4() {
        assertThrows(IllegalArgumentException.class, () -> check.check(0, 0, 1L << 32));
        assertThrows(IllegalArgumentException.class, () -> check.check(0, 0, -1));
    }

    @Test
    void describeNamesTheRequestAndLeavesTheCauseToTheException() {
        String text = ReadSourceCheck.describe(0x0000_0107, -1L, 10);
        assertTrue(text.contains("10 octets at TO 18446744073709551615 of STag 0x00000107"), text);
        assertFalse(text.contains("access rights violation"), text);

        String message = new ProtocolViolationException(TerminateCause.RDMAP_ACCESS_RIGHTS, text).getMessage();
        assertEquals(message.indexOf("access rights violation"), message.lastIndexOf("access rights violation"),
                "the cause once: " + message);
    }

    private RegisteredRegion register(Access first, Access... rest) throws IOException {
        return registry.register(ByteBuffer.allocateDirect(REGION), EnumSet.of(first, rest), false);
    }
}

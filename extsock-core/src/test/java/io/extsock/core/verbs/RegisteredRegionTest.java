package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.verbs.Access;
import io.extsock.verbs.RegionSlice;
import io.extsock.verbs.RemoteBuffer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class RegisteredRegionTest {

    private final MemoryRegistry registry = new MemoryRegistry();

    @Test
    void remoteNamesTheWholeRegionFromTaggedOffsetZero_rfc5040_3_2() throws IOException {
        RegisteredRegion region = registry.register(ByteBuffer.allocateDirect(4096), EnumSet.of(Access.REMOTE_READ),
                false);
        assertEquals(new RemoteBuffer(region.stag(), 0, 4096), region.remote());
        assertEquals(new RemoteBuffer(region.stag(), 100, 50), region.remote(100, 50));
        assertEquals(new RemoteBuffer(region.stag(), 4096, 0), region.remote(4096, 0));
    }

    @Test
    void anStagWithItsTopBitSetIsShownAndReturnedUnsigned() throws IOException {
        RegisteredRegion region = registry.register(ByteBuffer.allocate(8), EnumSet.of(Access.REMOTE_READ), false);
        for (int drawn = 1; region.stag() > 0; drawn++) {  // half the STags have it: 2^-64 to need 64 draws
            assertTrue(drawn < 64, "64 STags in a row without the top bit");
            region = registry.register(ByteBuffer.allocate(8), EnumSet.of(Access.REMOTE_READ), false);
        }

        String hex = String.format("0x%08x", region.stagUnsigned());
        assertEquals(Integer.toUnsignedLong(region.stag()), region.stagUnsigned());
        assertTrue(region.stagUnsigned() > Integer.MAX_VALUE, hex);
        assertTrue(region.toString().contains("stag=" + hex), region + " beside " + region.stagUnsigned());
        assertEquals(region.stagUnsigned(), region.remote().stagUnsigned());
        assertTrue(region.remote().toString().contains("stag=" + hex), region.remote().toString());
    }

    @Test
    void remoteWindowMustLieInsideTheRegion() throws IOException {
        RegisteredRegion region = registry.register(ByteBuffer.allocate(100), EnumSet.of(Access.REMOTE_WRITE), false);
        assertThrows(IndexOutOfBoundsException.class, () -> region.remote(90, 11));
        assertThrows(IndexOutOfBoundsException.class, () -> region.remote(-1, 10));
        assertThrows(IndexOutOfBoundsException.class, () -> region.remote(0, -1));
    }

    @Test
    void remoteNeedsARemoteRightAndNamesTheMissingOnes_rfc5042() throws IOException {
        RegisteredRegion region = registry.register(ByteBuffer.allocate(100), EnumSet.of(Access.LOCAL_WRITE), false);
        IllegalStateException e = assertThrows(IllegalStateException.class, region::remote);
        assertTrue(e.getMessage().contains("neither REMOTE_READ nor REMOTE_WRITE"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> region.remote(0, 10));
    }

    @Test
    void remoteOfAClosedRegionIsRefused() throws IOException {
        RegisteredRegion region = registry.register(ByteBuffer.allocate(100), EnumSet.of(Access.REMOTE_READ), false);
        region.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, region::remote);
        assertTrue(e.getMessage().contains("deregistered"), e.getMessage());
    }

    @Test
    void sliceIsAWindowOfThisRegion() throws IOException {
        RegisteredRegion region = registry.register(ByteBuffer.allocate(100), EnumSet.noneOf(Access.class), false);
        RegionSlice slice = region.slice(10, 20);
        assertSame(region, slice.region());
        assertEquals(10, slice.offset());
        assertEquals(20, slice.length());
        assertThrows(IndexOutOfBoundsException.class, () -> region.slice(90, 11));
    }

    @Test
    void bufferIsAFreshFullViewInTheOriginalsByteOrder() throws IOException {
        ByteBuffer original = ByteBuffer.allocateDirect(16).order(ByteOrder.LITTLE_ENDIAN);
        RegisteredRegion region = registry.register(original, EnumSet.of(Access.LOCAL_WRITE), false);
        ByteBuffer first = region.buffer();
        first.position(8).limit(12);
        ByteBuffer second = region.buffer();
        assertWindow(0, 16, second);
        assertEquals(ByteOrder.LITTLE_ENDIAN, second.order());
        second.putInt(0, 1);
        assertEquals(1, original.get(0), "little-endian, as registered");
    }

    @Test
    void placementAndTransmitWindowsAreReusedViewsOfTheRange() throws IOException {
        ByteBuffer original = ByteBuffer.allocateDirect(64);
        RegisteredRegion region = registry.register(original, EnumSet.of(Access.REMOTE_WRITE), false);
        ByteBuffer placement = region.placementWindow(8, 4);
        assertWindow(8, 12, placement);
        placement.put((byte) 1).put((byte) 2);
        assertEquals(2, original.get(9));
        assertSame(placement, region.placementWindow(0, 64), "one view, reused: no allocation per segment");
        ByteBuffer transmit = region.transmitWindow(9, 1);
        assertWindow(9, 10, transmit);
        assertEquals(2, transmit.get(9));
        assertThrows(ReadOnlyBufferException.class, () -> transmit.put(9, (byte) 0));
        assertThrows(IndexOutOfBoundsException.class, () -> region.placementWindow(60, 5));
    }

    @Test
    void toStringSaysWhatTheRegionIs() throws IOException {
        RegisteredRegion region = registry.register(ByteBuffer.allocate(8), EnumSet.of(Access.REMOTE_READ), false);
        String text = region.toString();
        assertTrue(text.contains(Stag.toString(region.stag())) && text.contains("heap"), text);
        region.close();
        assertTrue(region.toString().contains("deregistered"), region.toString());
    }

    private static void assertWindow(int position, int limit, ByteBuffer view) {
        assertEquals(position, view.position(), "position");
        assertEquals(limit, view.limit(), "limit");
    }
}

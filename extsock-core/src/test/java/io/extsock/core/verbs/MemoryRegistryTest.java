package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.terminate.TerminateCause;
import io.extsock.verbs.Access;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MemoryRegistryTest {

    private static final Set<Access> LOCAL = EnumSet.of(Access.LOCAL_WRITE);
    private static final Set<Access> READABLE = EnumSet.of(Access.REMOTE_READ);
    private static final Set<Access> WRITABLE = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE);

    private final MemoryRegistry registry = new MemoryRegistry();

    @Test
    void registeredRegionIsFoundByItsStag() throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(4096);
        RegisteredRegion region = registry.register(buffer, WRITABLE, false);
        assertSame(region, registry.lookup(region.stag()));
        assertEquals(4096, region.length());
        assertEquals(WRITABLE, region.access());
        assertTrue(region.isValid());
        assertFalse(region.isPinned());
        assertEquals(1, registry.registeredCount());
    }

    @Test
    void deregisteredStagNamesNothing_rfc5042_5() throws IOException {
        RegisteredRegion region = registry.register(ByteBuffer.allocateDirect(64), READABLE, false);
        int stag = region.stag();
        region.close();
        assertNull(registry.lookup(stag));
        assertFalse(region.isValid());
        assertEquals(0, registry.registeredCount());
        region.close();  // idempotent
        assertEquals(0, registry.registeredCount());
    }

    @Test
    void aStaleStagStaysDeadWhileLaterRegionsComeAndGo_rfc5042_5() throws IOException {
        RegisteredRegion old = registry.register(ByteBuffer.allocateDirect(16), READABLE, false);
        int stale = old.stag();
        old.close();
        for (int round = 0; round < 500; round++) {
            RegisteredRegion later = registry.register(ByteBuffer.allocateDirect(16), READABLE, false);
            assertNotEquals(stale, later.stag());
            assertNull(registry.lookup(stale));
            assertSame(later, registry.lookup(later.stag()));
            later.close();
        }
    }

    @Test
    void registeredRegionsHaveDistinctStags() throws IOException {
        Set<Integer> stags = new HashSet<>();
        for (int i = 0; i < 3000; i++) {
            assertTrue(stags.add(registry.register(ByteBuffer.allocate(1), LOCAL, false).stag()));
        }
    }

    @Test
    void stagsNearALiveOneNameNothing_rfc5042_5() throws IOException {
        RegisteredRegion region = registry.register(ByteBuffer.allocateDirect(64), WRITABLE, false);
        int stag = region.stag();
        for (int bit = 0; bit < 32; bit++) {
            int guess = stag ^ 1 << bit;
            assertNull(registry.lookup(guess), Stag.toString(guess));
        }
        for (int delta = 1; delta <= 256; delta++) {
            assertNull(registry.lookup(stag + delta), "the next STags are not issued in sequence");
            assertNull(registry.lookup(stag - delta));
        }
        assertNull(registry.lookup(-1 ^ stag));
    }

    @Test
    void stagZeroIsNeverIssuedNorFound_rfc6581_7() throws IOException {
        // A generator whose first draws are 0: the registry must skip them.
        MemoryRegistry zerosFirst = new MemoryRegistry(new ScriptedBits(0, 0, 0x1234_5678), 4);
        RegisteredRegion region = zerosFirst.register(ByteBuffer.allocate(1), READABLE, false);
        assertEquals(0x1234_5678, region.stag());
        assertNull(zerosFirst.lookup(Stag.RESERVED));
        assertNull(registry.lookup(Stag.RESERVED));
    }

    @Test
    void aTakenStagIsNeverIssuedAgain() throws IOException {
        // A generator that repeats itself: the second region must not get the first one's STag.
        MemoryRegistry repeating = new MemoryRegistry(new ScriptedBits(7, 7, 7, 9), 4);
        RegisteredRegion first = repeating.register(ByteBuffer.allocate(1), LOCAL, false);
        RegisteredRegion second = repeating.register(ByteBuffer.allocate(1), LOCAL, false);
        assertEquals(7, first.stag());
        assertEquals(9, second.stag());
        assertSame(first, repeating.lookup(7));
        assertSame(second, repeating.lookup(9));
    }

    @Test
    void aBrokenGeneratorIsReportedNotLoopedOn() throws IOException {
        MemoryRegistry stuck = new MemoryRegistry(new ScriptedBits(5), 4);
        stuck.register(ByteBuffer.allocate(1), LOCAL, false);
        assertThrows(IllegalStateException.class, () -> stuck.register(ByteBuffer.allocate(1), LOCAL, false));
    }

    @Test
    void stagsAreRandomOverAllThirtyTwoBits_rfc5042_5() throws IOException {
        int everSet = 0;
        int everClear = 0;
        Set<Integer> highOctets = new HashSet<>();
        Set<Integer> lowOctets = new HashSet<>();
        for (int i = 0; i < 2000; i++) {
            int stag = registry.register(ByteBuffer.allocate(1), LOCAL, false).stag();
            everSet |= stag;
            everClear |= ~stag;
            highOctets.add(stag >>> 24);
            lowOctets.add(stag & 0xFF);
        }
        assertEquals(-1, everSet, "every bit is 1 in some STag");
        assertEquals(-1, everClear, "every bit is 0 in some STag");
        assertTrue(highOctets.size() > 200, "the high octet took " + highOctets.size() + " of 256 values");
        assertTrue(lowOctets.size() > 200, "the low octet took " + lowOctets.size() + " of 256 values");
    }

    @Test
    void bitsAreDrawnInBulkNotPerRegistration() throws IOException {
        ScriptedBits counting = new ScriptedBits();
        MemoryRegistry buffered = new MemoryRegistry(counting, 100);
        for (int i = 0; i < 16; i++) {
            buffered.register(ByteBuffer.allocate(1), LOCAL, false);
        }
        assertEquals(1, counting.draws, "16 STags from one draw of 64 bytes");
    }

    @Test
    void tableGrowsAndEveryRegionStaysReachable() throws IOException {
        List<RegisteredRegion> regions = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            regions.add(registry.register(ByteBuffer.allocate(1), LOCAL, false));
        }
        for (RegisteredRegion region : regions) {
            assertSame(region, registry.lookup(region.stag()));
        }
        assertEquals(5000, registry.registeredCount());
    }

    @Test
    void fullTableRefusesWithIoException() throws IOException {
        MemoryRegistry small = new MemoryRegistry(new SecureRandom(), 3);
        RegisteredRegion first = small.register(ByteBuffer.allocate(1), LOCAL, false);
        small.register(ByteBuffer.allocate(1), LOCAL, false);
        small.register(ByteBuffer.allocate(1), LOCAL, false);
        IOException full = assertThrows(IOException.class, () -> small.register(ByteBuffer.allocate(1), LOCAL, false));
        assertTrue(full.getMessage().contains("cannot register more than 3 regions"), full.getMessage());
        first.close();
        assertEquals(2, small.registeredCount());
        small.register(ByteBuffer.allocate(1), LOCAL, false);  // room again
    }

    @Test
    void theRegionIsTheWholeBufferWhateverItsPositionAndLimit() throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(100);
        buffer.position(10).limit(20);
        RegisteredRegion region = registry.register(buffer, LOCAL, false);
        buffer.limit(60).position(50);  // the application's changes do not matter
        ByteBuffer view = region.buffer();
        assertEquals(0, view.position());
        assertEquals(100, view.limit());
        assertEquals(100, region.length());
        view.put(99, (byte) 7);
        assertEquals(7, buffer.clear().get(99), "the region is the application's memory, not a copy");
    }

    @Test
    void heapBuffersAreAllowed() throws IOException {
        RegisteredRegion region = registry.register(ByteBuffer.allocate(32), WRITABLE, false);
        assertFalse(region.buffer().isDirect());
        assertSame(region, registry.lookup(region.stag()));
    }

    @Test
    void readOnlyBufferOnlyWithoutWriteRights() throws IOException {
        ByteBuffer readOnly = ByteBuffer.allocateDirect(32).asReadOnlyBuffer();
        RegisteredRegion region = registry.register(readOnly, READABLE, false);
        assertTrue(region.buffer().isReadOnly());
        for (Access right : List.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE)) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> registry.register(readOnly, EnumSet.of(Access.REMOTE_READ, right), false));
            assertTrue(refused.getMessage().contains("read-only"), refused.getMessage());
        }
        assertEquals(1, registry.registeredCount());
    }

    @Test
    void accessSetIsCopiedAndUnmodifiable() throws IOException {
        Set<Access> rights = EnumSet.of(Access.REMOTE_READ);
        RegisteredRegion region = registry.register(ByteBuffer.allocate(8), rights, false);
        rights.add(Access.REMOTE_WRITE);
        assertEquals(EnumSet.of(Access.REMOTE_READ), region.access());
        assertFalse(region.allows(Access.REMOTE_WRITE));
        assertThrows(UnsupportedOperationException.class, () -> region.access().add(Access.LOCAL_WRITE));
        assertEquals(Set.of(), registry.register(ByteBuffer.allocate(8), Set.of(), false).access());
    }

    @Test
    void closeAllDeregistersEverythingAndRefusesNewRegistrations() throws IOException {
        RegisteredRegion a = registry.register(ByteBuffer.allocate(8), LOCAL, false);
        RegisteredRegion b = registry.register(ByteBuffer.allocateDirect(8), WRITABLE, false);
        registry.closeAll();
        assertFalse(a.isValid());
        assertFalse(b.isValid());
        assertNull(registry.lookup(a.stag()));
        assertNull(registry.lookup(b.stag()));
        assertEquals(0, registry.registeredCount());
        assertTrue(registry.isClosed());
        assertThrows(IOException.class, () -> registry.register(ByteBuffer.allocate(8), LOCAL, false));
        a.close();  // harmless after closeAll
    }

    @Test
    void aRegionOfAnotherRegistryIsNotDeregisteredHere() throws IOException {
        MemoryRegistry other = new MemoryRegistry();
        RegisteredRegion mine = registry.register(ByteBuffer.allocate(8), LOCAL, false);
        RegisteredRegion theirs = other.register(ByteBuffer.allocate(8), LOCAL, false);
        registry.deregister(theirs);
        assertTrue(theirs.isValid());
        assertSame(mine, registry.lookup(mine.stag()));
    }

    // ---- Send with Invalidate, RFC 5040 section 5.3 ---------------------------------------------

    @Test
    void invalidatingAnAdvertisedRegionKillsItsStag_rfc5040_5_3() throws IOException {
        RegisteredRegion region = registry.register(ByteBuffer.allocateDirect(64), WRITABLE, false);
        assertNull(registry.invalidate(region.stag()));
        assertFalse(region.isValid());
        assertNull(registry.lookup(region.stag()));
        assertEquals(1, registry.registeredCount(), "still registered until the application closes it");
        assertNull(registry.invalidate(region.stag()), "invalidating an invalid STag again is allowed");
        assertThrows(IllegalStateException.class, region::remote);
        region.close();
        assertEquals(0, registry.registeredCount());
    }

    @Test
    void localOnlyRegionCannotBeInvalidatedByThePeer_rfc5040_4_8_and_5_3() throws IOException {
        RegisteredRegion region = registry.register(ByteBuffer.allocateDirect(64), LOCAL, false);
        assertSame(TerminateCause.RDMAP_PROTECTION_CANNOT_INVALIDATE, registry.invalidate(region.stag()));
        assertTrue(region.isValid(), "the refused invalidation changed nothing");
    }

    @Test
    void unknownStaleOrGuessedStagCannotBeInvalidated_rfc5040_4_8_and_5_3() throws IOException {
        RegisteredRegion region = registry.register(ByteBuffer.allocateDirect(64), READABLE, false);
        int guess = region.stag() ^ 1;
        assertSame(TerminateCause.RDMAP_PROTECTION_CANNOT_INVALIDATE, registry.invalidate(guess));
        assertSame(TerminateCause.RDMAP_PROTECTION_CANNOT_INVALIDATE, registry.invalidate(0));
        assertTrue(region.isValid());
        region.close();
        assertSame(TerminateCause.RDMAP_PROTECTION_CANNOT_INVALIDATE, registry.invalidate(region.stag()));
    }

    /**
     * A stand-in generator: the given 32-bit values first (big-endian, as the registry reads
     * them), then a counter; counts its bulk draws.
     */
    private static final class ScriptedBits extends Random {
        private final int[] script;
        private int next;
        private int counter = 0x0100_0000;
        int draws;

        ScriptedBits(int... script) {
            this.script = script;
        }

        @Override
        public void nextBytes(byte[] bytes) {
            draws++;
            for (int i = 0; i + 4 <= bytes.length; i += 4) {
                int value = next < script.length ? script[next++] : script.length == 1 ? script[0] : counter++;
                bytes[i] = (byte) (value >>> 24);
                bytes[i + 1] = (byte) (value >>> 16);
                bytes[i + 2] = (byte) (value >>> 8);
                bytes[i + 3] = (byte) value;
            }
        }
    }
}

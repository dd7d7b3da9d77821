package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.wire.TerminateCause;
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
    void reusedIndexGetsAnotherKeySoTheStaleStagStaysDead_rfc5042_5() throws IOException {
        for (int round = 0; round < 500; round++) {
            RegisteredRegion old = registry.register(ByteBuffer.allocateDirect(16), READABLE, false);
            old.close();
            RegisteredRegion reuser = registry.register(ByteBuffer.allocateDirect(16), READABLE, false);
            assertEquals(Stag.index(old.stag()), Stag.index(reuser.stag()), "a single freed index is reused");
            assertNotEquals(old.stag(), reuser.stag(), "the reused index has a new key");
            assertNull(registry.lookup(old.stag()));
            assertSame(reuser, registry.lookup(reuser.stag()));
            reuser.close();
        }
    }

    @Test
    void freedIndicesAreReusedOldestFirst() throws IOException {
        List<RegisteredRegion> regions = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            regions.add(registry.register(ByteBuffer.allocate(8), LOCAL, false));
        }
        regions.get(2).close();
        regions.get(0).close();
        assertEquals(Stag.index(regions.get(2).stag()),
                Stag.index(registry.register(ByteBuffer.allocate(8), LOCAL, false).stag()));
        assertEquals(Stag.index(regions.get(0).stag()),
                Stag.index(registry.register(ByteBuffer.allocate(8), LOCAL, false).stag()));
    }

    @Test
    void guessedKeysNameNothing_rfc5042_5() throws IOException {
        RegisteredRegion region = registry.register(ByteBuffer.allocateDirect(64), WRITABLE, false);
        int index = Stag.index(region.stag());
        for (int key = 0; key < 256; key++) {
            int guess = Stag.of(index, key);
            if (guess != region.stag()) {
                assertNull(registry.lookup(guess), Stag.toString(guess));
            }
        }
        assertNull(registry.lookup(Stag.of(index + 1, Stag.key(region.stag()))), "an index not issued");
        assertNull(registry.lookup(Stag.of(Stag.MAX_INDEX, 0xff)), "an index beyond the table");
        assertNull(registry.lookup(-1));
    }

    @Test
    void stagZeroIsNeverIssuedNorFound_rfc6581_7() throws IOException {
        for (int i = 0; i < 300; i++) {
            RegisteredRegion region = registry.register(ByteBuffer.allocate(1), READABLE, false);
            assertNotEquals(0, Stag.index(region.stag()), "index 0 is reserved");
        }
        for (int key = 0; key < 256; key++) {
            assertNull(registry.lookup(Stag.of(0, key)));
        }
    }

    @Test
    void keysAreSpreadOverAllEightBits() throws IOException {
        Set<Integer> keys = new HashSet<>();
        for (int i = 0; i < 2000; i++) {
            keys.add(Stag.key(registry.register(ByteBuffer.allocate(1), LOCAL, false).stag()));
        }
        assertTrue(keys.size() > 200, "2000 random keys hit " + keys.size() + " of 256 values");
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
        assertSame(Stag.index(first.stag()), Stag.index(small.register(ByteBuffer.allocate(1), LOCAL, false).stag()));
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
        int guess = Stag.of(Stag.index(region.stag()), Stag.key(region.stag()) + 1);
        assertSame(TerminateCause.RDMAP_PROTECTION_CANNOT_INVALIDATE, registry.invalidate(guess));
        assertSame(TerminateCause.RDMAP_PROTECTION_CANNOT_INVALIDATE, registry.invalidate(0));
        assertTrue(region.isValid());
        region.close();
        assertSame(TerminateCause.RDMAP_PROTECTION_CANNOT_INVALIDATE, registry.invalidate(region.stag()));
    }

    @Test
    void keyOfAReusedIndexDiffersFromItsLastEvenWithAFixedKeySource() throws IOException {
        // A key source that always says 0: the previous key must still be avoided.
        Random zeros = new Random() {
            @Override
            public int nextInt(int bound) {
                return 0;
            }
        };
        MemoryRegistry fixed = new MemoryRegistry(zeros, 4);
        Set<Integer> stags = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            RegisteredRegion region = fixed.register(ByteBuffer.allocate(1), LOCAL, false);
            assertTrue(stags.add(region.stag()), "a reused STag: " + Stag.toString(region.stag()));
            region.close();
        }
    }
}

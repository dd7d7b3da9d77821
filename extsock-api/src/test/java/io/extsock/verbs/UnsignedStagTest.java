package io.extsock.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * An STag with its top bit set, as half of them are: a user sees it unsigned everywhere, as the
 * number {@code stagUnsigned()} gives and as the hex every {@code toString()} shows, while
 * {@code stag()} and the 16-byte form keep its 32 bits as they are.
 */
class UnsignedStagTest {

    private static final int TOP_BIT_SET = 0x94da0602;

    @Test
    void aRemoteBufferShowsAndReturnsItsStagUnsignedAndKeepsTheWireForm() {
        RemoteBuffer buffer = new RemoteBuffer(TOP_BIT_SET, 16, 100);

        assertEquals(-1797650942, buffer.stag());
        assertEquals(2497316354L, buffer.stagUnsigned());
        assertEquals("RemoteBuffer[stag=0x94da0602, offset=16, length=100]", buffer.toString());
        ByteBuffer wire = ByteBuffer.allocate(RemoteBuffer.ENCODED_LENGTH);
        buffer.writeTo(wire);
        assertEquals(TOP_BIT_SET, wire.getInt(8), "the STag's 32 bits on the wire, as before");
        assertEquals(buffer, RemoteBuffer.readFrom(wire.flip()));
    }

    @Test
    void aMemoryRegionReturnsItsStagUnsigned() {
        MemoryRegion region = new FixedStagRegion(TOP_BIT_SET);

        assertEquals(2497316354L, region.stagUnsigned());
        assertEquals(0x0001a2c7L, new FixedStagRegion(0x0001a2c7).stagUnsigned(), "a small one as it is");
    }

    @Test
    void aCompletionShowsAnInvalidatedStagInHex() {
        WorkCompletion completion = new WorkCompletion(7, WorkOpcode.RECEIVE, CompletionStatus.SUCCESS, 10, false,
                TOP_BIT_SET, null);

        assertTrue(completion.toString().contains("invalidatedStag=0x94da0602"), completion.toString());
        assertEquals(TOP_BIT_SET, completion.invalidatedStag());
    }

    /** A region with nothing but an STag: what the interface's own methods need. */
    private record FixedStagRegion(int stag) implements MemoryRegion {
        public ByteBuffer buffer() {
            throw new UnsupportedOperationException();
        }

        public long length() {
            return 0;
        }

        public Set<Access> access() {
            return Set.of();
        }

        public boolean isPinned() {
            return false;
        }

        public boolean isValid() {
            return true;
        }

        public RemoteBuffer remote() {
            throw new UnsupportedOperationException();
        }

        public RemoteBuffer remote(long offset, long length) {
            throw new UnsupportedOperationException();
        }

        public RegionSlice slice(long offset, int length) {
            throw new UnsupportedOperationException();
        }

        public void close() {
        }
    }
}

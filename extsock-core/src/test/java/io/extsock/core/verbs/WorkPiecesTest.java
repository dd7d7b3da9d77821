package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.extsock.verbs.Access;
import io.extsock.verbs.WorkRequest;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/**
 * A queue entry's pieces: the first two in fields, the rest in arrays made when a request first
 * has more, every piece kept, up to the most a request has.
 */
class WorkPiecesTest {

    @Test
    void growsToTheMostPiecesARequestHasKeepingEachPiece() {
        WorkPieces pieces = new WorkPieces();
        pieces.add(ByteBuffer.allocate(8));
        pieces.clear();  // pooled after a small request, as entries are
        ByteBuffer[] buffers = new ByteBuffer[WorkRequest.MAX_SLICES];
        for (int i = 0; i < buffers.length; i++) {
            buffers[i] = ByteBuffer.allocate(64).position(i).limit(i + 1 + i);
            pieces.add(buffers[i]);
        }
        assertEquals(WorkRequest.MAX_SLICES, pieces.count());
        for (int i = 0; i < buffers.length; i++) {
            assertEquals(i, pieces.offset(i), "piece " + i + "'s offset");
            assertEquals(i + 1, pieces.length(i), "piece " + i + "'s length");
            assertSame(buffers[i], pieces.bufferWindow(i, 0, i + 1), "piece " + i + "'s buffer");
        }
    }

    @Test
    void keepsRegionsAndBuffersApartAcrossTheFieldsAndTheArraysAndAfterReuse() throws Exception {
        MemoryRegistry registry = new MemoryRegistry();
        RegisteredRegion region = registry.register(ByteBuffer.allocate(256), EnumSet.of(Access.LOCAL_WRITE), false);
        WorkPieces pieces = new WorkPieces();
        for (int round = 0; round < 2; round++) {  // the second on the cleared, pooled entry
            ByteBuffer[] buffers = new ByteBuffer[WorkRequest.MAX_SLICES];
            for (int i = 0; i < WorkRequest.MAX_SLICES; i++) {
                if ((i + round) % 2 == 0) {
                    pieces.add(region, 10L * i, i + 3);
                } else {
                    buffers[i] = ByteBuffer.allocate(64).position(i);
                    pieces.add(buffers[i]);
                }
            }
            for (int i = 0; i < WorkRequest.MAX_SLICES; i++) {
                String piece = "round " + round + ", piece " + i;
                if (buffers[i] == null) {
                    assertSame(region, pieces.region(i), piece);
                    assertEquals(10L * i, pieces.offset(i), piece);
                    assertEquals(i + 3, pieces.length(i), piece);
                } else {
                    assertNull(pieces.region(i), piece);
                    assertEquals(i, pieces.offset(i), piece);
                    assertEquals(64 - i, pieces.length(i), piece);
                    ByteBuffer window = pieces.bufferWindow(i, 1, 2);
                    assertSame(buffers[i], window, piece);
                    assertEquals(i + 1, window.position(), piece);
                    assertEquals(i + 2, window.limit(), piece);
                }
            }
            pieces.clear();
            assertEquals(0, pieces.count());
        }
    }

    @Test
    void aClearedEntryHoldsNoBufferInItsFieldsOrItsArrays() throws InterruptedException {
        WorkPieces pieces = new WorkPieces();
        WeakReference<ByteBuffer> inAField = addedAndForgotten(pieces);
        pieces.add(ByteBuffer.allocate(8));
        WeakReference<ByteBuffer> inAnArray = addedAndForgotten(pieces);
        pieces.clear();
        for (int i = 0; i < 50 && (inAField.get() != null || inAnArray.get() != null); i++) {
            System.gc();
            Thread.sleep(10);  // a polling interval while the collector clears the references
        }
        assertNull(inAField.get(), "the first piece's buffer, held in a field, is still reachable");
        assertNull(inAnArray.get(), "the third piece's buffer, held in an array, is still reachable");
        assertEquals(0, pieces.count());
    }

    private static WeakReference<ByteBuffer> addedAndForgotten(WorkPieces pieces) {
        ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
        pieces.add(buffer);
        return new WeakReference<>(buffer);
    }

    @Test
    void refusesAPieceBeyondTheMost() {
        WorkPieces pieces = new WorkPieces();
        for (int i = 0; i < WorkRequest.MAX_SLICES; i++) {
            pieces.add(ByteBuffer.allocate(4));
        }
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> pieces.add(ByteBuffer.allocate(4)));
        assertEquals("a request has at most " + WorkRequest.MAX_SLICES + " pieces", refused.getMessage());
    }
}

package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.extsock.verbs.WorkRequest;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** A queue entry's pieces start with room for a few and grow, keeping every piece, to the most a request has. */
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

package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The staging memory file regions' bytes are read into: carved without overlap, reused after a write, bounded. */
class StagingArenaTest {

    @Test
    @DisplayName("Views are carved to their length without overlapping, small ones sharing a block")
    void viewsDoNotOverlap() {
        StagingArena arena = new StagingArena();
        List<ByteBuffer> views = new ArrayList<>();
        int[] lengths = {1460, 1460, 65_535, 0, 7, 1460};
        for (int i = 0; i < lengths.length; i++) {
            ByteBuffer view = arena.take(lengths[i]);
            assertEquals(0, view.position());
            assertEquals(lengths[i], view.limit());
            assertTrue(view.isDirect());
            while (view.hasRemaining()) {
                view.put((byte) (i + 1));
            }
            views.add(view);
        }
        for (int i = 0; i < views.size(); i++) {
            ByteBuffer view = views.get(i);
            for (int at = 0; at < view.limit(); at++) {
                assertEquals((byte) (i + 1), view.get(at), "view " + i + " octet " + at + " was overwritten");
            }
        }
        assertEquals(1, arena.blockCount(), "131 KiB of payloads in one block");
    }

    @Test
    @DisplayName("A payload that does not fit the block's rest takes the next; a reset reuses and trims the blocks")
    void blocksAreReusedAndTrimmed() {
        StagingArena arena = new StagingArena();
        int payload = 65_535;
        int perBlock = StagingArena.BLOCK_SIZE / payload;  // 16
        for (int i = 0; i < perBlock * 5; i++) {
            arena.take(payload);
        }
        assertEquals(5, arena.blockCount());
        arena.reset();
        assertEquals(StagingArena.MAX_KEPT, arena.blockCount(), "blocks beyond what is kept go");
        for (int i = 0; i < perBlock * StagingArena.MAX_KEPT; i++) {
            arena.take(payload);
        }
        assertEquals(StagingArena.MAX_KEPT, arena.blockCount(), "the kept blocks are carved again");
        assertThrows(IllegalArgumentException.class, () -> arena.take(StagingArena.BLOCK_SIZE + 1));
        assertThrows(IllegalArgumentException.class, () -> arena.take(-1));
    }
}

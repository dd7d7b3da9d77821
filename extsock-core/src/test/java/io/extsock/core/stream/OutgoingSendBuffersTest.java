package io.extsock.core.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Which slot each stream Send goes out from: never one an outstanding Send still uses, and,
 * for a writer that waits for each Send to complete, always the same one, so that a
 * request/response stream keeps one warm slot instead of going through a hundred cold ones.
 */
class OutgoingSendBuffersTest {

    private static final int MAX_OUTSTANDING = PeerWindow.MAX_DATA_SENDS_IN_FLIGHT;

    @Test
    void aWriterThatWaitsForEachSendUsesOneSlotAndItsBuffers() {
        OutgoingSendBuffers buffers = new OutgoingSendBuffers();
        byte[] written = new byte[64];
        int slot = buffers.take(StreamHeader.DATA, 1);
        ByteBuffer header = buffers.header(slot, StreamHeader.DATA, 0, 0);
        ByteBuffer payload = buffers.payload(slot, written, 0, 64);
        for (int send = 1; send < 3 * MAX_OUTSTANDING; send++) {
            int next = buffers.take(StreamHeader.DATA, 1);
            assertEquals(slot, next, "Send " + send + ", the one before it completed");
            assertSame(header, buffers.header(next, StreamHeader.DATA, 0, send & 0xFFFF));
            assertSame(payload, buffers.payload(next, written, 0, 64));
        }
    }

    @Test
    void aSlotIsNeverOneAnOutstandingSendUsesEvenAfterRefusedSends() {
        Random random = new Random(5040);
        OutgoingSendBuffers buffers = new OutgoingSendBuffers();
        ArrayDeque<Integer> outstanding = new ArrayDeque<>();  // slots, in posting (and completion) order
        Set<Integer> used = new HashSet<>();
        int resets = 0;
        int refusals = 0;
        for (int step = 0; step < 200_000; step++) {
            boolean post = outstanding.isEmpty()
                    || outstanding.size() < MAX_OUTSTANDING && random.nextInt(100) < (step / 20_000 % 2 == 0 ? 55 : 45);
            if (post && random.nextInt(100) < 3) {
                // Refused before it was queued (the queue pair ended): it holds no slot.
                buffers.refused(buffers.take(StreamHeader.DATA, outstanding.size() + 1));
                refusals++;
            } else if (post) {
                int slot = buffers.take(StreamHeader.DATA, outstanding.size() + 1);
                assertTrue(slot >= 0 && slot < MAX_OUTSTANDING, "a DATA slot: " + slot);
                assertTrue(used.add(slot), "step " + step + ": slot " + slot + " is still in use by " + outstanding);
                if (outstanding.isEmpty()) {
                    assertEquals(0, slot, "nothing outstanding: the first slot again");
                    resets++;
                }
                outstanding.addLast(slot);
            } else {
                used.remove(outstanding.removeFirst());  // Sends complete in posting order
            }
        }
        assertTrue(resets > 100, "the walk came back to nothing outstanding often: " + resets);
        assertTrue(refusals > 1000, "refused Sends among the posts: " + refusals);
    }

    @Test
    void creditAndFinHaveSlotsOfTheirOwn() {
        OutgoingSendBuffers buffers = new OutgoingSendBuffers();
        Set<Integer> data = new HashSet<>();
        for (int outstanding = 1; outstanding <= MAX_OUTSTANDING; outstanding++) {
            data.add(buffers.take(StreamHeader.DATA, outstanding));
        }
        assertEquals(MAX_OUTSTANDING, data.size(), "as many DATA slots as Sends may be outstanding");
        int credit = buffers.take(StreamHeader.CREDIT, MAX_OUTSTANDING);
        int fin = buffers.take(StreamHeader.FIN, MAX_OUTSTANDING);
        assertTrue(!data.contains(credit) && !data.contains(fin), "CREDIT " + credit + ", FIN " + fin);
        assertNotEquals(credit, fin);
    }

    @Test
    void aCountOfOutstandingSendsThatBreaksTheBoundIsRefused() {
        OutgoingSendBuffers buffers = new OutgoingSendBuffers();
        IllegalStateException none = assertThrows(IllegalStateException.class,
                () -> buffers.take(StreamHeader.DATA, 0));
        assertTrue(none.getMessage().contains("0 DATA Sends outstanding"), none.getMessage());
        assertThrows(IllegalStateException.class, () -> buffers.take(StreamHeader.DATA, MAX_OUTSTANDING + 1));
    }
}

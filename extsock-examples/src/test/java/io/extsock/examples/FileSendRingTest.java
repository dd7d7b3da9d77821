package io.extsock.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.RegionSlice;
import io.extsock.verbs.RemoteBuffer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The serving end's ring for the write method: each slot filled from the right place in the
 * file, a file that shrank reported as such, and a client whose ring has more and larger slots
 * than ours still gets the whole file, in chunks of at most one slot of ours (whole transfers
 * with the command's own client: FileTransferIT).
 */
@Timeout(60)
class FileSendRingTest {

    private static final int SLOT = FileSendRing.SLOT_SIZE;

    @TempDir
    Path directory;
    private IwarpSocketPair pair;
    private Path path;
    private byte[] content;

    @BeforeEach
    void open() throws Exception {
        pair = IwarpSocketPair.open();
        content = new byte[3 * SLOT + 123];
        new SplittableRandom(7).nextBytes(content);
        path = directory.resolve("served.bin");
        Files.write(path, content);
    }

    @AfterEach
    void close() throws Exception {
        pair.close();
    }

    @Test
    void aSlotIsFilledFromItsPlaceInTheFile() throws Exception {
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ);
             FileSendRing ring = FileSendRing.register(pair.serverVerbs(), file, 2)) {
            RegionSlice first = ring.fill(1, 5, 1000);
            RegionSlice second = ring.fill(0, 2L * SLOT + 9, SLOT);
            assertEquals(SLOT, first.offset());
            assertEquals(1000, first.length());
            assertEquals(0, second.offset());
            assertArrayEquals(Arrays.copyOfRange(content, 5, 1005), bytes(first));
            assertArrayEquals(Arrays.copyOfRange(content, 2 * SLOT + 9, 3 * SLOT + 9), bytes(second));
        }
    }

    @Test
    void aFileThatEndsBeforeTheChunkIsAnEndOfFileThatSaysWhere() throws Exception {
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ);
             FileSendRing ring = FileSendRing.register(pair.serverVerbs(), file, 1)) {
            EOFException shrank = assertThrows(EOFException.class, () -> ring.fill(0, 3L * SLOT, 200));
            assertTrue(shrank.getMessage().contains("ended at " + content.length), shrank.getMessage());
        }
    }

    @Test
    void slotsAndLengthsOutsideTheRingAreRefused() throws Exception {
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ);
             FileSendRing ring = FileSendRing.register(pair.serverVerbs(), file, 2)) {
            assertThrows(IndexOutOfBoundsException.class, () -> ring.fill(2, 0, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> ring.fill(-1, 0, 1));
            assertThrows(IllegalArgumentException.class, () -> ring.fill(0, 0, SLOT + 1));
        }
        assertThrows(IllegalArgumentException.class, () -> FileSendRing.register(pair.serverVerbs(), null, 0));
        assertThrows(IllegalArgumentException.class,
                () -> FileSendRing.register(pair.serverVerbs(), null, FileSendRing.SLOTS + 1));
    }

    @Test
    void aClientRingOfMoreAndLargerSlotsGetsTheWholeFileInChunksOfOneSlotOfOurs() throws Exception {
        int clientSlots = FileSendRing.SLOTS + 4;
        int clientSlot = 2 * SLOT;
        CompletableFuture<FileSender.Outcome> served = CompletableFuture.supplyAsync(() -> {
            try {
                return new FileSender(path, true).serve(pair.accepted());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        DataInputStream in = new DataInputStream(pair.client().getInputStream());
        DataOutputStream out = new DataOutputStream(pair.client().getOutputStream());
        out.writeInt(FileProtocol.MAGIC);
        out.writeByte(FileMethod.write.ordinal());
        out.flush();
        assertEquals(FileProtocol.OK, in.read());
        assertEquals("served.bin", in.readUTF());
        assertEquals(content.length, in.readLong());
        out.writeByte(FileProtocol.READY);
        try (MemoryRegion ring = pair.clientVerbs().register(ByteBuffer.allocateDirect(clientSlots * clientSlot),
                EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE))) {
            FileProtocol.writeRegions(out, IntStream.range(0, clientSlots)
                    .mapToObj(slot -> ring.remote((long) slot * clientSlot, clientSlot)).toList());
            byte[] received = new byte[content.length];
            List<Integer> lengths = new ArrayList<>();
            int position = 0;
            for (int tag; (tag = in.read()) == FileProtocol.CHUNK; ) {
                int length = in.readInt();
                lengths.add(length);
                ring.buffer().get((lengths.size() - 1) % clientSlots * clientSlot, received, position, length);
                position += length;
                out.writeByte(FileProtocol.FREE);
                out.flush();
            }
            assertEquals(List.of(SLOT, SLOT, SLOT, 123), lengths);
            assertArrayEquals(content, received);
            byte[] hash = FileProtocol.readHash(in);
            assertArrayEquals(Sha256.of(path), hash);
        }
        out.writeByte(1);
        out.flush();
        pair.client().close();
        FileSender.Outcome outcome = served.get();
        assertEquals(FileMethod.write, outcome.method());
        assertEquals(content.length, outcome.bytes());
        assertTrue(outcome.clientVerified());
    }

    private static byte[] bytes(RegionSlice slice) {
        byte[] bytes = new byte[slice.length()];
        slice.region().buffer().get((int) slice.offset(), bytes);
        return bytes;
    }
}

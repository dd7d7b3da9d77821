package io.extsock.examples.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.MemoryRegion;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
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
import java.util.concurrent.CompletionException;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The serving end of the write method, driven by a hand-written client: Writes gathered from a
 * file region of the served file, in chunks of at most one slot of the client's own ring
 * whatever slots a client offers, and a file that shrinks under the transfer ends it with an
 * error naming the file on both ends, never with wrong bytes (whole transfers with the command's
 * own client: FileTransferIT).
 */
@Timeout(60)
class FileSenderWritesTest {

    private static final int CHUNK = FileSender.CHUNK;

    @TempDir
    Path directory;
    private IwarpSocketPair pair;
    private Path path;
    private byte[] content;

    @BeforeEach
    void open() throws Exception {
        pair = IwarpSocketPair.open();
        content = new byte[3 * CHUNK + 123];
        new SplittableRandom(7).nextBytes(content);
        path = directory.resolve("served.bin");
        Files.write(path, content);
    }

    @AfterEach
    void close() throws Exception {
        pair.close();
    }

    @Test
    void aClientRingOfMoreAndLargerSlotsGetsTheWholeFileInChunksOfOneSlotOfItsRing() throws Exception {
        int clientSlots = FileRing.SLOTS + 4;
        int clientSlot = 2 * CHUNK;
        CompletableFuture<FileSender.Outcome> served = serve();
        DataInputStream in = new DataInputStream(pair.client().getInputStream());
        DataOutputStream out = new DataOutputStream(pair.client().getOutputStream());
        request(in, out);
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
            assertEquals(List.of(CHUNK, CHUNK, CHUNK, 123), lengths);
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

    @Test
    void aFileThatShrinksUnderTheTransferEndsItNamingTheFile() throws Exception {
        CompletableFuture<FileSender.Outcome> served = serve();
        DataInputStream in = new DataInputStream(pair.client().getInputStream());
        DataOutputStream out = new DataOutputStream(pair.client().getOutputStream());
        request(in, out);
        ByteBuffer slot = ByteBuffer.allocateDirect(CHUNK);
        try (MemoryRegion ring = pair.clientVerbs().register(slot, EnumSet.of(Access.LOCAL_WRITE,
                Access.REMOTE_WRITE))) {
            FileProtocol.writeRegions(out, List.of(ring.remote()));  // one slot: the server waits for each FREE
            assertEquals(FileProtocol.CHUNK, in.read());
            assertEquals(CHUNK, in.readInt());
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
                channel.truncate(CHUNK + 100);  // the next chunk reaches beyond the file's new end
            }
            byte[] landed = new byte[CHUNK];
            slot.get(0, landed);
            assertArrayEquals(Arrays.copyOf(content, CHUNK), landed);
            out.writeByte(FileProtocol.FREE);
            out.flush();
            IOException ended = assertThrows(IOException.class, () -> {
                while (in.read() >= 0) {
                    in.skipBytes(4);
                }
                throw new IOException("the stream ended without an error");
            });
            assertTrue(String.valueOf(ended.getMessage()).contains("terminated by the peer: RDMAP local catastrophic error"),
                    ended.toString());
            slot.get(0, landed);
            assertArrayEquals(Arrays.copyOf(content, CHUNK), landed,
                    "nothing of the chunk that reached beyond the file was placed (its first segment did)");
        }
        CompletionException failed = assertThrows(CompletionException.class, served::join);
        String chain = causes(failed);
        assertTrue(chain.contains(path.toString()) && chain.contains("ended at byte " + (CHUNK + 100)), chain);
    }

    private CompletableFuture<FileSender.Outcome> serve() {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new FileSender(path, true).serve(pair.accepted());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private void request(DataInputStream in, DataOutputStream out) throws IOException {
        out.writeInt(FileProtocol.MAGIC);
        out.writeByte(FileMethod.write.ordinal());
        out.flush();
        assertEquals(FileProtocol.OK, in.read());
        assertEquals("served.bin", in.readUTF());
        assertEquals(content.length, in.readLong());
        out.writeByte(FileProtocol.READY);
    }

    private static String causes(Throwable failure) {
        StringBuilder chain = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            chain.append(t).append(" <- ");
        }
        return chain.toString();
    }
}

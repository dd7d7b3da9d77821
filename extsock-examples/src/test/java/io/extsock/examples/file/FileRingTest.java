package io.extsock.examples.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.RemoteBuffer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.SocketException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The getting end's ring (whole transfers through it: FileTransferIT): what a server reports
 * about its chunks is checked before a byte reaches the file, every chunk written out gives its
 * slot back, and RDMA Reads are refused when the server's regions do not add up to the file.
 */
@Timeout(60)
class FileRingTest {

    private static final int SLOT = 16;

    @TempDir
    Path directory;
    private IwarpSocketPair pair;
    private FileChannel file;
    private FileRing ring;

    @BeforeEach
    void open() throws Exception {
        pair = IwarpSocketPair.open();
        file = FileChannel.open(directory.resolve("part"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        ring = FileRing.register(pair.clientVerbs(), file, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE), 2, SLOT);
    }

    @AfterEach
    void close() throws Exception {
        ring.close();
        file.close();
        pair.close();
    }

    @Test
    void eachChunkWrittenOutGivesItsSlotBack() throws Exception {
        ByteArrayOutputStream answers = new ByteArrayOutputStream();
        int end = ring.receiveWrites(chunks(SLOT, SLOT, 3), new DataOutputStream(answers), 2L * SLOT + 3, done -> { });
        assertEquals(FileProtocol.DONE, end);
        assertArrayEquals(new byte[] {FileProtocol.FREE, FileProtocol.FREE, FileProtocol.FREE}, answers.toByteArray());
        assertEquals(2L * SLOT + 3, file.size());
    }

    @Test
    void aChunkLongerThanItsSlotIsRefusedBeforeTheFileIsTouched() throws Exception {
        SocketException refused = assertThrows(SocketException.class, () -> ring.receiveWrites(chunks(SLOT + 1),
                new DataOutputStream(new ByteArrayOutputStream()), 100, done -> { }));
        assertTrue(refused.getMessage().contains("a chunk of 17 bytes"), refused.getMessage());
        assertEquals(0, file.size());
    }

    @Test
    void aChunkPastTheEndOfTheFileIsRefused() throws Exception {
        SocketException refused = assertThrows(SocketException.class, () -> ring.receiveWrites(chunks(SLOT, SLOT),
                new DataOutputStream(new ByteArrayOutputStream()), 20, done -> { }));
        assertTrue(refused.getMessage().contains("at 16 of 20"), refused.getMessage());
        assertEquals(SLOT, file.size(), "the chunk before it, which fitted, was written");
    }

    @Test
    void anEmptyChunkIsRefused() {
        assertThrows(SocketException.class, () -> ring.receiveWrites(chunks(0),
                new DataOutputStream(new ByteArrayOutputStream()), 100, done -> { }));
    }

    @Test
    void readsAreRefusedWhenTheServersRegionsDoNotAddUpToTheFile() throws Exception {
        SocketException refused = assertThrows(SocketException.class, () -> ring.readFrom(pair.clientVerbs(),
                List.of(new RemoteBuffer(1, 0, 10)), 11, done -> { }));
        assertTrue(refused.getMessage().contains("10 bytes to read for a file of 11"), refused.getMessage());
    }

    @Test
    void theServerSeesOneRemoteBufferPerSlot() {
        List<RemoteBuffer> slots = ring.remoteSlots();
        assertEquals(2, slots.size());
        assertEquals(slots.get(0).stag(), slots.get(1).stag());
        assertEquals(SLOT, slots.get(1).offset() - slots.get(0).offset());
        assertTrue(slots.stream().allMatch(slot -> slot.length() == SLOT));
    }

    /** CHUNK messages of these lengths, then DONE. */
    private static DataInputStream chunks(int... lengths) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        for (int length : lengths) {
            out.writeByte(FileProtocol.CHUNK);
            out.writeInt(length);
        }
        out.writeByte(FileProtocol.DONE);
        return new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
    }
}
